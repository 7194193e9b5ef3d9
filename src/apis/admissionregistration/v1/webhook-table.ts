/** Webhook configuration columns (mutating and validating): WEBHOOKS, the number configured. */
import { age, ageColumn, column, defineTable, nameColumn } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/index.js';

export const webhookConfigurationTable = defineTable<KubeObject & { webhooks?: unknown[] }>({
  columns: [nameColumn, column('Webhooks', 'Webhooks indicates the number of webhooks registered in this configuration', { type: 'integer' }), ageColumn],
  cells: (c, ctx) => [c.metadata.name ?? '', (c.webhooks ?? []).length, age(c, ctx)],
});
