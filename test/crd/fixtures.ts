/** CRD manifests for the custom-resource suites, under the server's extension prefix. */

export const CRDS = '/apis/apiextensions.orch.io/v1/customresourcedefinitions';

/** A CronTab, as in Kubernetes' own CRD walkthrough, with printer columns, status and scale. */
export function cronTabCrd(x = 'x-orch-'): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'], categories: ['all'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' } },
          additionalPrinterColumns: [
            { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec', description: 'The cron spec defining the interval a CronJob is run' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['cronSpec'],
                  properties: {
                    cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
                    image: { type: 'string' },
                    replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
                    mode: { type: 'string', enum: ['Fast', 'Slow'] },
                    ports: {
                      type: 'array',
                      [`${x}list-type`]: 'map',
                      [`${x}list-map-keys`]: ['name'],
                      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
                    },
                    tags: { type: 'array', [`${x}list-type`]: 'set', items: { type: 'string' } },
                    args: { type: 'array', items: { type: 'string' } },
                    labels: { type: 'object', additionalProperties: { type: 'string' } },
                    size: { [`${x}int-or-string`]: true },
                  },
                },
                status: {
                  type: 'object',
                  properties: { replicas: { type: 'integer' }, labelSelector: { type: 'string' } },
                },
              },
            },
          },
        },
        {
          name: 'v1beta1',
          served: true,
          storage: false,
          deprecated: true,
          deprecationWarning: 'stable.example.com/v1beta1 CronTab is deprecated; use stable.example.com/v1 CronTab',
          schema: { openAPIV3Schema: { type: 'object', [`${x}preserve-unknown-fields`]: true } },
        },
      ],
    },
  };
}
