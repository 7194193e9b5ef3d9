/**
 * PodTemplate (core/v1): a stored pod template, for controllers that make pods from a named
 * template. Validated as the template of a workload; its generation grows when the template changes.
 */
import { nameValidators } from '../../../machinery/name-validation.js';
import { column, containerCells, defineResource, defineTable, formatLabels, nameColumn } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { FieldPath } from '../../../machinery/field-errors.js';
import { defaultPodTemplateSpec } from './pod/defaults.js';
import { PodTemplateSpec } from './pod/pod-spec.js';
import { validatePodTemplateSpec } from './pod/validation/pod-spec.js';

export const PodTemplateSchema = t.struct('core.v1.PodTemplate', {
  ...objectHeader,
  template: t.field(2, PodTemplateSpec, { description: 'The pods made from this template.' }),
}, { description: 'A pod template, stored for controllers to make pods from.' });
export type PodTemplate = ObjectOf<typeof PodTemplateSchema>;

/** `kubectl get podtemplates`: containers, images and the pods' labels, with no age. */
export const podTemplateTable = defineTable<PodTemplate>({
  columns: [
    nameColumn,
    column('Containers', 'Names of each container in the template.'),
    column('Images', 'Images referenced by each container in the template.'),
    column('Pod Labels', 'The labels for the pod template.'),
  ],
  cells: (pt) => [pt.metadata.name ?? '', ...containerCells(pt.template?.spec?.containers), formatLabels(pt.template?.metadata?.labels)],
});

export const podTemplateResource = defineResource<PodTemplate>((names) => ({
  group: '',
  version: 'v1',
  kind: 'PodTemplate',
  resource: 'podtemplates',
  singular: 'podtemplate',
  namespaced: true,
  schema: PodTemplateSchema,
  table: podTemplateTable,
  fixture: () => ({ template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    defaults: (pt) => defaultPodTemplateSpec(pt.template),
    validate: (pt) => validatePodTemplateSpec(pt.template, FieldPath.root('template'), names),
  },
}));
