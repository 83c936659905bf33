/** Snippets as plain text, for clients that take no snippets: every placeholder at its default, escapes undone. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SPEC_STARTERS, starterText } from '../../core/endpointSpec/starters';
import { snippetAsPlainText } from '../../server/languageService/completion';
import { SECTION_SNIPPETS } from '../../server/languageService/sections';

describe('snippetAsPlainText', () => {
  it('keeps defaults, takes the first choice, drops empty tab stops and undoes escapes', () => {
    assert.equal(snippetAsPlainText('count: ${1:1}'), 'count: 1');
    assert.equal(snippetAsPlainText('"vcpuCount": ${2|2,4,8,16|}'), '"vcpuCount": 2');
    assert.equal(snippetAsPlainText('workers:\n  ${1}$0'), 'workers:\n  ');
    assert.equal(snippetAsPlainText('name: ${1:my-${2:gpu}-worker}'), 'name: my-gpu-worker');
    assert.equal(snippetAsPlainText('price: \\$1 \\} \\\\'), 'price: $1 } \\');
  });

  it('writes every starter as the New Endpoint Spec command does, and leaves no tab stop in a section', () => {
    for (const starter of SPEC_STARTERS) assert.equal(snippetAsPlainText(starter.snippet), starterText(starter), starter.id);
    for (const section of SECTION_SNIPPETS)
      for (const text of [section.yaml, section.json]) assert.doesNotMatch(snippetAsPlainText(text), /\$\{?\d|\\\$/, section.label);
  });
});
