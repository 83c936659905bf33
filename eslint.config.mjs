// Lint configuration: typescript-eslint's strict type-checked rules over every TypeScript folder, and the
// recommended JavaScript rules over the build scripts and the webview scripts. Formatting is Prettier's job (the
// second half of `npm run lint`), so no stylistic rule here competes with it. The layers of docs/ARCHITECTURE.md
// are held here too, so an import that points up a layer fails the lint instead of waiting for a reader to notice.
import eslint from '@eslint/js';
import globals from 'globals';
import { posix, relative, sep } from 'node:path';
import tseslint from 'typescript-eslint';

/**
 * The layer table (docs/ARCHITECTURE.md, "Layers"): what each folder may import besides itself. `core` stands
 * for every folder under core/; `types` are folders it may take types from and nothing else. A folder inside
 * another (core/deploy inside core) follows its own row, which must come after its parent's: the later block wins.
 */
const LAYERS = {
  core: { imports: ['core', 'schemas'] },
  'core/endpointSpec': { imports: ['schemas'] },
  'core/api': { imports: [] },
  'core/util': { imports: [] },
  'core/protocol': { imports: [], types: ['core/endpointSpec'] },
  'core/billing': { imports: ['core/api', 'core/endpointSpec'] },
  'core/deploy': { imports: ['core/api', 'core/billing', 'core/endpointSpec', 'core/util'] },
  'core/environments': { imports: ['core/endpointSpec', 'core/protocol', 'schemas'] },
  'core/catalog': { imports: ['core/api', 'core/endpointSpec', 'core/util'], types: ['core/protocol'] },
  'core/policy': { imports: ['core/billing', 'core/deploy', 'core/endpointSpec', 'schemas'] },
  'core/workspace': { imports: ['core/endpointSpec', 'core/environments', 'core/policy', 'core/protocol'] },
  'core/operations': {
    imports: [
      'core/api',
      'core/billing',
      'core/catalog',
      'core/deploy',
      'core/endpointSpec',
      'core/environments',
      'core/policy',
      'core/protocol',
      'core/workspace',
    ],
  },
  agents: { imports: ['core', 'schemas'] },
  server: { imports: ['core'] },
  emulator: { imports: ['core', 'schemas'] },
  client: { imports: ['core', 'agents'] },
  cli: { imports: ['core', 'agents', 'emulator'] },
  // Tooling sits on top, but no more than product code may it lean on the tests.
  scripts: { imports: ['core', 'agents', 'server', 'emulator', 'client', 'cli', 'schemas'] },
};

/**
 * The one file that may reach into test/ (docs/ARCHITECTURE.md, Layers): the Electron runner loads the integration
 * suite's bundler with `require`. Each entry is a file and the paths, as written, that it may load past its row.
 */
const LOADS_PAST_ITS_ROW = { 'scripts/editor/run-electron-tests.mjs': ['../../test/e2e/support/integrationBundle.ts'] };

/** How deep below its folder a file is held to the table; test/scripts/layers.test.ts fails on a deeper product file. */
const LAYER_NESTING = 4;

