/**
 * A live endpoint pulled into an existing spec file, against the emulator over HTTP: `pullSpec` reads it and
 * `writeConfigurationIntoSpec` sets it into the document, as the editor's Pull live config does. What the person
 * wrote around the values (comments, `$schema`, the other documents) stays, and the document then describes
 * the endpoint.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as YAML from 'yaml';
import type { CreateEndpointRequest } from '../../../core/api';
import { writeConfigurationIntoSpec, type SpecRewrite } from '../../../core/endpointSpec/serialize';
import { pullSpec } from '../../../core/operations';
import { withEmulator } from '../deploy/support';

const SCHEMA = '../schemas/endpoint-create.schema.json';

const WORKER = `# The SDXL worker: one spec per endpoint.
$schema: ${SCHEMA}
name: sdxl-worker # as the console shows it
type: QUEUE
# pinned; bumped with the handler
image: myorg/sdxl-worker:1.4.2
gpu:
  pools: [ADA_24, AMPERE_24] # 24 GB is enough
workers:
  min: 0 # scaled to zero at night
  max: 3
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

const OTHER = `---
# another endpoint's document
name: other
type: QUEUE
image: myorg/other:1.0
`;

/** The live endpoint: the spec of WORKER with a newer image and a warm worker. */
const LIVE = {
  name: 'sdxl-worker',
  type: 'QUEUE',
  image: 'myorg/sdxl-worker:1.5.0',
  gpu: { pools: ['ADA_24', 'AMPERE_24'] },
  workers: { min: 1, max: 3 },
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
};

const applied = (text: string, { edit }: SpecRewrite): string =>
  `${text.slice(0, edit.offset)}${edit.text}${text.slice(edit.offset + edit.length)}`;

const commentsOf = (text: string): string[] => text.split('\n').flatMap((line) => /#.*$/.exec(line)?.[0] ?? []);

describe('pull into an existing spec', () => {
  it('keeps the comments and $schema of a YAML spec, and its other documents, and describes the endpoint', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const live = await api.serverless.create(LIVE as unknown as CreateEndpointRequest);
      const pulled = await pullSpec({ client: api, endpointId: live.id, format: 'yaml' });
      assert.ok(pulled.ok, pulled.ok ? '' : pulled.message);
      const text = `${WORKER}${OTHER}`;
      const rewritten = writeConfigurationIntoSpec(text, 'yaml', 0, pulled.spec);
      assert.ok(rewritten);
      assert.deepEqual(commentsOf(rewritten.text), commentsOf(text), 'every comment stays');
      assert.match(rewritten.text, /^# pinned; bumped with the handler\nimage: myorg\/sdxl-worker:1\.5\.0\n/m);
      assert.match(rewritten.text, /^ {2}min: 1 # scaled to zero at night$/m);
      const [worker, other] = YAML.parseAllDocuments(rewritten.text).map((document) => document.toJS() as unknown);
      assert.deepEqual(worker, { $schema: SCHEMA, ...pulled.spec });
      assert.ok(rewritten.text.endsWith(OTHER), 'the other document is untouched');
      assert.deepEqual(other, YAML.parse(OTHER));
      assert.equal(applied(text, rewritten), rewritten.text, 'the edit makes the new text from the old');
      assert.ok(rewritten.edit.offset > WORKER.indexOf('image:'), 'the edit starts at the first change');
    });
  });

  it('keeps the $schema and the indentation of a JSON spec', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const live = await api.serverless.create(LIVE as unknown as CreateEndpointRequest);
      const pulled = await pullSpec({ client: api, endpointId: live.id, format: 'json' });
      assert.ok(pulled.ok, pulled.ok ? '' : pulled.message);
      const text = `${JSON.stringify({ $schema: SCHEMA, ...LIVE, image: 'myorg/sdxl-worker:1.4.2', workers: { min: 0, max: 3 } }, null, 4)}\n`;
      const rewritten = writeConfigurationIntoSpec(text, 'json', 0, pulled.spec);
      assert.ok(rewritten);
      assert.deepEqual(JSON.parse(rewritten.text), { $schema: SCHEMA, ...pulled.spec });
      assert.ok(rewritten.text.startsWith(`{\n    "$schema": "${SCHEMA}",\n    "name": "sdxl-worker",\n`), rewritten.text);
      assert.match(rewritten.text, /^ {4}"image": "myorg\/sdxl-worker:1\.5\.0",$/m);
      assert.equal(applied(text, rewritten), rewritten.text);
    });
  });
});
