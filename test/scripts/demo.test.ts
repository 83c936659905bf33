/** `npm start`'s demo state: the example endpoints seeded once, and the workspace's demo specs bound to them. */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import type { CreateEndpointRequest } from '../../core/api';
import { planDeploy, readSpecBindings } from '../../core/operations';
import { bindDemo, DEMO_SPECS, seedDemo } from '../../scripts/demo';
import { EXAMPLES_DIR } from '../../scripts/editor/paths';
import { withEmulator } from '../core/deploy/support';

const specOf = (file: string): Record<string, unknown> => {
  const text = readFileSync(join(EXAMPLES_DIR, file), 'utf8');
  return (file.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as Record<string, unknown>;
};

describe('the npm start demo', () => {
  it('seeds each demo endpoint once and binds its spec, so each opens deployed and unchanged', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const workspace = mkdtempSync(join(tmpdir(), 'es-demo-'));
      try {
        const seeded = await seedDemo(api);
        assert.deepEqual([...seeded.keys()], DEMO_SPECS);
        assert.deepEqual(await seedDemo(api), seeded, 'a kept state is not seeded twice');
        assert.equal((await api.serverless.list()).length, DEMO_SPECS.length);
        cpSync(EXAMPLES_DIR, workspace, { recursive: true });
        await bindDemo(api, workspace, seeded);
        for (const file of DEMO_SPECS) {
          const read = readSpecBindings(join(workspace, file), workspace);
          assert.ok(read.ok);
          assert.equal(read.binding(0)?.endpointId, seeded.get(file));
          const planned = await planDeploy({ client: api, spec: specOf(file), binding: read.binding(0) });
          assert.ok(planned.ok);
          assert.equal(planned.plan.kind, 'unchanged', `${file}: ${JSON.stringify(planned.plan)}`);
        }
      } finally {
        rmSync(workspace, { recursive: true, force: true });
      }
    });
  });

  it('picks the oldest endpoint of a demo name when the kept state holds several', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const body = specOf('sdxl-worker.endpoint.yaml') as unknown as CreateEndpointRequest;
      const oldest = await api.serverless.create(body);
      await api.serverless.create(body);
      assert.equal((await seedDemo(api)).get('sdxl-worker.endpoint.yaml'), oldest.id);
    });
  });
});
