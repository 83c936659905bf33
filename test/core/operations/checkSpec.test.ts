/** `checkSpec`: the same problems for the same text, with the catalog from nowhere, a snapshot, or the live service. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadCatalogFile } from '../../../core/endpointSpec/catalog/load';
import { checkSpec, hasErrors } from '../../../core/operations';
import { createApiClient } from '../../../core/api';
import { withEmulator } from '../deploy/support';

const CATALOG = join(__dirname, '..', '..', 'fixtures', 'catalog.json');

const SPEC = `name: w
type: QUEUE
image: myorg/w:1
gpu:
  pools: [ADA_24]
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;
const UNKNOWN_POOL = SPEC.replace('[ADA_24]', '[NO_SUCH_POOL]');

const codes = (result: Awaited<ReturnType<typeof checkSpec>>): string[] => result.diagnostics.map((d) => d.code);

describe('checkSpec', () => {
  it('checks schema and rules without a catalog, and finds no catalog problem then', async () => {
    const clean = await checkSpec({ text: SPEC, format: 'yaml', catalog: { kind: 'none' } });
    assert.deepEqual(codes(clean), []);
    assert.equal(clean.catalog, undefined);
    assert.deepEqual(
      clean.documents.map((d) => [d.index, d.isSpec]),
      [[0, true]],
    );
    const unknown = await checkSpec({ text: UNKNOWN_POOL, format: 'yaml', catalog: { kind: 'none' } });
    assert.ok(!hasErrors(unknown.diagnostics), 'without a catalog an unknown pool cannot be told');

    const invalid = await checkSpec({ text: SPEC.replace('queueDelay: 4', 'queueDelay: 0.1'), format: 'yaml', catalog: { kind: 'none' } });
    assert.ok(hasErrors(invalid.diagnostics));
    assert.ok(hasErrors(invalid.diagnostics, [0]));
    assert.ok(!hasErrors(invalid.diagnostics, [1]));
  });

  it('uses a pinned snapshot', async () => {
    const catalog = loadCatalogFile(CATALOG);
    const result = await checkSpec({ text: UNKNOWN_POOL, format: 'yaml', catalog: { kind: 'snapshot', catalog } });
    assert.equal(result.catalog, catalog);
    assert.ok(hasErrors(result.diagnostics), codes(result).join(', '));
  });

  it('reads the live catalog from the service, and finds the same problem as the snapshot', async () => {
    await withEmulator({}, async (_emu, client) => {
      const live = await checkSpec({ text: UNKNOWN_POOL, format: 'yaml', catalog: { kind: 'live', client: client() } });
      assert.ok(live.catalog, live.catalogError);
      const snapshot = await checkSpec({
        text: UNKNOWN_POOL,
        format: 'yaml',
        catalog: { kind: 'snapshot', catalog: loadCatalogFile(CATALOG) },
      });
      assert.deepEqual(
        live.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
        snapshot.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
      );
      assert.deepEqual(codes(await checkSpec({ text: SPEC, format: 'yaml', catalog: { kind: 'live', client: client() } })), []);
    });
  });

  it('still checks when the live catalog cannot be read, and says why', async () => {
    const client = createApiClient({ apiUrl: 'http://127.0.0.1:9/v2', apiKey: 'k', retry: { maxRetries: 0 } });
    const result = await checkSpec({ text: SPEC, format: 'yaml', catalog: { kind: 'live', client, timeoutMs: 2000 } });
    assert.equal(result.catalog, undefined);
    assert.match(result.catalogError ?? '', /./);
    assert.deepEqual(codes(result), []);
  });

  it('tells empty documents from specs', async () => {
    const result = await checkSpec({ text: `${SPEC}---\n---\n${SPEC}`, format: 'yaml', catalog: { kind: 'none' } });
    assert.deepEqual(
      result.documents.map((d) => d.isSpec),
      [true, false, true],
    );
  });
});
