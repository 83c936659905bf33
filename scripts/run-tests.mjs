// Runs test/**/*.test.ts with node's built-in test runner (TypeScript loaded through tsx).
// Usage: node scripts/run-tests.mjs [--suite unit|e2e] [--no-build] [--test-name-pattern=<regex> ...] [substring-filter ...]
// Options starting with --test- go to node's test runner as they are, e.g. --test-name-pattern to run one test.
// The default suite, unit, leaves out test/e2e (they need the editor from scripts/editor/setup.sh and the
// packaged extension) and test/integration (mocha suites that only run inside an editor's extension host).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
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

const SUITES = { unit: 'test', e2e: join('test', 'e2e') };
const EDITOR_ONLY = [join('test', 'e2e'), join('test', 'integration')];
const args = process.argv.slice(2);
const suiteFlag = args.indexOf('--suite');
const suite = suiteFlag >= 0 ? args[suiteFlag + 1] : 'unit';
if (!(suite in SUITES)) {
  console.error(`unknown suite "${suite}": use ${Object.keys(SUITES).join(' or ')}`);
  process.exit(2);
}
const filters = args.filter((a, i) => !a.startsWith('--') && !(suiteFlag >= 0 && i === suiteFlag + 1));
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
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...runnerOptions, ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
