/**
 * One HTTPS POST of an AdmissionReview to a webhook: to its URL, or to an endpoint of its Service
 * verified as `<name>.<namespace>.svc`; trusting its caBundle (else the system roots); presenting
 * the credentials the admission kubeconfig holds for its host; cut off after timeoutSeconds. Errors
 * carry Go's wording (`Post "<url>": ...`) and the Status a rejection metric counts.
 */
import { request, type RequestOptions } from 'node:https';
import { isIP } from 'node:net';
import { checkServerIdentity as defaultCheck } from 'node:tls';
import type { IncomingMessage } from 'node:http';
import { errors, StatusError, type Status, type StatusReason } from '../../machinery/errors.js';
import type { WebhookClientConfig } from '../../apis/admissionregistration/v1/types.js';
import type { CredentialResolver } from './credentials.js';
import type { ServiceResolver } from './service-resolver.js';

/** Bodies larger than this are not read (no AdmissionReview needs them). */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Why a call failed: `message` follows "failed to call webhook: ", `status` is the Status counted. */
export class WebhookCallError extends Error {
  constructor(
    message: string,
    readonly status: StatusError,
  ) {
    super(message);
    this.name = 'WebhookCallError';
  }
}

export interface WebhookCaller {
  /** Posts `body` and returns the parsed JSON answer of a 2xx response. Throws WebhookCallError. */
  post(config: WebhookClientConfig, body: unknown, timeoutSeconds: number, signal: AbortSignal): Promise<unknown>;
}

export interface CallerDeps {
  credentials: CredentialResolver;
  services: ServiceResolver;
  /** The User-Agent of the calls (`kube-apiserver-admission` under k8s.io). */
  userAgent: string;
}

interface Endpoint {
  /** The URL as errors show it. */
  url: string;
  host: string;
  port: number;
  path: string;
  /** The name the certificate is verified against and sent as SNI; absent for an IP address. */
  serverName?: string;
  /** Credentials key: host:port as Kubernetes matches kubeconfig users. */
  hostPort: string;
  resolve?: (signal: AbortSignal) => Promise<{ host: string; port: number }>;
}

const transportStatus = (): StatusError => errors.badRequest('error calling webhook');

function endpointOf(config: WebhookClientConfig, services: ServiceResolver, timeoutSeconds: number): Endpoint {
  const query = `?timeout=${timeoutSeconds}s`;
  const svc = config.service;
  if (svc) {
    const port = svc.port ?? 443;
    const serverName = `${svc.name}.${svc.namespace}.svc`;
    const path = svc.path ?? '/';
    return {
      url: `https://${serverName}:${port}${path}${query}`,
      host: serverName,
      port,
      path: `${path}${query}`,
      serverName,
      hostPort: `${serverName}:${port}`,
      resolve: async (signal) => {
        const hostPort = await services.resolve(svc.namespace, svc.name, port, signal);
        const colon = hostPort.lastIndexOf(':');
        return { host: hostPort.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(hostPort.slice(colon + 1)) };
      },
    };
  }
  if (!config.url) throw new WebhookCallError('webhook configuration must have either service or URL', transportStatus());
  let u: URL;
  try {
    u = new URL(config.url);
  } catch {
    throw new WebhookCallError(`Unparsable URL: ${config.url}`, transportStatus());
  }
  if (u.protocol !== 'https:') throw new WebhookCallError(`the webhook URL must use https: ${config.url}`, transportStatus());
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = u.port ? Number(u.port) : 443;
  const hostPort = u.port ? u.host : `${isIP(host) === 6 ? `[${host}]` : host}:443`;
  const path = u.pathname || '/';
  return {
    url: `https://${u.host}${path}${query}`,
    host,
    port,
    path: `${path}${query}`,
    ...(isIP(host) ? {} : { serverName: host }),
    hostPort,
  };
}

