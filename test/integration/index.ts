/**
 * The integration suite's entry, in the shape @vscode/test-electron (and the extension-development mode of
 * code-server) expects: `run()` is called inside the extension host once our extension is loaded from the
 * development path, and its promise decides the exit status. The suites are the *.test.js files bundled
 * beside this file (see test/e2e/support/integrationBundle.ts).
 *
 * The report also goes to the file REPORT_VARIABLE names, and the outcome to that file + `.done`: newer
 * workbenches no longer forward the extension host's console and exit code to the page in every set-up, and
 * the file reaches the test that started the editor whatever the version.
 */
import { appendFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';

export const SUITE_BANNER = 'Endpoint Studio integration suite';
export const REPORT_VARIABLE = 'ENDPOINT_STUDIO_INTEGRATION_REPORT';

/** What run() writes to `<report>.done` when the suite has ended. */
export interface SuiteOutcome {
  readonly failures: number;
}

export function run(): Promise<void> {
  const report = process.env[REPORT_VARIABLE];
  const print = (...args: unknown[]): void => {
    const line = format(...args);
    console.log(line);
    if (report) appendFileSync(report, `${line}\n`);
  };
  // Every reporter writes through Base.consoleLog.
  (Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void }).consoleLog = print;
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60_000, reporter: 'spec' });
  const grep = process.env.ENDPOINT_STUDIO_INTEGRATION_GREP;
  if (grep) mocha.grep(grep);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort();
  for (const file of files) mocha.addFile(join(__dirname, file));
  print(`${SUITE_BANNER}: ${files.join(', ')}`);
  return new Promise((resolve, reject) => {
    mocha.run((failures) => {
      if (report) writeFileSync(`${report}.done`, JSON.stringify({ failures } satisfies SuiteOutcome));
      if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
      else resolve();
    });
  });
}
