/**
 * The integration suite's entry, in the shape @vscode/test-electron (and the extension-development mode of
 * code-server) expects: `run()` is called inside the extension host once our extension is loaded from the
 * development path, and its promise decides the exit status. The suites are the *.test.js files bundled
 * beside this file (see test/e2e/support/integrationBundle.ts).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

export const SUITE_BANNER = 'Endpoint Studio integration suite';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60_000, reporter: 'spec' });
  const grep = process.env.ENDPOINT_STUDIO_INTEGRATION_GREP;
  if (grep) mocha.grep(grep);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort();
  for (const file of files) mocha.addFile(join(__dirname, file));
  console.log(`${SUITE_BANNER}: ${files.join(', ')}`);
  return new Promise((resolve, reject) => {
    mocha.run((failures) => {
      if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
      else resolve();
    });
  });
}
