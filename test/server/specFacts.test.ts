/**
 * `endpointStudio/specFile` and `endpointStudio/locatePaths` over real LSP stdio: what the editor deploys, diffs
 * and compares comes from the server's owner of spec files. A base with two overlays lies on disk; one overlay is
 * open with edits not saved, the other and the base stay closed (read from disk), and the answers follow an edit.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ResponseError } from 'vscode-jsonrpc/node';
import {
  LOCATE_PATHS_REQUEST,
  sendRequestWith,
  SPEC_FILE_REQUEST,
  type LocatePathsParams,
  type SpecFileFacts,
  type SpecFileParams,
} from '../../core/protocol';
import { LspClient } from '../support/lspClient';

const BASE = `name: sdxl-worker
type: QUEUE
image: myorg/sdxl-worker:1.4.2
gpu:
  pools: [ADA_24, AMPERE_48]
workers:
  min: 0
  max: 2
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;
const PROD_ON_DISK = `extends: ./sdxl-worker.endpoint.yaml
name: sdxl-worker-prod
workers:
  min: 1
`;
/** What the prod editor holds, not saved: another minimum, and its own pools in place of the base's. */
const PROD_EDITED = `extends: ./sdxl-worker.endpoint.yaml
name: sdxl-worker-prod
workers:
  min: 2
gpu:
  pools: [ADA_48_PRO]
`;
const STAGING = `extends: ./sdxl-worker.endpoint.yaml
name: sdxl-worker-staging
`;
const TWO_DOCUMENTS = `name: first
type: QUEUE
image: myorg/a:1
gpu:
  pools: [ADA_24]
---
# the second one
name: second
type: QUEUE
image: myorg/b:1
cpu:
  - id: cpu3c-2-4
`;

