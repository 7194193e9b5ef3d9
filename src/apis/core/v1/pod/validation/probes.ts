/** Probes and lifecycle hooks: exactly one handler each, and the rules of each handler kind. */
import { fieldErr, type FieldError, type FieldPath } from '../../../../../machinery/field-errors.js';
import type { HTTPGetAction, Lifecycle, LifecycleHandler, Probe } from '../probes.js';
import { portNumberProblems, validateNonNegative, validatePortNumOrName } from '../../types/index.js';

const HTTP_SCHEMES = ['HTTP', 'HTTPS'];
const HEADER_NAME = /^[-A-Za-z0-9]+$/;
const HEADER_MSG = "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')";

function validateHttpGet(h: HTTPGetAction, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!h.path) errs.push(fieldErr.required(path.child('path')));
  errs.push(...validatePortNumOrName(h.port, path.child('port')));
  if (!HTTP_SCHEMES.includes(h.scheme ?? '')) errs.push(fieldErr.notSupported(path.child('scheme'), h.scheme ?? '', HTTP_SCHEMES));
  for (const header of h.httpHeaders ?? []) {
    if (!HEADER_NAME.test(header.name)) errs.push(fieldErr.invalid(path.child('httpHeaders'), header.name, HEADER_MSG));
  }
  return errs;
}

/** A probe's or hook's handler: exactly one of exec, httpGet, tcpSocket (and grpc for probes). */
function validateHandler(h: LifecycleHandler & { grpc?: Probe['grpc'] }, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  const one = (name: string, check: () => FieldError[]): void => {
    if (count > 0) {
      errs.push(fieldErr.forbidden(path.child(name), 'may not specify more than 1 handler type'));
      return;
    }
    count++;
    errs.push(...check());
  };
  if (h.exec) {
    const exec = h.exec;
    one('exec', () => ((exec.command ?? []).length === 0 ? [fieldErr.required(path.child('exec').child('command'))] : []));
  }
  if (h.httpGet) {
    const get = h.httpGet;
    one('httpGet', () => validateHttpGet(get, path.child('httpGet')));
  }
  if (h.tcpSocket) {
    const tcp = h.tcpSocket;
    one('tcpSocket', () => validatePortNumOrName(tcp.port, path.child('tcpSocket').child('port')));
  }
  if (h.grpc) {
    const grpc = h.grpc;
    one('grpc', () => portNumberProblems(grpc.port).map((m) => fieldErr.invalid(path.child('grpc').child('port'), grpc.port, m)));
  }
  if (count === 0) errs.push(fieldErr.required(path, 'must specify a handler type'));
  return errs;
}

export function validateProbe(probe: Probe | undefined, path: FieldPath): FieldError[] {
  if (!probe) return [];
  const errs = validateHandler(probe, path);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const) {
    errs.push(...validateNonNegative(probe[f], path.child(f)));
  }
  const grace = probe.terminationGracePeriodSeconds;
  if (grace !== undefined && grace <= 0) errs.push(fieldErr.invalid(path.child('terminationGracePeriodSeconds'), grace, 'must be greater than 0'));
  return errs;
}

export function validateLifecycle(lc: Lifecycle, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (lc.postStart) errs.push(...validateHandler(lc.postStart, path.child('postStart')));
  if (lc.preStop) errs.push(...validateHandler(lc.preStop, path.child('preStop')));
  return errs;
}
