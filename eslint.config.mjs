// Lint configuration: typescript-eslint's strict type-checked rules over every TypeScript folder, and the
// recommended JavaScript rules over the build scripts and the webview scripts. Formatting is Prettier's job
// (`npm run format:check`), so no stylistic rule here competes with it.
import eslint from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
  {
    files: ['scripts/**/*.mjs', 'eslint.config.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['media/**/*.js'],
    languageOptions: { globals: globals.browser, sourceType: 'script' },
  },
);
