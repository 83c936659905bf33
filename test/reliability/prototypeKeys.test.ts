/**
 * Keys and values named after Object.prototype's members (`toString`, `constructor`, `__proto__`, ...)
 * anywhere in a spec. `cpu: [{}, {toString: 0}]` once crashed the engine: the CLI exited 2 and the
 * language server showed an internal error. Now each placement gets the ordinary diagnostic on that very
 * key, in the engine, the CLI (exit 1) and the language server, and nothing reaches Object.prototype;
 * also for fast-check's random specs. The emulator's side is prototypeKeysEmulator.test.ts.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { checkSpecText } from '../../core/endpointSpec/check';
import { fuzz } from '../support/fuzz';
import { LspClient } from '../support/lspClient';
import { corpusFiles, PROTOTYPE_KEYS, type Format } from './corpus';
import {
  assertOrdinary,
  assertPrototypeIntact,
  BASE,
  createBody,
  hostileSpec,
  isLegacy,
  LEAK,
  memberKeySpots,
  PLACEMENTS,
  reported,
  textOf,
  unknown,
  type Expected,
  type Reported,
} from './prototypeKeyCases';
import { CLI, count, reportFigures, within } from './support';

after(() => {
  reportFigures(__filename);
});

describe('prototype member names in the engine', () => {
  it('the list holds every member of Object.prototype in this Node', () => {
    for (const name of Object.getOwnPropertyNames(Object.prototype)) assert.ok(PROTOTYPE_KEYS.includes(name), name);
  });

  for (const placement of PLACEMENTS) {
    it(`as ${placement.where}: the ordinary diagnostic on it, in JSON and YAML`, () => {
      for (const name of PROTOTYPE_KEYS) {
        for (const format of ['json', 'yaml'] as const) {
          const { diagnostics } = checkSpecText(textOf(createBody(placement, name), format), format);
          count({ inputsTried: 1 });
          assertOrdinary(reported(diagnostics), placement.expected(name), `${name} as ${placement.where} (${format})`);
        }
      }
      assertPrototypeIntact();
    });
  }

  it('as env names with string values they are valid, like any other name', () => {
    for (const name of PROTOTYPE_KEYS) {
      for (const format of ['json', 'yaml'] as const) {
        const { diagnostics } = checkSpecText(textOf({ ...BASE.cpu, env: { [name]: 'v' } }, format), format);
        assert.deepEqual(diagnostics, [], `${name} (${format})`);
      }
    }
  });

  it('the crash input in the corpus: unknown-property on cpu[1].toString, as JSON and as YAML', () => {
    for (const input of corpusFiles().filter((i) => i.name === 'prototype-key-crash')) {
      const { diagnostics } = checkSpecText(input.text(), input.format);
      assertOrdinary(reported(diagnostics), [unknown('cpu', 1, 'toString')], input.fileName);
      assert.ok(diagnostics.every((d) => d.severity === 'error' && ['unknown-property', 'missing-property'].includes(d.code)));
    }
  });
});

interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[]): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<CliRun>((resolve) =>
    child.on('close', (status) => {
      resolve({ status, stdout, stderr });
    }),
  );
  return within(30_000, `endpoint-studio ${args[0]}`, done).finally(() => child.kill('SIGKILL'));
}

describe('prototype member names in the CLI', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'es-prototype-keys-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('validate exits 1 with the ordinary diagnostics for every placement and the corpus files', async () => {
    const expected = new Map<string, Expected[]>();
    PLACEMENTS.forEach((placement, p) => {
      for (const [i, name] of PROTOTYPE_KEYS.entries()) {
        const file = join(dir, `p${p}-k${i}.endpoint.yaml`);
        writeFileSync(file, textOf(createBody(placement, name), 'yaml'));
        expected.set(file, placement.expected(name));
      }
    });
    for (const input of corpusFiles().filter((i) => i.name.startsWith('prototype-key'))) {
      const file = join(dir, input.fileName);
      writeFileSync(file, input.bytes());
      expected.set(file, input.name === 'prototype-key-crash' ? [unknown('cpu', 1, 'toString')] : []);
    }
    const result = await runCli(['validate', '--format', 'json', ...expected.keys()]);
    count({ inputsTried: expected.size });
    assert.equal(result.status, 1, result.stderr);
    assert.doesNotMatch(result.stderr, /is not a function|TypeError|internal/i);
    const entries = JSON.parse(result.stdout) as (Reported & { file: string })[];
    for (const [file, wanted] of expected)
      assertOrdinary(
        entries.filter((e) => e.file === file),
        wanted,
        file,
      );
    // The spec of every name at every depth names each of them as an unknown property at each depth.
    const every = [...expected.keys()].find((file) => file.endsWith('prototype-keys.endpoint.json'));
    const depths = (name: string): Expected[] =>
      [[name], ['scaling', name], ['workers', name], ['gpu', name], ['cpu', 0, name], ['cpu', 1, name]].map((path) => unknown(...path));
    for (const name of PROTOTYPE_KEYS)
      assertOrdinary(
        entries.filter((e) => e.file === every),
        depths(name),
        `${name} in prototype-keys.endpoint.json`,
      );
  });
});

describe('prototype member names in the language server', () => {
  let client: LspClient;
  let counter = 0;
  before(async () => {
    client = await LspClient.start({ pull: true });
  });
  after(async () => {
    await client.stop();
  });

  async function diagnosticsOf(text: string, format: Format): Promise<Reported[]> {
    const uri = `file:///workspace/proto-${++counter}.endpoint.${format}`;
    await client.open(uri, text);
    const items = await within(5_000, uri, client.pulledDiagnostics(uri));
    // Hover and completion at the first key read the same parse; they must answer too.
    await within(5_000, `hover in ${uri}`, client.hover(uri, 0, 2));
    await within(5_000, `completion in ${uri}`, client.completion(uri, 1, 0));
    await client.close(uri);
    count({ inputsTried: 1 });
    assert.ok(client.alive, client.stderr.join('').slice(-2000));
    assert.ok(!items.some((d) => d.code === 'internal-error'), `internal error: ${client.stderr.join('').slice(-2000)}`);
    return items.map((d) => ({
      path: (d.data as { jsonPath: string }).jsonPath,
      code: String(d.code),
      message: typeof d.message === 'string' ? d.message : d.message.value,
    }));
  }

  it('the crash input, as JSON and as YAML: unknown-property on cpu[1].toString, no internal error', async () => {
    for (const input of corpusFiles().filter((i) => i.name === 'prototype-key-crash'))
      assertOrdinary(await diagnosticsOf(input.text(), input.format), [unknown('cpu', 1, 'toString')], input.fileName);
  });

  it('every placement of every name gets its ordinary diagnostic', async () => {
    for (const placement of PLACEMENTS)
      for (const name of PROTOTYPE_KEYS)
        assertOrdinary(
          await diagnosticsOf(textOf(createBody(placement, name), 'yaml'), 'yaml'),
          placement.expected(name),
          `${name} as ${placement.where}`,
        );
  });

  it('hover on a value named after a member shows the field, not the member', async () => {
    const uri = `file:///workspace/proto-hover.endpoint.yaml`;
    await client.open(uri, 'name: x\nflashboot: toString\ntype: constructor\n');
    for (const line of [1, 2]) {
      const hover = await within(5_000, 'hover', client.hover(uri, line, 13));
      assert.doesNotMatch(JSON.stringify(hover), LEAK);
    }
    await client.close(uri);
  });
});

describe('fast-check: random specs keyed with member names', () => {
  it('the engine reports each member-named key, in JSON and YAML, and never throws', () => {
    fuzz(
      fc.property(hostileSpec, (spec) => {
        for (const format of ['json', 'yaml'] as const) {
          const { diagnostics } = checkSpecText(textOf(spec, format), format);
          count({ inputsTried: 1 });
          if (!isLegacy(spec))
            assertOrdinary(
              reported(diagnostics),
              memberKeySpots(spec).map((path) => unknown(...path)),
              JSON.stringify(spec).slice(0, 300),
            );
        }
        assertPrototypeIntact();
      }),
      { numRuns: 200 },
    );
  });
});
