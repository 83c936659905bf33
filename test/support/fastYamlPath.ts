/** What the fast YAML path's tests hold it to: wherever it answers, the `yaml` library's document. */
import assert from 'node:assert/strict';
import { parseYamlWithLibrary } from '../../core/endpointSpec/parse';
import { parsePlainYaml } from '../../core/endpointSpec/plainYaml';
import type { SpecDocument } from '../../core/endpointSpec/tree';

export type FastPath = (text: string) => SpecDocument | undefined;

/** Whether `parse` (the fast path, or a mutant of it) answers for `text`; throws when it answers other than the library. */
export function agreesWithLibrary(text: string, parse: FastPath = parsePlainYaml): boolean {
  const plain = parse(text);
  if (plain === undefined) return false;
  const library = parseYamlWithLibrary(text);
  assert.equal(library.length, 1, JSON.stringify(text));
  assert.deepStrictEqual(plain, library[0], JSON.stringify(text));
  return true;
}
