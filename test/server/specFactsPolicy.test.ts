/**
 * What the editor's Deploy asks the server before it sends a spec, under a team policy, over real LSP stdio:
 * each document's errors in the answer for the text as it is now (a policy finding among them, naming its rule,
 * before any diagnostic was pulled), none once the finding is silenced with a reason, and `brokenPolicy` while
 * the policy file is broken, even where a comment silences its error on the spec's line.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { sendRequestWith, SPEC_FILE_REQUEST, type SpecFileFacts } from '../../core/protocol';
import { LspClient } from '../support/lspClient';

const SPEC = `name: sdxl
type: QUEUE
image: myorg/sdxl:1.0.0
gpu:
  pools: [ADA_24]
workers:
  max: 8
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

describe('the spec file request under a team policy', () => {
  let folder: string;
  let client: LspClient;
  const spec = () => join(folder, 'sdxl.endpoint.yaml');
  const uri = () => pathToFileURL(spec()).href;
  const facts = (): Promise<SpecFileFacts> => sendRequestWith(client.connection, SPEC_FILE_REQUEST, { uri: uri() });

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'es-spec-facts-policy-'));
    mkdirSync(join(folder, '.git'));
    mkdirSync(join(folder, '.endpoint-studio'));
    writeFileSync(join(folder, '.endpoint-studio', 'policy.yaml'), 'rules:\n  - name: team-limits\n    maxWorkers: 4\n');
    writeFileSync(spec(), SPEC);
    client = await LspClient.start({ pull: true, workspaceFolders: [folder] });
    await client.open(uri(), SPEC);
  });

  after(async () => {
    await client.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('answers the policy finding among the document’s errors, and none once it is silenced with a reason', async () => {
    assert.deepEqual((await facts()).documents[0].errors, [
      { code: 'policy-max-workers', message: 'workers.max 8 is above 4 (policy team-limits)' },
    ]);
    await client.change(uri(), SPEC.replace('  max: 8', '  max: 8 # endpoint-studio-ignore policy-max-workers: load test'));
    const silenced = await facts();
    assert.equal(silenced.documents[0].errors, undefined);
    assert.equal(silenced.brokenPolicy, undefined);
  });

  it('says the policy is broken, even with its error silenced on the spec’s line', async () => {
    const policy = join(folder, '.endpoint-studio', 'policy.yaml');
    await client.open(pathToFileURL(policy).href, 'rules:\n  - name: team-limits\n    maxWorker: 4\n');
    await client.change(uri(), SPEC.replace('name: sdxl', 'name: sdxl # endpoint-studio-ignore policy-invalid: not ours'));
    const answered = await facts();
    assert.equal(answered.documents[0].errors, undefined);
    assert.match(
      answered.brokenPolicy ?? '',
      /^\.endpoint-studio\/policy\.yaml is broken, so deploys are refused until it is fixed: line 3: rules\[0\]\.maxWorker is not a policy setting/,
    );
  });
});
