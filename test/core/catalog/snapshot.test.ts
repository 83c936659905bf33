/** The catalog snapshot file and the words for which catalog a check used. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { catalogSnapshot, catalogUsedJson, describeAge, describeCatalogUsed, readCatalogSnapshot } from '../../../core/catalog';
import type { CatalogData } from '../../../core/endpointSpec/catalog/catalog';

const DATA: CatalogData = {
  gpuTypes: [
    { id: 'NVIDIA L4', name: 'L4', pool: 'ADA_24', memory: 24 },
    { id: 'NVIDIA A2', name: 'A2', pool: null, memory: 16 },
  ],
  cpuFlavors: [],
  dataCenters: [{ id: 'US-TX-3', name: 'Texas' }],
  templates: [],
};

describe('catalog snapshot', () => {
  it('round-trips with its format, version, time and pools, and refuses a newer version', () => {
    const dir = mkdtempSync(join(tmpdir(), 'es-snapshot-'));
    try {
      const snapshot = catalogSnapshot(DATA, '2026-11-20T09:00:00.000Z', 'https://api.example');
      assert.deepEqual(snapshot.pools, { ADA_24: ['NVIDIA L4'] });
      const file = join(dir, 'catalog.json');
      writeFileSync(file, JSON.stringify(snapshot));
      const read = readCatalogSnapshot(file);
      assert.equal(read.fetchedAt, '2026-11-20T09:00:00.000Z');
      assert.deepEqual([...read.catalog.pools.keys()], ['ADA_24']);
      writeFileSync(file, JSON.stringify({ ...snapshot, version: 2 }));
      assert.throws(() => readCatalogSnapshot(file), /format version 2 is newer/);
      writeFileSync(file, JSON.stringify(DATA));
      assert.equal(readCatalogSnapshot(file).fetchedAt, undefined, 'plain CatalogData is read, age unknown');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says which catalog was used and how old it is', () => {
    const now = new Date('2026-11-24T12:00:00.000Z');
    assert.equal(describeAge('2026-11-24T11:59:30.000Z', now), 'just now');
    assert.equal(describeAge('2026-11-24T11:00:00.000Z', now), '60 minutes old');
    assert.equal(describeAge('2026-11-24T09:00:00.000Z', now), '3 hours old');
    assert.equal(describeAge('2026-11-20T12:00:00.000Z', now), '4 days old');
    assert.equal(
      describeCatalogUsed(
        { source: 'cached', fetchedAt: '2026-11-24T09:00:00.000Z', stale: true, reason: 'the service could not be reached: x' },
        now,
      ),
      'catalog: cached, fetched 2026-11-24T09:00:00.000Z (3 hours old), stale: the service could not be reached: x',
    );
    assert.equal(describeCatalogUsed({ source: 'snapshot', file: 'c.json' }, now), 'catalog: snapshot c.json (no fetchedAt: age unknown)');
    assert.deepEqual(catalogUsedJson({ source: 'live', fetchedAt: '2026-11-24T11:00:00.000Z' }, now), {
      source: 'live',
      fetchedAt: '2026-11-24T11:00:00.000Z',
      ageSeconds: 3600,
    });
  });
});
