/**
 * `writeConfigurationIntoSpec` on the files people keep: only what differs is set, so the text around it stays;
 * a value an alias supplied is written out; nothing is written into what is not a mapping.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as YAML from 'yaml';
import { writeConfigurationIntoSpec, writeValuesIntoSpec } from '../../../core/endpointSpec/serialize';

describe('writeConfigurationIntoSpec', () => {
  it('leaves a document that already describes the configuration as it is', () => {
    const text = '# kept as typed\n$schema: s.json\nname:   worker\nworkers: {min: 0, max: 3}\n';
    const rewritten = writeConfigurationIntoSpec(text, 'yaml', 0, { name: 'worker', workers: { max: 3, min: 0 } });
    assert.deepEqual(rewritten, { text, edit: { offset: text.length, length: 0, text: '' } });
  });

  it('removes the keys the configuration lacks, but not $schema, and adds its new ones last', () => {
    const text = '$schema: s.json\nname: worker\n# no longer wanted\nflashboot: FLASHBOOT\nimage: a:1\n';
    const rewritten = writeConfigurationIntoSpec(text, 'yaml', 0, { name: 'worker', image: 'a:2', timeout: 600 });
    assert.equal(rewritten?.text, '$schema: s.json\nname: worker\nimage: a:2\ntimeout: 600\n');
  });

  it('writes a value an alias supplied, and keeps the comment heading the document', () => {
    const text = '# heading\nbase: &w\n  max: 3\nworkers: *w # shared\nname: x\n';
    const rewritten = writeConfigurationIntoSpec(text, 'yaml', 0, { base: { max: 3 }, workers: { max: 4 }, name: 'x' });
    assert.ok(rewritten);
    assert.ok(rewritten.text.startsWith('# heading\nbase: &w\n'), rewritten.text);
    assert.deepEqual(YAML.parse(rewritten.text), { base: { max: 3 }, workers: { max: 4 }, name: 'x' });
  });

  it('keeps a byte order mark and the document after it', () => {
    const text = '\uFEFFname: a\n---\nname: b # b stays\n';
    const rewritten = writeConfigurationIntoSpec(text, 'yaml', 0, { name: 'c' });
    assert.equal(rewritten?.text, '\uFEFFname: c\n---\nname: b # b stays\n');
    assert.deepEqual(rewritten.edit, { offset: 7, length: 1, text: 'c' });
  });

  it('writes nothing into a document that is missing, broken or not a mapping', () => {
    const configuration = { name: 'x' };
    assert.equal(writeConfigurationIntoSpec('name: a\n', 'yaml', 1, configuration), undefined);
    assert.equal(writeConfigurationIntoSpec('name: [a\n', 'yaml', 0, configuration), undefined);
    assert.equal(writeConfigurationIntoSpec('- name: a\n', 'yaml', 0, configuration), undefined);
    assert.equal(writeConfigurationIntoSpec('{"name": "a",}', 'json', 0, configuration), undefined);
    assert.equal(writeConfigurationIntoSpec('["a"]', 'json', 0, configuration), undefined);
    assert.equal(writeConfigurationIntoSpec('{"name": "a"}', 'json', 1, configuration), undefined);
  });

  it('sets JSON values where they stand, with the file’s own indentation', () => {
    const text = '{\n\t"$schema": "s.json",\n\t"name": "a",\n\t"workers": {\n\t\t"max": 3\n\t}\n}\n';
    const rewritten = writeConfigurationIntoSpec(text, 'json', 0, { name: 'a', workers: { max: 5, min: 1 } });
    assert.equal(rewritten?.text, '{\n\t"$schema": "s.json",\n\t"name": "a",\n\t"workers": {\n\t\t"max": 5,\n\t\t"min": 1\n\t}\n}\n');
  });
});

describe('writeValuesIntoSpec', () => {
  const overlay = '# prod\nextends: ./w.endpoint.yaml\nname: w-prod # its own name\nworkers:\n  max: 8 # headroom\n';

  it('sets a value in place, keeping comments, and adds a missing one under its parent', () => {
    const written = writeValuesIntoSpec(overlay, 'yaml', 0, [
      { path: ['workers', 'max'], value: 6 },
      { path: ['scaling', 'queueDelay'], value: 2 },
    ]);
    assert.equal(
      written?.text,
      '# prod\nextends: ./w.endpoint.yaml\nname: w-prod # its own name\nworkers:\n  max: 6 # headroom\nscaling:\n  queueDelay: 2\n',
    );
  });

  it('leaves flow lists and mappings it does not change as they were typed', () => {
    const text = 'extends: ./w.endpoint.yaml\ngpu:\n  pools: [AMPERE_48, ADA_24]\nenv: {LOG_LEVEL: info}\n';
    const written = writeValuesIntoSpec(text, 'yaml', 0, [{ path: ['image'], value: 'myorg/w:1.1' }]);
    assert.equal(written?.text, `${text}image: myorg/w:1.1\n`);
  });

  it('removes a key whose value is undefined, and writes JSON too', () => {
    assert.equal(writeValuesIntoSpec(overlay, 'yaml', 0, [{ path: ['workers', 'max'], value: undefined }])?.text.includes('max:'), false);
    const json = '{\n  "name": "w",\n  "workers": { "max": 8 }\n}\n';
    assert.deepEqual(JSON.parse(writeValuesIntoSpec(json, 'json', 0, [{ path: ['workers', 'max'], value: 3 }])?.text ?? ''), {
      name: 'w',
      workers: { max: 3 },
    });
  });
});
