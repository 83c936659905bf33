/**
 * The layer table in eslint.config.mjs must catch what docs/ARCHITECTURE.md forbids, whatever the depth of the
 * file and however the import is spelt, and let the allowed imports through. Made-up files go through ESLint's
 * own API with the repository's config, only the import rules running (statements, and `import()` and `require()`),
 * so no type information is needed.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const ROOT = join(__dirname, '..', '..');
const PRODUCT = ['client', 'server', 'core', 'cli', 'emulator', 'agents', 'scripts'];

const eslint = new ESLint({
  cwd: ROOT,
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports' || ruleId === 'layers/no-restricted-dynamic-imports',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

/** The import rules' messages for `code` as if it were the file at `filePath`. */
async function restrictions(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
  assert.ok(result, filePath);
  assert.deepEqual(
    result.messages.filter((m) => m.fatal),
    [],
    `${filePath} parses`,
  );
  return result.messages.map((m) => m.message);
}

async function assertRefused(filePath: string, code: string, rule: string): Promise<void> {
  const messages = await restrictions(filePath, code);
  assert.equal(messages.length, 1, `${filePath}: ${code}`);
  assert.match(messages[0], /import is restricted/);
  assert.ok(messages[0].includes(rule), `${filePath}: ${code}\n${messages[0]}`);
}

async function assertAllowed(filePath: string, code: string): Promise<void> {
  assert.deepEqual(await restrictions(filePath, code), [], `${filePath}: ${code}`);
}

describe('layers held by lint', () => {
  it('refuses an import that points up a layer', async () => {
    await assertRefused('core/x.ts', "import { main } from '../cli/main';", 'core/ may import only core/, schemas/');
    await assertRefused('client/x.ts', "import { startEmulator } from '../emulator/index';", 'client/ may import only core/, agents/');
    await assertRefused('core/endpointSpec/x.ts', "import { ApiClient } from '../api';", 'core/endpointSpec/ may import only schemas/');
    await assertRefused('core/deploy/x.ts', "export { runMcp } from '../../cli/mcp';", 'core/deploy/');
    await assertRefused('core/api/x.ts', "import { x } from '../util/atomicWrite';", 'core/api/ may import nothing outside itself');
  });

  it('refuses any import of test/ from product code', async () => {
    for (const folder of PRODUCT)
      await assertRefused(`${folder}/x.ts`, "import { x } from '../test/support/fixtures';", `${folder}/ may import`);
    await assertRefused('emulator/resources/x.ts', "import { x } from '../../test/support/fixtures';", 'emulator/');
  });

  it('lets the allowed imports through', async () => {
    await assertAllowed('core/operations/x.ts', "import { x } from '../billing/query';");
    await assertAllowed('core/operations/x.ts', "import { isSpecFile } from '../protocol';");
    await assertAllowed('core/deploy/x.ts', "import { x } from './render';\nimport { y } from '../../core/api';");
    await assertAllowed('cli/x.ts', "import { x } from '../emulator/index';\nimport { y } from '../core/deploy/plan';");
    await assertAllowed('emulator/resources/x.ts', "import { x } from '../../core/util/seededRandom';\nimport { y } from '../state';");
    await assertAllowed('client/explorer/x.ts', "import * as vscode from 'vscode';\nimport { x } from '../../agents/planTokens';");
    await assertAllowed('test/x.ts', "import { x } from '../cli/emulator';\nimport { y } from '../emulator/index';");
  });

  it('reads a relative import from where the file is, not by the folder names it mentions', async () => {
    // core/endpointSpec/catalog is the engine's own folder; from core/endpointSpec itself `../catalog` is core/catalog.
    await assertAllowed('core/endpointSpec/rules/x.ts', "import { x } from '../catalog/rules';");
    await assertRefused('core/endpointSpec/x.ts', "import { x } from '../catalog/fetch';", 'core/endpointSpec/');
    // Another spelling of the same folder, and a climb out through the file's own folder.
    await assertRefused('core/deploy/x.ts', "import { x } from '../../core/operations';", 'core/deploy/');
    await assertRefused('core/billing/sub/x.ts', "import { x } from '../../../cli/main';", 'core/billing/');
  });

  it('takes only types from a folder listed for its types', async () => {
    await assertAllowed('core/catalog/x.ts', "import type { CatalogStatus } from '../protocol';");
    await assertRefused('core/catalog/x.ts', "import { isSpecFile } from '../protocol';", 'and only types from core/protocol/');
  });

  it('holds import() and require() to the same table', async () => {
    await assertRefused('core/x.ts', "export const load = () => import('../cli/main');", 'core/ may import only core/, schemas/');
    await assertRefused('client/x.ts', "const { startEmulator } = require('../emulator/index');", 'client/ may import only core/, agents/');
    await assertRefused('core/deploy/sub/x.ts', 'void import(`../../../cli/mcp`);', 'core/deploy/');
    await assertRefused('cli/x.ts', "void import('../test/support/fixtures');", 'cli/ may import');
    // Loaded at run time it is a value, whatever the row says of its types.
    await assertRefused('core/catalog/x.ts', "void import('../protocol');", 'and only types from core/protocol/');
    const messages = await restrictions('server/x.ts', "void import('vscode');");
    assert.deepEqual(messages.length, 1);
    assert.match(messages[0], /only client\/ imports vscode/);
  });

  it('lets the allowed import() and require() through, and a computed path alone', async () => {
    await assertAllowed('cli/x.ts', "void import('./validate.js');\nvoid import('../emulator/index');\nrequire('node:fs');");
    await assertAllowed('core/catalog/x.ts', "void import('./setup.js');\ntype P = typeof import('../protocol');");
    await assertAllowed('client/x.ts', "void import('vscode');\nvoid import('./features.js');");
    await assertAllowed('core/x.ts', 'const name = process.argv[2];\nvoid import(name);');
  });

  it('lets only the Electron runner load the integration bundler from test/', async () => {
    const load = "require('../../test/e2e/support/integrationBundle.ts');";
    await assertAllowed('scripts/editor/run-electron-tests.mjs', load);
    await assertRefused('scripts/editor/x.mjs', load, 'scripts/ may import');
    await assertRefused('scripts/editor/run-electron-tests.mjs', "require('../../test/support/fixtures');", 'scripts/ may import');
  });

  it('keeps vscode to the client', async () => {
    const messages = await restrictions('server/x.ts', "import * as vscode from 'vscode';");
    assert.equal(messages.length, 1);
    assert.match(messages[0], /only client\/ imports vscode/);
  });

  it('covers every folder that holds product code, at its depth', async () => {
    // The patterns are written out per depth up to a bound; a file deeper than that would escape them.
    const folders = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
        if (entry.isDirectory() && entry.name !== 'generated') walk(posix.join(dir, entry.name));
        else if (/\.(ts|mjs|js)$/.test(entry.name)) folders.add(dir);
      }
    };
    for (const folder of PRODUCT) walk(folder);
    assert.ok(folders.size > 20, `${folders.size} folders`);
    for (const dir of folders) {
      const toTest = relative(join(ROOT, dir), join(ROOT, 'test', 'support', 'fixtures'))
        .split('\\')
        .join('/');
      await assertRefused(`${dir}/x.ts`, `import { x } from '${toTest}';`, 'may import');
    }
  });
});
