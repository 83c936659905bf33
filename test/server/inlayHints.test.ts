/**
 * Inlay hints: the defaults of fields a spec leaves out, where the field would be written, and the cost per
 * hour at `workers.min` and `workers.max`. Over real stdio with the emulator's catalog for the prices (the
 * figures of costHover.test.ts with one GPU per worker), and in-process against an edited schema to show the
 * defaults come from the schema alone. Hints that fall at one position come as one, so every editor shows a
 * gap between them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { InlayHint, MarkupContent } from 'vscode-languageserver-protocol';
import commonSchema from '../../schemas/common.schema.json';
import createSchema from '../../schemas/endpoint-create.schema.json';
import { useContractSchemas } from '../../core/endpointSpec/contract';
import { DEFAULT_DEV_API_KEY, startEmulator, type RunningEmulator } from '../../emulator/index';
import { analyze } from '../../server/languageService';
import { inlayHintsIn, JOINED_HINT_GAP } from '../../server/languageService/inlayHints';
import { LspClient } from '../support/lspClient';
import { PRICED_SPEC } from '../support/pricedSpec';

/** `line:character label`, one per hint, in the order the server gave them. */
function rendered(hints: InlayHint[]): string[] {
  return hints.map(
    (h) => `${h.position.line}:${h.position.character} ${typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')}`,
  );
}

const tooltipOf = (hint: InlayHint | undefined): string => (hint?.tooltip as MarkupContent | undefined)?.value ?? '';

/** The tooltips of the hints joined into one, in their order. */
const tooltipParts = (hint: InlayHint | undefined): string[] => tooltipOf(hint).split('\n\n---\n\n');

let counter = 0;
const specUri = (ext = 'yaml'): string => `file:///hints/spec-${++counter}.endpoint.${ext}`;