/** Node's transport errors in the words Go's client uses, where they differ. */
function transportText(e: unknown, ep: Endpoint, target: { host: string; port: number }): string {
  const err = e as NodeJS.ErrnoException & { code?: string };
  const where = `${isIP(target.host) === 6 ? `[${target.host}]` : target.host}:${target.port}`;
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${where}: connect: connection refused`;
    case 'ECONNRESET':
      return `read tcp ${where}: connection reset by peer`;
    case 'EHOSTUNREACH':
      return `dial tcp ${where}: connect: no route to host`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'UNABLE_TO_GET_ISSUER_CERT':
      return 'x509: certificate signed by unknown authority';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `x509: certificate is not valid for ${ep.serverName ?? ep.host}`;
    case 'CERT_HAS_EXPIRED':
      return 'x509: certificate has expired or is not yet valid';
    default:
      return err.message || String(e);
  }
}

/** Go's text for a non-2xx answer whose body is not a Status (NewGenericServerResponse). */
function genericServerError(code: number, body: string): StatusError {
  const server = body.trim().slice(0, 1024);
  const known: Record<number, [StatusReason, string]> = {
    400: ['BadRequest', 'the server rejected our request for an unknown reason'],
    401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
    403: ['Forbidden', server || 'forbidden'],
    404: ['NotFound', 'the server could not find the requested resource'],
    405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    409: ['Conflict', 'the server reported a conflict'],
    422: ['Invalid', 'the server rejected our request due to an error in our request'],
    429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
    503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
    504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
  };
  const entry = known[code];
  if (entry) return new StatusError(code, entry[0], entry[1]);
  if (code >= 500) return new StatusError(code, 'InternalError', `an error on the server (${JSON.stringify(server)}) has prevented the request from succeeding`);
  const err = new StatusError(code, 'BadRequest', `the server responded with the status code ${code} but did not return more information`);
  delete err.status.reason;
  return err;
}

/** A Status the webhook answered with (a non-2xx answer), as a StatusError keeping its code and words. */
function statusFrom(code: number, value: unknown): StatusError | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const s = value as Partial<Status> & { kind?: unknown };
  if (s.kind !== 'Status') return undefined;
  const err = new StatusError(typeof s.code === 'number' && s.code ? s.code : code, 'BadRequest', typeof s.message === 'string' ? s.message : '');
  if (typeof s.reason === 'string' && s.reason) err.status.reason = s.reason as StatusReason;
  else delete err.status.reason;
  return err;
}

function readAll(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_RESPONSE_BYTES) {
        res.destroy(new Error(`the response is larger than ${MAX_RESPONSE_BYTES} bytes`));
        return;
      }
      chunks.push(c);
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
    res.on('aborted', () => reject(new Error('unexpected EOF')));
  });
}

export function createWebhookCaller(deps: CallerDeps): WebhookCaller {
  return {
    async post(config, body, timeoutSeconds, signal) {
      const ep = endpointOf(config, deps.services, timeoutSeconds);
      const timeout = AbortSignal.timeout(timeoutSeconds * 1000);
      const both = AbortSignal.any([signal, timeout]);
      const fail = (why: string, status = transportStatus()): never => {
        throw new WebhookCallError(`Post "${ep.url}": ${why}`, status);
      };
      let target = { host: ep.host, port: ep.port };
      if (ep.resolve) {
        try {
          target = await ep.resolve(both);
        } catch (e) {
          fail(e instanceof Error ? e.message : String(e));
        }
      }
      const creds = deps.credentials.for(ep.hostPort);
      const payload = Buffer.from(JSON.stringify(body));
      const headers: Record<string, string> = {
        'Content-Type': 'application/json',
        Accept: 'application/json, */*',
        'User-Agent': deps.userAgent,
        'Content-Length': String(payload.length),
      };
      if (creds.token) headers.Authorization = `Bearer ${creds.token}`;
      else if (creds.username !== undefined) headers.Authorization = `Basic ${Buffer.from(`${creds.username}:${creds.password ?? ''}`).toString('base64')}`;
      const ca = config.caBundle ? Buffer.from(config.caBundle, 'base64').toString('utf8') : undefined;
      const options: RequestOptions = {
        method: 'POST',
        host: target.host,
        port: target.port,
        path: ep.path,
        headers,
        agent: false,
        signal: both,
        ...(ep.serverName ? { servername: ep.serverName } : {}),
        ...(ca ? { ca } : {}),
        ...(creds.certPem && creds.keyPem ? { cert: creds.certPem, key: creds.keyPem } : {}),
      };
      // The certificate names the service (or the URL's host), not the address dialled.
      if (ep.serverName && ep.serverName !== target.host) {
        const name = ep.serverName;
        options.checkServerIdentity = (_host, cert) => defaultCheck(name, cert);
      }
      let res: IncomingMessage;
      let raw: Buffer;
      try {
        res = await new Promise<IncomingMessage>((resolve, reject) => {
          const req = request(options, resolve);
          req.on('error', reject);
          req.end(payload);
        });
        raw = await readAll(res);
      } catch (e) {
        if (timeout.aborted) return fail('context deadline exceeded');
        if (signal.aborted) return fail('context canceled');
        return fail(transportText(e, ep, target));
      }
      const code = res.statusCode ?? 0;
      const textBody = raw.toString('utf8');
      let parsed: unknown;
      let parseError: string | undefined;
      try {
        parsed = JSON.parse(textBody);
      } catch (e) {
        parseError = e instanceof Error ? e.message : String(e);
      }
      if (code < 200 || code > 299) {
        const status = statusFrom(code, parsed) ?? genericServerError(code, textBody);
        throw new WebhookCallError(status.message, status);
      }
      if (parseError !== undefined) throw new WebhookCallError(`couldn't get version/kind; json parse error: ${parseError}`, transportStatus());
      return parsed;
    },
  };
}