describe('the spec file requests', () => {
  let folder: string;
  let client: LspClient;
  const path = (name: string) => join(folder, name);
  const uri = (name: string) => pathToFileURL(path(name)).href;
  const specFile = (params: SpecFileParams): Promise<SpecFileFacts> => sendRequestWith(client.connection, SPEC_FILE_REQUEST, params);
  const locate = (params: LocatePathsParams) => sendRequestWith(client.connection, LOCATE_PATHS_REQUEST, params);

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'es-spec-facts-'));
    writeFileSync(path('sdxl-worker.endpoint.yaml'), BASE);
    writeFileSync(path('sdxl-worker.prod.endpoint.yaml'), PROD_ON_DISK);
    writeFileSync(path('sdxl-worker.staging.endpoint.yaml'), STAGING);
    writeFileSync(path('pair.endpoint.yaml'), TWO_DOCUMENTS);
    writeFileSync(path('notes.yaml'), 'name: not-a-spec\n');
    client = await LspClient.start({ pull: true, workspaceFolders: [folder] });
    await client.open(uri('sdxl-worker.prod.endpoint.yaml'), PROD_ON_DISK);
    await client.change(uri('sdxl-worker.prod.endpoint.yaml'), PROD_EDITED);
  });

  after(async () => {
    await client.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('answers an open overlay at its unsaved version: merged into its base, with its environment', async () => {
    const facts = await specFile({ uri: uri('sdxl-worker.prod.endpoint.yaml') });
    assert.equal(facts.version, 2);
    assert.deepEqual(facts.overlay, {
      environment: 'prod',
      basePath: path('sdxl-worker.endpoint.yaml'),
      replacedArrays: ['gpu.pools'],
    });
    assert.deepEqual(facts.environments, []);
    assert.equal(facts.documents.length, 1);
    const [document] = facts.documents;
    assert.deepEqual(document.body, {
      name: 'sdxl-worker-prod',
      type: 'QUEUE',
      image: 'myorg/sdxl-worker:1.4.2',
      gpu: { pools: ['ADA_48_PRO'] },
      workers: { min: 2, max: 2 },
      scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
    });
    assert.equal(document.isSpec, true);
    assert.deepEqual(document.span, { offset: 0, length: PROD_EDITED.length });
    assert.equal(document.root?.offset, 0);
  });

  it('answers a closed base from disk, with its overlays in name order', async () => {
    const facts = await specFile({ uri: uri('sdxl-worker.endpoint.yaml') });
    assert.equal(facts.version, null);
    assert.equal(facts.overlay, undefined);
    assert.deepEqual(
      facts.environments.map(({ path: file, environment, patch }) => ({ file, environment, patch })),
      [
        // The prod overlay's editor (opened above) holds unsaved values: they are what prod deploys.
        {
          file: path('sdxl-worker.prod.endpoint.yaml'),
          environment: 'prod',
          patch: { name: 'sdxl-worker-prod', workers: { min: 2 }, gpu: { pools: ['ADA_48_PRO'] } },
        },
        { file: path('sdxl-worker.staging.endpoint.yaml'), environment: 'staging', patch: { name: 'sdxl-worker-staging' } },
      ],
    );
    assert.deepEqual(facts.environments[0].body?.workers, { min: 2, max: 2 }, 'the overlay merged into the base');
    assert.equal(facts.documents[0].body?.name, 'sdxl-worker');
  });

  it("gives each environment's body with the base as its editor holds it, unsaved edits included", async () => {
    await client.open(uri('sdxl-worker.endpoint.yaml'), BASE.replace('queueDelay: 4', 'queueDelay: 6'));
    const facts = await specFile({ uri: uri('sdxl-worker.endpoint.yaml') });
    await client.close(uri('sdxl-worker.endpoint.yaml'));
    assert.deepEqual(
      facts.environments.map((e) => [e.environment, e.body?.scaling]),
      [
        ['prod', { type: 'QUEUE_DELAY', queueDelay: 6 }],
        ['staging', { type: 'QUEUE_DELAY', queueDelay: 6 }],
      ],
    );
  });

  it("lists a base's overlays as their editors hold them: an unsaved edit that drops `extends` drops the environment", async () => {
    await client.open(uri('sdxl-worker.staging.endpoint.yaml'), STAGING.replace(/^extends: .*\n/, 'type: QUEUE\n'));
    const edited = await specFile({ uri: uri('sdxl-worker.endpoint.yaml') });
    assert.deepEqual(
      edited.environments.map((e) => e.environment),
      ['prod'],
    );
    await client.close(uri('sdxl-worker.staging.endpoint.yaml'));
    const closed = await specFile({ uri: uri('sdxl-worker.endpoint.yaml') });
    assert.deepEqual(
      closed.environments.map((e) => e.environment),
      ['prod', 'staging'],
    );
  });

  it('answers a closed overlay from disk, merged into its base', async () => {
    const facts = await specFile({ uri: uri('sdxl-worker.staging.endpoint.yaml') });
    assert.equal(facts.version, null);
    assert.equal(facts.overlay?.environment, 'staging');
    assert.equal(facts.overlay.firstError, undefined);
    assert.deepEqual(facts.documents[0].body?.gpu, { pools: ['ADA_24', 'AMPERE_48'] });
    assert.equal(facts.documents[0].body.name, 'sdxl-worker-staging');
  });

  it('follows an edit: a broken overlay says its first error and deploys nothing', async () => {
    await client.change(uri('sdxl-worker.prod.endpoint.yaml'), PROD_EDITED.replace('min: 2', 'min: many'));
    const broken = await specFile({ uri: uri('sdxl-worker.prod.endpoint.yaml') });
    assert.equal(broken.version, 3);
    assert.equal(broken.overlay?.firstError, 'expected an integer, got a string ("many")');
    await client.change(uri('sdxl-worker.prod.endpoint.yaml'), 'extends: ./gone.endpoint.yaml\nname: lost\n');
    const lost = await specFile({ uri: uri('sdxl-worker.prod.endpoint.yaml') });
    assert.equal(lost.overlay?.basePath, undefined);
    assert.equal(lost.overlay?.firstError, './gone.endpoint.yaml does not exist');
    assert.equal(lost.documents[0].body, undefined);
    await client.change(uri('sdxl-worker.prod.endpoint.yaml'), PROD_EDITED);
  });

  it('gives each document of a file its span and its mapping, all of them or the one asked for', async () => {
    const facts = await specFile({ uri: uri('pair.endpoint.yaml') });
    assert.deepEqual(
      facts.documents.map((d) => [d.index, d.isSpec, d.body?.name, d.root?.offset]),
      [
        [0, true, 'first', 0],
        [1, true, 'second', TWO_DOCUMENTS.indexOf('name: second')],
      ],
    );
    const [first, second] = facts.documents;
    assert.ok(first.span.offset + first.span.length <= TWO_DOCUMENTS.indexOf('---'), JSON.stringify(first.span));
    assert.ok(second.span.offset >= TWO_DOCUMENTS.indexOf('---'), JSON.stringify(second.span));
    // Spans only: no tree goes onto the wire.
    assert.deepEqual(Object.keys(second.root ?? {}), ['offset', 'length']);
    assert.match(
      TWO_DOCUMENTS.slice(second.root?.offset, (second.root?.offset ?? 0) + (second.root?.length ?? 0)),
      /^name: second[^]*cpu3c-2-4\n?$/,
    );
    const one = await specFile({ uri: uri('pair.endpoint.yaml'), documentIndex: 1 });
    assert.deepEqual(
      one.documents.map((d) => d.index),
      [1],
    );
  });

  it('locates JSON paths in the open text, and falls back to the closest field the text has', async () => {
    const located = await locate({
      uri: uri('sdxl-worker.prod.endpoint.yaml'),
      documentIndex: 0,
      paths: [
        ['workers', 'min'],
        ['gpu', 'pools', 0],
        ['scaling', 'queueDelay'],
      ],
    });
    assert.equal(located.version, 5);
    const text = (span: { offset: number; length: number }) => PROD_EDITED.slice(span.offset, span.offset + span.length);
    assert.deepEqual(located.spans.map(text), ['2', 'ADA_48_PRO', 'extends']);
    const inSecond = await locate({ uri: uri('pair.endpoint.yaml'), documentIndex: 1, paths: [['cpu', 0, 'id']] });
    assert.deepEqual(
      inSecond.spans.map((span) => TWO_DOCUMENTS.slice(span.offset, span.offset + span.length)),
      ['cpu3c-2-4'],
    );
  });

  it('has no documents for a file that is not a spec, or that does not exist', async () => {
    assert.deepEqual(await specFile({ uri: uri('notes.yaml') }), { version: null, documents: [], environments: [] });
    const missing = await specFile({ uri: uri('gone.endpoint.yaml') });
    assert.deepEqual(
      missing.documents.map((d) => d.isSpec),
      [false],
    );
  });

  it('refuses parameters it cannot read, and keeps serving', async () => {
    await assert.rejects(
      client.connection.sendRequest(SPEC_FILE_REQUEST.method, { uri: 42 }),
      (error: unknown) => error instanceof ResponseError && /uri/.test(error.message),
    );
    await assert.rejects(
      client.connection.sendRequest(LOCATE_PATHS_REQUEST.method, { uri: uri('pair.endpoint.yaml'), documentIndex: 0, paths: [[{}]] }),
      (error: unknown) => error instanceof ResponseError && /paths/.test(error.message),
    );
    assert.equal((await specFile({ uri: uri('pair.endpoint.yaml') })).documents.length, 2);
  });
});
