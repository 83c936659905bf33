// Runs test/**/*.test.ts with node's built-in test runner (TypeScript loaded through tsx).
// Usage: node scripts/run-tests.mjs [--suite unit|e2e|editors] [--editor <VS Code version>] [--no-build] [--test-name-pattern=<regex> ...] [substring-filter ...]
// Options starting with --test- go to node's test runner as they are, e.g. --test-name-pattern to run one test.
// The default suite, unit, leaves out test/e2e (they need the editor from scripts/editor/setup.sh and the
// packaged extension), test/integration (mocha suites that only run inside an editor's extension host) and
// test/editors (the editors suite: Neovim, Emacs and Helix from scripts/editors/install.mjs).
// The e2e suite runs once per editor of scripts/editor/editors.json (the oldest VS Code the extension claims,
// then the current one), or on the one --editor or ENDPOINT_STUDIO_EDITOR names.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

function findTests(dir) {
  const found = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'fixtures' || entry === 'node_modules') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (entry.endsWith('.test.ts')) found.push(relative(process.cwd(), path));
  }
  return found;
}

const SUITES = { unit: 'test', e2e: join('test', 'e2e'), editors: join('test', 'editors') };
const EDITOR_ONLY = [join('test', 'e2e'), join('test', 'integration'), join('test', 'editors')];
const args = process.argv.slice(2);
/** The value after a flag such as --suite, and the flag's index (-1 when absent). */
const flagValue = (flag) => {
  const at = args.indexOf(flag);
  return { at, value: at >= 0 ? args[at + 1] : undefined };
};
const suiteFlag = flagValue('--suite');
const editorFlag = flagValue('--editor');
const suite = suiteFlag.value ?? 'unit';
if (!(suite in SUITES)) {
  console.error(`unknown suite "${suite}": use ${Object.keys(SUITES).join(' or ')}`);
  process.exit(2);
}
const flagValues = new Set([suiteFlag.at + 1, editorFlag.at + 1].filter((i) => i > 0));
const filters = args.filter((a, i) => !a.startsWith('--') && !flagValues.has(i));
const runnerOptions = args.filter((a) => a.startsWith('--test-'));
const files = findTests(SUITES[suite])
  .filter((f) => suite !== 'unit' || !EDITOR_ONLY.some((dir) => f.startsWith(dir + '/')))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
if (!process.argv.includes('--no-build')) {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const runTests = (env = process.env) =>
  spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...runnerOptions, ...files], {
    stdio: 'inherit',
    env,
  }).status ?? 1;
if (suite !== 'e2e') process.exit(runTests());

const known = Object.keys(JSON.parse(readFileSync(join('scripts', 'editor', 'editors.json'), 'utf8')).editors);
const chosen = editorFlag.value ?? process.env.ENDPOINT_STUDIO_EDITOR;
if (chosen !== undefined && chosen !== '' && !known.includes(chosen)) {
  console.error(`no editor for VS Code ${chosen}: use one of ${known.join(', ')} (scripts/editor/editors.json)`);
  process.exit(2);
}
const outcomes = [];
for (const editor of chosen ? [chosen] : known) {
  console.log(`\n=== e2e on VS Code ${editor} ===`);
  const started = Date.now();
  const status = runTests({ ...process.env, ENDPOINT_STUDIO_EDITOR: editor });
  outcomes.push({ editor, status, minutes: ((Date.now() - started) / 60_000).toFixed(1) });
}
for (const { editor, status, minutes } of outcomes)
  console.log(`e2e on VS Code ${editor}: ${status === 0 ? 'passed' : 'FAILED'} (${minutes} min)`);
process.exit(outcomes.every((o) => o.status === 0) ? 0 : 1);
