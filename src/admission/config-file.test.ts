import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiNames } from '../machinery/api-names.js';
import { loadAdmissionConfigFile } from './config-file.js';

const dir = mkdtempSync(join(tmpdir(), 'admission-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('the admission configuration file', () => {
  it('reads inline configurations and paths relative to the file, in YAML and JSON', () => {
    mkdirSync(join(dir, 'sub'), { recursive: true });
    file('sub/webhook.yaml', 'apiVersion: apiserver.config.orch.io/v1\nkind: WebhookAdmissionConfiguration\nkubeConfigFile: /etc/kc\n');
    const path = file(
      'v1.yaml',
      [
        'apiVersion: apiserver.config.orch.io/v1',
        'kind: AdmissionConfiguration',
        'plugins:',
        '- name: ValidatingAdmissionWebhook',
        '  configuration:',
        '    apiVersion: apiserver.config.orch.io/v1',
        '    kind: WebhookAdmissionConfiguration',
        '    kubeConfigFile: /inline',
        '- name: MutatingAdmissionWebhook',
        '  path: sub/webhook.yaml',
        '- name: ValidatingAdmissionWebhook',
        '  path: ignored-second-entry.yaml',
      ].join('\n'),
    );
    const cfg = loadAdmissionConfigFile(path, createApiNames());
    expect(cfg.pluginNames).toEqual(['ValidatingAdmissionWebhook', 'MutatingAdmissionWebhook']);
    expect(cfg.configurationFor('ValidatingAdmissionWebhook')).toEqual({ value: expect.objectContaining({ kubeConfigFile: '/inline' }), source: path, baseDir: dir });
    expect(cfg.configurationFor('MutatingAdmissionWebhook')).toEqual({
      value: expect.objectContaining({ kubeConfigFile: '/etc/kc' }),
      source: join(dir, 'sub/webhook.yaml'),
      baseDir: join(dir, 'sub'),
    });
    expect(cfg.configurationFor('LimitRanger')).toBeUndefined();
    const json = file('v1alpha1.json', JSON.stringify({ apiVersion: 'apiserver.k8s.io/v1alpha1', kind: 'AdmissionConfiguration', plugins: [{ name: 'X', configuration: { a: 1 } }] }));
    expect(loadAdmissionConfigFile(json, createApiNames('k8s.io')).configurationFor('X')?.value).toEqual({ a: 1 });
  });

  it.each([
    ['missing.yaml', undefined, 'cannot read it: ENOENT'],
    ['bad.yaml', 'a: [', 'not valid YAML or JSON'],
    ['kind.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\n', 'expected kind AdmissionConfiguration with apiVersion apiserver.config.orch.io/v1 or apiserver.orch.io/v1alpha1'],
    ['legacy.yaml', 'imagePolicy:\n  kubeConfigFile: x\n', 'the legacy unversioned formats'],
    ['noname.yaml', 'apiVersion: apiserver.config.orch.io/v1\nkind: AdmissionConfiguration\nplugins:\n- path: x\n', 'plugins[0].name is required'],
  ])('refuses %s', (name, text, message) => {
    const path = text === undefined ? join(dir, name) : file(name, text);
    expect(() => loadAdmissionConfigFile(path, createApiNames())).toThrow(message);
  });

  it('fails on a path that cannot be read only when that plugin asks', () => {
    const path = file('broken-path.yaml', 'apiVersion: apiserver.config.orch.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: A\n  path: nowhere.yaml\n');
    const cfg = loadAdmissionConfigFile(path, createApiNames());
    expect(() => cfg.configurationFor('A')).toThrow(`cannot read the configuration of A at ${join(dir, 'nowhere.yaml')}: ENOENT`);
  });
});
