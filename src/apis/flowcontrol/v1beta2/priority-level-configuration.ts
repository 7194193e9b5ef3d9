/**
 * PriorityLevelConfiguration (flowcontrol.apiserver/v1beta2, cluster-scoped, `/status`): a
 * priority level of API Priority and Fairness. The storage version; v1beta1 converts to it.
 */
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import {
  flowcontrolSchemas,
  LIMIT_RESPONSE_TYPES,
  PRIORITY_LEVEL_TYPES,
  type PriorityLevelConfiguration,
  type PriorityLevelConfigurationSpec,
} from '../types.js';
import { validateConditions, flowcontrolStatus } from './conditions.js';
import { MANDATORY_PRIORITY_LEVELS, semanticallyEqual } from './mandatory.js';
import { priorityLevelConfigurationTable } from './tables.js';

export const DEFAULT_ASSURED_CONCURRENCY_SHARES = 30;
export const DEFAULT_QUEUES = 64;
export const DEFAULT_HAND_SIZE = 8;
export const DEFAULT_QUEUE_LENGTH_LIMIT = 50;
/** The most queues a level may have. */
export const MAX_QUEUES = 10_000_000;
/** Shuffle sharding hashes a flow into 60 bits; a deal may not need more. */
export const MAX_HASH_BITS = 60;

type Limited = NonNullable<PriorityLevelConfigurationSpec['limited']>;
type Queuing = NonNullable<Limited['limitResponse']['queuing']>;

/** Bits of hash that dealing `handSize` cards from a deck of `deckSize` consumes. */
export function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

export function defaultPriorityLevel(pl: PriorityLevelConfiguration): void {
  const limited = pl.spec.limited;
  if (!limited) return;
  if (!limited.assuredConcurrencyShares) limited.assuredConcurrencyShares = DEFAULT_ASSURED_CONCURRENCY_SHARES;
  const q = limited.limitResponse.queuing;
  if (!q) return;
  if (!q.handSize) q.handSize = DEFAULT_HAND_SIZE;
  if (!q.queues) q.queues = DEFAULT_QUEUES;
  if (!q.queueLengthLimit) q.queueLengthLimit = DEFAULT_QUEUE_LENGTH_LIMIT;
}

function validateQueuing(q: Queuing, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (q.queueLengthLimit <= 0) errs.push(fieldErr.invalid(path.child('queueLengthLimit'), q.queueLengthLimit, 'must be positive'));
  if (q.queues <= 0) errs.push(fieldErr.invalid(path.child('queues'), q.queues, 'must be positive'));
  else if (q.queues > MAX_QUEUES) errs.push(fieldErr.invalid(path.child('queues'), q.queues, `must not be greater than ${MAX_QUEUES}`));
  if (q.handSize <= 0) {
    errs.push(fieldErr.invalid(path.child('handSize'), q.handSize, 'must be positive'));
  } else if (q.handSize > q.queues) {
    errs.push(fieldErr.invalid(path.child('handSize'), q.handSize, `should not be greater than queues (${q.queues})`));
  } else if (requiredEntropyBits(q.queues, q.handSize) > MAX_HASH_BITS) {
    errs.push(
      fieldErr.invalid(
        path.child('handSize'),
        q.handSize,
        `required entropy bits of deckSize ${q.queues} and handSize ${q.handSize} should not be greater than ${MAX_HASH_BITS}`,
      ),
    );
  }
  return errs;
}

function validateLimited(limited: Limited, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (limited.assuredConcurrencyShares <= 0) {
    errs.push(fieldErr.invalid(path.child('assuredConcurrencyShares'), limited.assuredConcurrencyShares, 'must be positive'));
  }
  const lr = limited.limitResponse;
  const at = path.child('limitResponse');
  switch (lr.type) {
    case 'Reject':
      if (lr.queuing) errs.push(fieldErr.forbidden(at.child('queuing'), 'must be nil if limited.limitResponse.type is not Limited'));
      break;
    case 'Queue':
      if (!lr.queuing) errs.push(fieldErr.required(at.child('queuing'), 'must not be empty if limited.limitResponse.type is Limited'));
      else errs.push(...validateQueuing(lr.queuing, at.child('queuing')));
      break;
    default:
      errs.push(fieldErr.notSupported(at.child('type'), lr.type, LIMIT_RESPONSE_TYPES));
  }
  return errs;
}

export function validatePriorityLevel(pl: PriorityLevelConfiguration): FieldError[] {
  const spec = FieldPath.root('spec');
  const name = pl.metadata.name ?? '';
  const errs: FieldError[] = [];
  // Only the mandatory `exempt` level is exempt, and it always is.
  if ((name === 'exempt') !== (pl.spec.type === 'Exempt')) {
    errs.push(fieldErr.invalid(spec.child('type'), pl.spec.type, "type must be 'Exempt' if and only if name is 'exempt'"));
  }
  switch (pl.spec.type) {
    case 'Exempt':
      if (pl.spec.limited) errs.push(fieldErr.forbidden(spec.child('limited'), 'must be nil if the type is not Limited'));
      break;
    case 'Limited':
      if (!pl.spec.limited) errs.push(fieldErr.required(spec.child('limited'), 'must not be empty when type is Limited'));
      else errs.push(...validateLimited(pl.spec.limited, spec.child('limited')));
      break;
    default:
      errs.push(fieldErr.notSupported(spec.child('type'), pl.spec.type, PRIORITY_LEVEL_TYPES));
  }
  const mandatory = MANDATORY_PRIORITY_LEVELS[name];
  if (mandatory && !semanticallyEqual(pl.spec, mandatory)) {
    errs.push(fieldErr.invalid(spec, pl.spec, `spec of '${name}' must equal the fixed value`));
  }
  errs.push(...validateConditions(pl.status.conditions));
  return errs;
}

export const priorityLevelConfigurationResource = defineResource<PriorityLevelConfiguration>((names) => ({
  group: names.group('flowcontrol.apiserver'),
  version: 'v1beta2',
  kind: 'PriorityLevelConfiguration',
  resource: 'prioritylevelconfigurations',
  singular: 'prioritylevelconfiguration',
  namespaced: false,
  schema: flowcontrolSchemas('v1beta2').PriorityLevelConfiguration,
  table: priorityLevelConfigurationTable,
  fixture: () => ({ spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    defaults: defaultPriorityLevel,
    validate: validatePriorityLevel,
  },
  subresources: {
    status: flowcontrolStatus<PriorityLevelConfiguration>(),
  },
}));
