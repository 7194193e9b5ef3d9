/**
 * FlowSchema and PriorityLevelConfiguration columns (Kubernetes 1.25, flowcontrol v1beta2; the
 * v1beta1 versions share them, since rows are made from the stored v1beta2 object).
 */
import { age, ageColumn, column, defineTable, nameColumn } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/index.js';

type FlowSchemaShape = KubeObject & {
  spec?: { priorityLevelConfiguration?: { name?: string }; matchingPrecedence?: number; distinguisherMethod?: { type?: string } };
  status?: { conditions?: { type?: string; status?: string }[] };
};

export const flowSchemaTable = defineTable<FlowSchemaShape>({
  columns: [
    nameColumn,
    column('PriorityLevel', 'The priority level requests of the schema go to'),
    column('MatchingPrecedence', 'The order the schema is matched in (lower first)'),
    column('DistinguisherMethod', 'How requests are told apart into flows'),
    ageColumn,
    column('MissingPL', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  cells: (fs, ctx) => [
    fs.metadata.name ?? '',
    fs.spec?.priorityLevelConfiguration?.name ?? '',
    fs.spec?.matchingPrecedence ?? 0,
    fs.spec?.distinguisherMethod?.type ?? '<none>',
    age(fs, ctx),
    (fs.status?.conditions ?? []).find((c) => c.type === 'Dangling')?.status ?? '?',
  ],
  // Kubernetes prints a FlowSchema list in the order schemas are matched: by precedence, then name.
  compareRows: (a, b) => {
    const pa = a.spec?.matchingPrecedence ?? 0;
    const pb = b.spec?.matchingPrecedence ?? 0;
    if (pa !== pb) return pa - pb;
    const na = a.metadata.name ?? '';
    const nb = b.metadata.name ?? '';
    return na < nb ? -1 : na > nb ? 1 : 0;
  },
});

type PriorityLevelShape = KubeObject & {
  spec?: {
    type?: string;
    limited?: { assuredConcurrencyShares?: number; limitResponse?: { queuing?: { queues?: number; handSize?: number; queueLengthLimit?: number } } };
  };
};

export const priorityLevelConfigurationTable = defineTable<PriorityLevelShape>({
  columns: [
    nameColumn,
    column('Type', 'Exempt or Limited'),
    column('AssuredConcurrencyShares', 'The share of the server concurrency the level is assured'),
    column('Queues', 'How many queues the level has'),
    column('HandSize', 'How many queues a flow is dealt'),
    column('QueueLengthLimit', 'How many requests a queue may hold'),
    ageColumn,
  ],
  cells: (pl, ctx) => {
    const limited = pl.spec?.limited;
    const queuing = limited?.limitResponse?.queuing;
    const none = '<none>';
    return [
      pl.metadata.name ?? '',
      pl.spec?.type ?? '',
      limited ? limited.assuredConcurrencyShares ?? 0 : none,
      queuing ? queuing.queues ?? 0 : none,
      queuing ? queuing.handSize ?? 0 : none,
      queuing ? queuing.queueLengthLimit ?? 0 : none,
      age(pl, ctx),
    ];
  },
});
