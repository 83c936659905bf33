/**
 * `rollback --write-spec` into a spec a person keeps, in-process against the emulator over HTTP: release N's
 * configuration is set into the document, whose comments (above it and beside its values) and `$schema` stay.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as YAML from 'yaml';
import { runDeploy } from '../../cli/deploy';
import { runRollback } from '../../cli/rollback';
import { liveAsSpec } from '../../core/deploy';
import { withEmulator } from '../core/api/support';
import { captureIo } from './support';

const SCHEMA = '../schemas/endpoint-create.schema.json';

const specText = (image: string): string => `# The worker, deployed from CI.
$schema: ${SCHEMA}
name: commented-worker
type: QUEUE
# bumped with the handler
image: ${image} # the tag CI builds
gpu:
  pools: [ADA_24] # 24 GB is enough
workers:
  min: 1 # one warm worker
  max: 1
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

const commentsOf = (text: string): string[] => text.split('\n').flatMap((line) => /#.*$/.exec(line)?.[0] ?? []);

describe('endpoint-studio rollback --write-spec', () => {
  it('writes release N into the spec and keeps its comments and $schema', async () => {
    const root = mkdtempSync(join(tmpdir(), 'es-write-spec-'));
    mkdirSync(join(root, '.git'));
    const file = join(root, 'worker.endpoint.yaml');
    try {
      await withEmulator({}, async (emu, client) => {
        const api = client();
        writeFileSync(file, specText('myorg/worker:1.0'));
        assert.equal(await runDeploy(['--yes', file], captureIo(emu)), 0);
        const [{ id }] = await api.serverless.list();
        const releaseOne = liveAsSpec(await api.serverless.get(id));
        writeFileSync(file, specText('myorg/worker:2.0'));
        assert.equal(await runDeploy(['--yes', file], captureIo(emu)), 0);

        const io = captureIo(emu);
        assert.equal(await runRollback(['--to', '1', '--yes', '--write-spec', file], io), 0, io.stderr);
        assert.match(io.stdout, /wrote release 1 into /);
        const text = readFileSync(file, 'utf8');
        assert.deepEqual(commentsOf(text), commentsOf(specText('myorg/worker:2.0')), 'every comment stays');
        assert.match(text, /^# bumped with the handler\nimage: myorg\/worker:1\.0 # the tag CI builds$/m);
        assert.deepEqual(YAML.parse(text), { $schema: SCHEMA, ...releaseOne });
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
