import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkSpecText } from '../../core/endpointSpec/check';
import { completionContext, documentAt } from '../../server/languageService/cursor';

const RULES = join(__dirname, '..', 'fixtures', 'rules');

test('the parsed document gives the same completion context as re-reading the text, at every position', () => {
  let positions = 0;
  let contexts = 0;
  for (const dir of readdirSync(RULES)) {
    for (const file of readdirSync(join(RULES, dir)).filter((f) => /\.ya?ml$/.test(f))) {
      const original = readFileSync(join(RULES, dir, file), 'utf8');
      // Each text also with its values erased, as while typing `key: ` before the value.
      for (const text of [original, original.replace(/^(\s*(?:-\s+)*[\w.-]+:[ \t]+)\S.*$/gm, '$1')]) {
        const { documents } = checkSpecText(text, 'yaml');
        for (let offset = 0; offset <= text.length; offset++) {
          const reread = completionContext(text, offset, 'yaml');
          const known = completionContext(text, offset, 'yaml', documentAt(documents, offset));
          assert.deepEqual(known, reread, `${dir}/${file} at offset ${offset}`);
          positions++;
          if (known) contexts++;
        }
      }
    }
  }
  assert.ok(positions > 10000 && contexts > 1000, `${positions} positions, ${contexts} with a context`);
});