describe('inlay hints over LSP', () => {
  let emulator: RunningEmulator;
  let cacheDir: string;
  const clients: LspClient[] = [];
  const start = async (options: Parameters<typeof LspClient.start>[0] = {}): Promise<LspClient> => {
    const client = await LspClient.start({
      pull: true,
      ...options,
      env: { ENDPOINT_STUDIO_API_URL: emulator.restUrl, ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY, ENDPOINT_STUDIO_CACHE_DIR: cacheDir },
    });
    clients.push(client);
    await client.catalogStatus((s) => s.state === 'live');
    return client;
  };
  before(async () => {
    emulator = await startEmulator({ port: 0, jobsPort: 0 });
    cacheDir = mkdtempSync(join(tmpdir(), 'es-inlay-hints-'));
  });
  after(async () => {
    for (const client of clients) await client.stop();
    await emulator.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('shows each default left out at the end of its object, and the cost per hour at workers.min and workers.max', async () => {
    const client = await start();
    const uri = specUri();
    await client.open(uri, PRICED_SPEC);
    const hints = await client.inlayHints(uri);
    assert.deepEqual(rendered(hints), [
      '5:30 count 1',
      '7:8 $0.72–$1.38/h',
      '8:8 $1.80–$3.45/h  idleTimeout 10 s',
      '11:15 flashboot OFF  timeout 300000 ms',
    ]);
    assert.ok(hints.every((h) => h.paddingLeft === true));
    const idleTimeout = tooltipParts(hints[2])[1];
    assert.match(idleTimeout, /^\*\*workers\.idleTimeout\*\* is left out: the service applies its default, `10`\./);
    assert.match(idleTimeout, /Seconds before idle workers scale down/, 'the field description from the schema follows');
    assert.match(tooltipOf(hints[1]), /\| Always on: `workers.min` 2 \| \$0\.72–\$1\.38 \| \$525\.60–\$1,007\.40 \|/);
  });

  it('gives the hints at one position as one, its labels apart and each tooltip kept (Helix runs separate ones together)', async () => {
    const client = await start();
    const uri = specUri();
    await client.open(uri, PRICED_SPEC);
    const hints = await client.inlayHints(uri);
    const positions = hints.map((h) => `${h.position.line}:${h.position.character}`);
    assert.deepEqual(positions, [...new Set(positions)], 'no two hints at one position');
    // Two defaults at the end of the spec, after the last value of `scaling`.
    const end = hints.find((h) => h.position.line === 11);
    assert.deepEqual(end?.position, { line: 11, character: 15 });
    assert.equal(end.label, `flashboot OFF${JOINED_HINT_GAP}timeout 300000 ms`);
    assert.equal(end.paddingLeft, true, 'apart from the value before it');
    assert.deepEqual(
      tooltipParts(end).map((part) => part.split(' is left out')[0]),
      ['**flashboot**', '**timeout**'],
    );
    // A cost and a default after `max: 5`.
    const max = hints.find((h) => h.position.line === 8);
    assert.equal(max?.label, `$1.80–$3.45/h${JOINED_HINT_GAP}idleTimeout 10 s`);
    assert.equal(max.paddingLeft, true);
    assert.match(tooltipParts(max)[0], /\| At `workers.max` 5 \|/);
    assert.match(tooltipParts(max)[1], /^\*\*workers\.idleTimeout\*\* is left out/);
  });

  it('shows no default for a written field, nor for one the spec rules out (idleTimeout on a QUEUE endpoint scaling on REQUEST_COUNT)', async () => {
    const client = await start();
    const uri = specUri();
    const text = PRICED_SPEC.replace('  max: 5\n', '  max: 5\n  idleTimeout: 30\n').replace(
      'pools: [AMPERE_24, ADA_24]',
      'pools: [ADA_24]\n  count: 1',
    );
    await client.open(uri, `${text}flashboot: FLASHBOOT\ntimeout: 600000\n`);
    assert.deepEqual(
      rendered(await client.inlayHints(uri)).map((h) => h.replace(/^\S+ /, '')),
      ['$1.38/h', '$3.45/h'],
      'only the costs, of ADA_24 alone',
    );
    const ruledOut = specUri();
    await client.open(ruledOut, PRICED_SPEC.replace('type: QUEUE_DELAY\n  queueDelay: 4', 'type: REQUEST_COUNT\n  requestCount: 4'));
    assert.ok(!rendered(await client.inlayHints(ruledOut)).some((h) => h.includes('idleTimeout')));
  });

  it('names the fields of an object the spec leaves out by their path, at the end of the spec; JSON too', async () => {
    const client = await start();
    const uri = specUri('json');
    await client.open(
      uri,
      '{\n  "name": "x",\n  "type": "QUEUE",\n  "gpu": {"pools": ["ADA_24"]},\n  "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4}\n}\n',
    );
    assert.deepEqual(rendered(await client.inlayHints(uri)), [
      '3:29 count 1',
      '4:53 workers.min 0  $0.00/h  workers.max 3  $2.07/h  workers.idleTimeout 10 s  flashboot OFF  timeout 300000 ms',
    ]);
  });

  it('answers only the range asked for, and nothing for a document that is not a spec', async () => {
    const client = await start();
    const uri = specUri();
    await client.open(uri, PRICED_SPEC);
    const middle = await client.inlayHints(uri, { start: { line: 6, character: 0 }, end: { line: 9, character: 0 } });
    assert.deepEqual(rendered(middle), ['7:8 $0.72–$1.38/h', '8:8 $1.80–$3.45/h  idleTimeout 10 s']);
    await client.open('file:///hints/other.yaml', PRICED_SPEC);
    assert.deepEqual(await client.inlayHints('file:///hints/other.yaml'), []);
  });

  it('leaves out each kind the settings switch off, from initializationOptions and from workspace/configuration', async () => {
    const client = await start({
      initializationOptions: { inlayHints: { cost: false } },
      capabilities: { workspace: { configuration: true, inlayHint: { refreshSupport: true } }, textDocument: { diagnostic: {} } },
    });
    const uri = specUri();
    await client.open(uri, PRICED_SPEC);
    assert.ok(
      rendered(await client.inlayHints(uri)).every((h) => !h.includes('$')),
      'no cost hint',
    );
    const refreshes = client.inlayHintRefreshes;
    await client.changeSettings({ endpointStudio: { inlayHints: { cost: true, defaults: false } } });
    await client.until(() => client.inlayHintRefreshes > refreshes, 'an inlay hint refresh');
    assert.deepEqual(
      rendered(await client.inlayHints(uri)).map((h) => h.replace(/^\S+ /, '')),
      ['$0.72–$1.38/h', '$1.80–$3.45/h'],
    );
    assert.deepEqual(client.configurationRequests, ['endpointStudio', 'endpointStudio']);
  });
});

describe('inlay hint defaults', () => {
  afterEach(() => {
    useContractSchemas();
  });

  it('follow a default and a unit changed in the schema alone', () => {
    const common = structuredClone(commonSchema) as typeof commonSchema & {
      $defs: { workers: { properties: { idleTimeout: Record<string, unknown> } } };
    };
    common.$defs.workers.properties.idleTimeout.default = 42;
    common.$defs.workers.properties.idleTimeout['x-unit'] = 'min';
    useContractSchemas({ create: createSchema, referenced: [common] });
    const text = 'name: x\ntype: QUEUE\nworkers:\n  max: 1\n';
    const hints = inlayHintsIn(
      text,
      analyze(text, 'yaml'),
      { offset: 0, length: text.length },
      { defaults: true, cost: true, environments: true },
    );
    assert.ok(
      hints.some((h) => h.label.split(JOINED_HINT_GAP).includes('idleTimeout 42 min')),
      hints.map((h) => h.label).join(', '),
    );
  });
});