/** Every relative spelling that reaches `target` (a folder) from the folder `from`: `../api`, `../../core/api`. */
function spellings(from, target) {
  const up = from.split('/');
  const out = [];
  for (let n = 1; n <= up.length; n++) {
    const ancestor = up.slice(0, up.length - n).join('/');
    if (target === ancestor || target.startsWith(`${ancestor}/`) || ancestor === '')
      out.push(posix.join('../'.repeat(n), posix.relative(ancestor || '.', target)).replace(/\/$/, ''));
  }
  return out;
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const oneOf = (folders, from) => [...new Set(folders.flatMap((folder) => spellings(from, folder)))].map(escape).join('|');
/** The end of a folder's spelling: the folder itself, or a path into it that does not climb out again. */
const INTO = '(?:/(?!\\.\\.(?:/|$))|$)';
const list = (folders) => folders.map((folder) => `${folder}/`).join(', ');

/** A path written as a string literal (or a template without `${}`); undefined for one computed as the program runs. */
function literalPath(node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return undefined;
}

/**
 * `no-restricted-imports` reads `import` and `export` statements only. This rule holds `import('...')` and
 * `require('...')` to the same `paths` and `patterns`, so a lazy import cannot cross a layer either. Such a load
 * is never type-only: a folder a row lists for its types alone is refused here outright.
 */
const dynamicImportRule = {
  meta: {
    type: 'problem',
    docs: { description: 'hold import() and require() to the layer table' },
    schema: [
      {
        type: 'object',
        properties: { paths: { type: 'array' }, patterns: { type: 'array' } },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const [{ paths = [], patterns = [] } = {}] = context.options;
    const compiled = patterns.map(({ regex, message }) => ({ regex: new RegExp(regex), message }));
    const file = relative(import.meta.dirname, context.filename)
      .split(sep)
      .join(posix.sep);
    const exempt = LOADS_PAST_ITS_ROW[file] ?? [];
    const check = (node, how) => {
      const source = literalPath(node);
      if (source === undefined || exempt.includes(source)) return;
      const message = paths.find((path) => path.name === source)?.message ?? compiled.find((p) => p.regex.test(source))?.message;
      if (message !== undefined) context.report({ node, message: `'${source}' import is restricted (${how}). ${message}` });
    };
    return {
      ImportExpression: (node) => {
        check(node.source, 'import()');
      },
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') check(node.arguments[0], 'require()');
      },
    };
  },
};

/** The rule's id as configs name it: `layers/` is this file's own plugin. */
const DYNAMIC_IMPORTS = 'layers/no-restricted-dynamic-imports';

/**
 * One block per folder and nesting depth: a relative import means a different folder from each depth, so the
 * patterns (regular expressions on the import as written) are spelled out per depth. Whatever leaves the folder
 * must land in a folder its row allows; `types` folders only through `import type`. Both rules get the same
 * paths and patterns: `no-restricted-imports` for statements, the local rule for `import()` and `require()`.
 */
function layerBlocks() {
  return Object.entries(LAYERS).flatMap(([folder, { imports, types = [] }]) => {
    const may = imports.length > 0 ? `only ${list(imports)}` : 'nothing outside itself';
    const rule = `${folder}/ may import ${may}${types.length > 0 ? `, and only types from ${list(types)}` : ''} (docs/ARCHITECTURE.md, Layers)`;
    return Array.from({ length: LAYER_NESTING + 1 }, (_, depth) => {
      // The names of the folders in between do not matter to where a relative import leads.
      const from = [folder, ...Array(depth).fill('_')].join('/');
      const leaves = `(?:\\.\\./){${depth + 1}}`;
      const allowed = oneOf([folder, ...imports, ...types], from);
      const patterns = [{ regex: `^(?:\\./)?(?!(?:${allowed})${INTO})${leaves}`, message: rule }];
      if (types.length > 0) patterns.push({ regex: `^(?:\\./)?(?:${oneOf(types, from)})${INTO}`, allowTypeImports: true, message: rule });
      // Only the client runs inside the editor; the build keeps `vscode` out of every other bundle.
      const paths = folder === 'client' ? [] : [{ name: 'vscode', message: 'only client/ imports vscode' }];
      return {
        files: [`${[folder, ...Array(depth).fill('*')].join('/')}/*.{ts,mjs,js}`],
        rules: {
          'no-restricted-imports': ['error', { paths, patterns }],
          [DYNAMIC_IMPORTS]: ['error', { paths, patterns }],
        },
      };
    });
  });
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.cache/**', '.test-output/**', 'core/endpointSpec/generated/**', '*.vsix'] },
  eslint.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.strictTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Numbers and booleans in messages read naturally; objects and nullish values still fail.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `_`-prefixed parameters are the way to keep a required signature while not using an argument.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // node:test runs `test`/`describe`/`suite` bodies itself and reports their failures; awaiting them is not needed.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
    },
  },
  { plugins: { layers: { rules: { 'no-restricted-dynamic-imports': dynamicImportRule } } } },
  ...layerBlocks(),
  {
    files: ['scripts/**/*.mjs', 'eslint.config.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['media/**/*.js'],
    languageOptions: { globals: globals.browser, sourceType: 'script' },
  },
);
