/**
 * Reads annotated fixtures. Expectations are comments, so a fixture stays a real spec:
 *
 *   min: 5
 *   #    ^ workers-min-above-max          (carets under the previous non-annotation line)
 *   # expect: compute-choice @ 1:1-1:5    (1-based line:column, end column exclusive)
 *
 * JSON cannot hold comments: `x.endpoint.json` takes its `expect:` lines from `x.endpoint.json.expect`.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Range } from 'vscode-languageserver-protocol';

export interface ExpectedDiagnostic {
  readonly code: string;
  readonly range: Range;
}

export interface Fixture {
  readonly file: string;
  readonly name: string;
  readonly text: string;
  readonly valid: boolean;
  readonly expected: ExpectedDiagnostic[];
}

const CARET_LINE = /^\s*#[\s^]*?(\^+)\s+([a-z0-9-]+)\s*$/;
const EXPECT_LINE = /expect:\s*([a-z0-9-]+)\s*@\s*(\d+):(\d+)-(\d+):(\d+)/;

export function parseExpectations(text: string): ExpectedDiagnostic[] {
  const lines = text.split(/\r?\n/);
  const expected: ExpectedDiagnostic[] = [];
  let target = -1;
  lines.forEach((line, index) => {
    const caret = CARET_LINE.exec(line);
    const explicit = EXPECT_LINE.exec(line);
    if (caret) {
      const start = line.indexOf('^');
      expected.push({
        code: caret[2],
        range: { start: { line: target, character: start }, end: { line: target, character: start + caret[1].length } },
      });
    } else if (explicit) {
      const [, code, sl, sc, el, ec] = explicit;
      expected.push({
        code,
        range: { start: { line: Number(sl) - 1, character: Number(sc) - 1 }, end: { line: Number(el) - 1, character: Number(ec) - 1 } },
      });
    } else {
      target = index;
    }
  });
  return expected;
}

export function loadFixtures(directory: string): Fixture[] {
  const fixtures: Fixture[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      fixtures.push(...loadFixtures(path));
      continue;
    }
    if (!/\.endpoint\.(ya?ml|json)$/.test(entry.name)) continue;
    const text = readFileSync(path, 'utf8');
    const sidecar = `${path}.expect`;
    const annotations = entry.name.endsWith('.json') ? (existsSync(sidecar) ? readFileSync(sidecar, 'utf8') : '') : text;
    fixtures.push({
      file: path,
      name: path.slice(path.indexOf('fixtures/') + 'fixtures/'.length),
      text,
      valid: entry.name.startsWith('valid'),
      expected: parseExpectations(annotations),
    });
  }
  return fixtures.sort((a, b) => a.name.localeCompare(b.name));
}
