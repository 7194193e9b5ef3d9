/**
 * Each merge-strategy marker: mapType and structType granular/atomic, listType set/atomic/map with
 * listMapKeys (one key field defaulted), patchStrategy=merge read as a map list (with a merge key)
 * or a set (scalars), unmarked lists atomic, and raw JSON merged as untyped data.
 */
import type { Scenario } from '../scenario-runner.js';

export const markers: Scenario[] = [
  {
    name: 'mapType granular: managers own their own keys',
    steps: [
      { manager: 'a', apply: { spec: { settings: { a: '1' } } } },
      {
        manager: 'b',
        apply: { spec: { settings: { b: '2' } } },
        expect: {
          object: { spec: { replicas: 1, settings: { a: '1', b: '2' } } },
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:settings': { 'f:a': {} } } } },
            { manager: 'b', operation: 'Apply', fields: { 'f:spec': { 'f:settings': { 'f:b': {} } } } },
          ],
        },
      },
    ],
  },
  {
    name: 'mapType atomic: one owner for the whole map, replaced whole when forced',
    steps: [
      { manager: 'a', apply: { spec: { frozen: { a: '1', c: '3' } } }, expect: { managedFields: [{ manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:frozen': {} } } }] } },
      { manager: 'b', apply: { spec: { frozen: { b: '2' } } }, expect: { status: 409, conflicts: [['conflict with "a"', '.spec.frozen']] } },
      {
        manager: 'b',
        force: true,
        apply: { spec: { frozen: { b: '2' } } },
        expect: { object: { spec: { replicas: 1, frozen: { b: '2' } } }, managedFields: [{ manager: 'b', operation: 'Apply', fields: { 'f:spec': { 'f:frozen': {} } } }] },
      },
    ],
  },
  {
    name: 'structType atomic: another field of the struct conflicts; the same value shares',
    steps: [
      { manager: 'a', apply: { spec: { selector: { app: 'web' } } } },
      { manager: 'b', apply: { spec: { selector: { app: 'web', tier: 'front' } } }, expect: { status: 409, conflicts: [['conflict with "a"', '.spec.selector']] } },
      {
        manager: 'b',
        apply: { spec: { selector: { app: 'web' } } },
        expect: {
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:selector': {} } } },
            { manager: 'b', operation: 'Apply', fields: { 'f:spec': { 'f:selector': {} } } },
          ],
        },
      },
    ],
  },
  {
    name: 'structType granular: managers own their own fields of the struct',
    steps: [
      { manager: 'a', apply: { spec: { config: { mode: 'fast' } } } },
      {
        manager: 'b',
        apply: { spec: { config: { level: 2, nested: { a: 'x' } } } },
        expect: {
          object: { spec: { replicas: 1, config: { mode: 'fast', level: 2, nested: { a: 'x' } } } },
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:config': { 'f:mode': {} } } } },
            { manager: 'b', operation: 'Apply', fields: { 'f:spec': { 'f:config': { 'f:level': {}, 'f:nested': { 'f:a': {} } } } } },
          ],
        },
      },
    ],
  },
  {
    name: 'listType set: items are owned by value; an item the applier drops goes',
    steps: [
      { manager: 'a', apply: { spec: { tags: ['a', 'b'] } } },
      { manager: 'b', apply: { spec: { tags: ['c', 'b'] } }, expect: { object: { spec: { replicas: 1, tags: ['a', 'c', 'b'] } } } },
      {
        manager: 'a',
        apply: { spec: { tags: ['a'] } },
        expect: {
          // b is kept: manager b still owns it.
          object: { spec: { replicas: 1, tags: ['a', 'c', 'b'] } },
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:tags': { 'v:"a"': {} } } } },
            { manager: 'b', operation: 'Apply', fields: { 'f:spec': { 'f:tags': { 'v:"b"': {}, 'v:"c"': {} } } } },
          ],
        },
      },
      { manager: 'b', apply: { spec: { tags: ['c'] } }, expect: { object: { spec: { replicas: 1, tags: ['a', 'c'] } } } },
    ],
  },
  {
    name: 'listType atomic: the list has one owner',
    steps: [
      { manager: 'a', apply: { spec: { args: ['--x'] } } },
      { manager: 'b', apply: { spec: { args: ['--y'] } }, expect: { status: 409, conflicts: [['conflict with "a"', '.spec.args']] } },
      {
        manager: 'b',
        force: true,
        apply: { spec: { args: ['--y', '--z'] } },
        expect: { object: { spec: { replicas: 1, args: ['--y', '--z'] } }, managedFields: [{ manager: 'b', operation: 'Apply', fields: { 'f:spec': { 'f:args': {} } } }] },
      },
    ],
  },
  {
    name: 'listType map with two listMapKeys, one defaulted: items match whether or not they name the default',
    steps: [
      {
        manager: 'a',
        apply: { spec: { ports: [{ port: 80, name: 'http' }] } },
        expect: {
          object: { spec: { replicas: 1, ports: [{ port: 80, name: 'http', protocol: 'TCP' }] } },
          managedFields: [{ manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {} } } } } }],
        },
      },
      {
        manager: 'b',
        apply: { spec: { ports: [{ port: 80, protocol: 'TCP', name: 'web' }] } },
        expect: { status: 409, conflicts: [['conflict with "a"', '.spec.ports[port=80,protocol="TCP"].name']] },
      },
      {
        manager: 'b',
        apply: { spec: { ports: [{ port: 53, protocol: 'UDP', name: 'dns' }] } },
        expect: {
          object: { spec: { replicas: 1, ports: [{ port: 80, name: 'http', protocol: 'TCP' }, { port: 53, name: 'dns', protocol: 'UDP' }] } },
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {} } } } } },
            {
              manager: 'b',
              operation: 'Apply',
              fields: { 'f:spec': { 'f:ports': { 'k:{"port":53,"protocol":"UDP"}': { '.': {}, 'f:name': {}, 'f:port': {}, 'f:protocol': {} } } } },
            },
          ],
        },
      },
      { manager: 'a', apply: { spec: {} }, expect: { object: { spec: { replicas: 1, ports: [{ port: 53, name: 'dns', protocol: 'UDP' }] } } } },
    ],
  },
  {
    name: 'patchStrategy=merge with a merge key is a map list (nested ones too); a list without markers is atomic',
    steps: [
      { manager: 'a', apply: { spec: { containers: [{ name: 'web', image: 'nginx', env: [{ name: 'A', value: '1' }] }] } } },
      {
        manager: 'b',
        apply: { spec: { containers: [{ name: 'web', env: [{ name: 'B', value: '2' }], command: ['sh'] }, { name: 'side', image: 'busybox' }] } },
        expect: {
          object: {
            spec: {
              replicas: 1,
              containers: [
                { name: 'web', image: 'nginx', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }], command: ['sh'] },
                { name: 'side', image: 'busybox' },
              ],
            },
          },
          managedFields: [
            {
              manager: 'a',
              operation: 'Apply',
              fields: { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:env': { 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } }, 'f:image': {}, 'f:name': {} } } } },
            },
            {
              manager: 'b',
              operation: 'Apply',
              fields: {
                'f:spec': {
                  'f:containers': {
                    'k:{"name":"side"}': { '.': {}, 'f:image': {}, 'f:name': {} },
                    'k:{"name":"web"}': { '.': {}, 'f:command': {}, 'f:env': { 'k:{"name":"B"}': { '.': {}, 'f:name': {}, 'f:value': {} } }, 'f:name': {} },
                  },
                },
              },
            },
          ],
        },
      },
      {
        manager: 'c',
        apply: { spec: { containers: [{ name: 'web', command: ['bash'] }] } },
        expect: { status: 409, conflicts: [['conflict with "b"', '.spec.containers[name="web"].command']] },
      },
    ],
  },
  {
    name: 'patchStrategy=merge on scalars without a key is a set',
    steps: [
      { manager: 'a', apply: { spec: { hosts: ['h1'] } } },
      {
        manager: 'b',
        apply: { spec: { hosts: ['h2'] } },
        expect: {
          object: { spec: { replicas: 1, hosts: ['h1', 'h2'] } },
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:hosts': { 'v:"h1"': {} } } } },
            { manager: 'b', operation: 'Apply', fields: { 'f:spec': { 'f:hosts': { 'v:"h2"': {} } } } },
          ],
        },
      },
    ],
  },
  {
    name: 'raw JSON is untyped: objects merge by key, lists are atomic',
    steps: [
      { manager: 'a', apply: { spec: { extra: { a: { x: 1 }, list: [1] } } } },
      {
        manager: 'b',
        apply: { spec: { extra: { a: { y: 2 } } } },
        expect: {
          object: { spec: { replicas: 1, extra: { a: { x: 1, y: 2 }, list: [1] } } },
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:extra': { 'f:a': { '.': {}, 'f:x': {} }, 'f:list': {} } } } },
            { manager: 'b', operation: 'Apply', fields: { 'f:spec': { 'f:extra': { 'f:a': { '.': {}, 'f:y': {} } } } } },
          ],
        },
      },
      { manager: 'b', apply: { spec: { extra: { list: [2] } } }, expect: { status: 409, conflicts: [['conflict with "a"', '.spec.extra.list']] } },
    ],
  },
];
