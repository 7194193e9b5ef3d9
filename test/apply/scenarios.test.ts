/** Runs every apply scenario (test/apply/scenarios/*, one file per topic) against one real server. */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { APPLY_TEST_RESOURCES } from './kinds.js';
import { runScenario, type Scenario } from './scenario-runner.js';
import { conflicts } from './scenarios/conflicts.js';
import { markers } from './scenarios/markers.js';
import { ownershipTable } from './scenarios/ownership-table.js';
import { reset } from './scenarios/reset.js';
import { scale } from './scenarios/scale.js';
import { subresources } from './scenarios/subresources.js';
import { topology } from './scenarios/topology.js';
import { unstructured } from './scenarios/unstructured.js';
import { updateManagers } from './scenarios/update-managers.js';

const topics: Record<string, Scenario[]> = {
  'ownership table': ownershipTable,
  markers,
  subresources,
  'writes through /scale': scale,
  reset,
  'conflicts between several managers': conflicts,
  'topology changes': topology,
  'objects without a schema': unstructured,
  'update managers': updateManagers,
};

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ resources: APPLY_TEST_RESOURCES });
});
afterAll(async () => {
  await s.close();
});

let n = 0;
for (const [topic, scenarios] of Object.entries(topics)) {
  describe(topic, () => {
    for (const scenario of scenarios) {
      const name = `s${++n}`;
      it(scenario.name, () => runScenario(s, scenario, name));
    }
  });
}
