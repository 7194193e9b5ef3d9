/** The objects the benchmark writes: realistic ConfigMaps of about 1 KiB of JSON each. */

const NGINX = [
  'server {',
  '  listen 8080;',
  '  server_name _;',
  '  location / { proxy_pass http://backend:9000; proxy_set_header Host $host; }',
  '  location /healthz { return 200 "ok"; }',
  '}',
].join('\n');

/** A ConfigMap named `name`; `seq` varies a few values so objects are not identical. */
export function configMap(name, seq = 0) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      labels: { app: 'storefront', tier: 'web', release: `r${seq % 7}`, 'app.kubernetes.io/managed-by': 'bench' },
      annotations: { 'bench.orch.io/note': 'rendered by the release pipeline; edits are overwritten on the next deploy' },
    },
    data: {
      'nginx.conf': NGINX,
      'app.properties': `log.level=info\ncache.size=${256 + (seq % 64)}\nfeature.checkout=true\nfeature.search=false\nretry.max=5\n`,
      'settings.json': JSON.stringify({ timeoutSeconds: 30, upstreams: ['checkout:9000', 'search:9100', 'catalog:9200'], regions: ['eu-west', 'us-east'], sampleRate: 0.05 }),
      'release.txt': `build ${100000 + seq} from commit 3f9a2c${(seq % 4096).toString(16).padStart(3, '0')}e1d4b77a9c0e`,
    },
  };
}
