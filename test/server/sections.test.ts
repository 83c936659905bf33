/** Section snippets: offered at the root over LSP, never for a section already written, and each a valid section. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as YAML from 'yaml';
import { LspClient } from '../support/lspClient';
import { SECTION_SNIPPETS } from '../../server/languageService/sections';
import { validateSpecData } from '../../core/endpointSpec/validate';

const resolvePlaceholders = (snippet: string) => snippet.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$\{\d+\|([^,|]*)[^}]*\}/g, '$1');

describe('section snippets', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ pull: true });
  });
  after(() => client.stop());

  it('are offered at the root for sections not yet written', async () => {
    const uri = 'file:///sections/a.endpoint.yaml';
    await client.open(uri, 'name: demo\ngpu:\n  pools: [ADA_24]\n\n');
    const items = await client.completion(uri, 3, 0);
    const sections = items.filter((i) => i.detail === 'Endpoint Studio section').map((i) => i.label);
    assert.deepEqual(sections, ['cpu section', 'scaling on queue delay', 'scaling on request count', 'workers section']);
    assert.equal(items.find((i) => i.label === 'workers section')?.insertTextFormat, 2);
  });

  it('are not offered inside a section', async () => {
    const uri = 'file:///sections/b.endpoint.yaml';
    await client.open(uri, 'workers:\n  \n');
    const items = await client.completion(uri, 1, 2);
    assert.ok(!items.some((i) => i.detail === 'Endpoint Studio section'));
  });

  for (const section of SECTION_SNIPPETS) {
    it(`${section.label} expands to a valid section in YAML and JSON`, () => {
      const base = { name: 'demo', type: 'QUEUE', image: 'x', scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } };
      const compute = section.key === 'gpu' || section.key === 'cpu' ? {} : { gpu: { pools: ['ADA_24'] } };
      for (const fragment of [
        YAML.parse(resolvePlaceholders(section.yaml)),
        JSON.parse(`{${resolvePlaceholders(section.json)}}`),
      ] as Record<string, unknown>[]) {
        assert.deepEqual(Object.keys(fragment), [section.key]);
        assert.deepEqual(validateSpecData({ ...base, ...compute, ...fragment }), []);
      }
    });
  }
});
