/**
 * The key never leaks: the emulator CLI, the CLI's network commands and the language server run
 * as processes with a known key, on success and on every kind of failure (wrong key, 5xx, 429,
 * unreachable service, hostile specs), and every byte they print, every LSP message they send,
 * every file they write (state, cache, bindings) and every request line the service receives is
 * searched for it. The key may travel only in the Authorization header.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LspClient } from '../support/lspClient';
import { VALID_SPEC } from './corpus';
import { CLI, count, reportFigures, SECRET_KEY, spawnEmulator, type EmulatorProcess } from './support';
import { countingProxy, type CountingProxy } from './wire';

/** Everything produced, with where it came from, swept at the end. */
const swept: { where: string; text: string }[] = [];
const sweep = (where: string, text: string): void => void swept.push({ where, text });

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function runCli(args: string[], env: Record<string, string>, cwd: string): Promise<{ status: number | null; output: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((resolve) =>
    child.on('close', (status) => {
      resolve({ status, output });
    }),
  );
}

let work: string;
let emu: EmulatorProcess;
let proxy: CountingProxy;
before(async () => {
  work = mkdtempSync(join(tmpdir(), 'es-reliability-secrets-'));
  mkdirSync(join(work, 'project', '.git'), { recursive: true });
  emu = await spawnEmulator(['--state', join(work, 'state.json'), '--api-key', SECRET_KEY, '--rate-limit', '100000,1000000,10000000']);
  proxy = await countingProxy(emu.restUrl);
});
after(async () => {
  await proxy.close();
  await emu.stop();
  rmSync(work, { recursive: true, force: true });
  reportFigures(__filename);
});

const faults = (body: unknown) =>
  fetch(`${emu.restUrl}/__emulator/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the CLI with the key in its environment', () => {
  it('plan, deploy, pull and billing, through success, 401, 5xx, 429 and an unreachable service', async () => {
    const project = join(work, 'project');
    const specFile = join(project, 'api.endpoint.yaml');
    writeFileSync(specFile, VALID_SPEC);
    writeFileSync(join(project, 'broken.endpoint.yaml'), `${VALID_SPEC}workers: {max: .inf}\n`);
    const env = (url: string, key = SECRET_KEY) => ({
      ENDPOINT_STUDIO_API_URL: url,
      ENDPOINT_STUDIO_JOBS_URL: emu.jobsUrl,
      ENDPOINT_STUDIO_API_KEY: key,
      RUNPOD_API_KEY: '',
    });
    const nothingFirst = (): Promise<unknown> => Promise.resolve();
    const runs: [string, string[], Record<string, string>, () => Promise<unknown>][] = [
      ['plan', ['plan', specFile], env(proxy.url), nothingFirst],
      ['deploy', ['deploy', '--yes', specFile], env(proxy.url), nothingFirst],
      ['deploy again (update path)', ['deploy', '--yes', specFile], env(proxy.url), nothingFirst],
      ['pull of a missing id', ['pull', 'no-such-endpoint'], env(proxy.url), nothingFirst],
      ['billing', ['billing', 'serverless', '--output', 'json'], env(proxy.url), nothingFirst],
      ['a 503 on every request', ['plan', specFile], env(proxy.url), () => faults({ status5xx: 503, count: 20 })],
      ['a 429 storm', ['deploy', '--yes', specFile.replace('api', 'broken')], env(proxy.url), () => faults({ force429: true, count: 20 })],
      ['a 429 storm on plan', ['plan', specFile], env(proxy.url), () => faults({ force429: true, count: 20 })],
      ['dropped connections', ['plan', specFile], env(proxy.url), () => faults({ dropConnection: true, count: 20 })],
      ['a key the service rejects', ['plan', specFile], env(proxy.url, `${SECRET_KEY}_revoked`), nothingFirst],
      ['an unreachable service', ['plan', specFile], env('http://127.0.0.1:1'), nothingFirst],
      ['a URL with the key in its query', ['plan', specFile], env(`${proxy.url}/?api_key=${SECRET_KEY}`), nothingFirst],
    ];
    for (const [label, args, environment, prepare] of runs) {
      await prepare();
      const result = await runCli(args, environment, project);
      await fetch(`${emu.restUrl}/__emulator/faults`, { method: 'DELETE' });
      count({ inputsTried: 1 });
      sweep(`CLI ${label} (exit ${result.status})`, result.output);
      assert.ok(result.status !== null && result.status <= 3, `${label}: exit ${result.status}\n${result.output}`);
      assert.doesNotMatch(result.output, /^\s+at .+:\d+:\d+\)?$/m, `${label}: a stack trace\n${result.output}`);
      // The CLI says when it waits out a 429 rather than pausing silently.
      if (label === 'a 429 storm on plan') assert.match(result.output, /rate limited on GET \/v2\/\S+; retrying in 1s/);
    }
    for (const file of filesUnder(project)) sweep(`file ${file}`, readFileSync(file, 'utf8'));
  });
});

describe('the language server with the key in its environment', () => {
  it('fetches the catalog (and fails to), checks and completes; every byte it sends is kept', async () => {
    for (const [label, key] of [
      ['accepted key', SECRET_KEY],
      ['rejected key', `${SECRET_KEY}_revoked`],
    ]) {
      const cache = join(work, `cache-${label.split(' ')[0]}`);
      const client = await LspClient.start({
        pull: true,
        env: {
          ENDPOINT_STUDIO_API_URL: proxy.url,
          ENDPOINT_STUDIO_JOBS_URL: emu.jobsUrl,
          ENDPOINT_STUDIO_API_KEY: key,
          ENDPOINT_STUDIO_CACHE_DIR: cache,
        },
      });
      let raw = '';
      const stdout = client.process.stdout;
      assert.ok(stdout, 'the server talks over stdio');
      stdout.on('data', (c: Buffer) => (raw += c.toString()));
      const logged: unknown[] = [];
      client.connection.onNotification('window/logMessage', (m: unknown) => void logged.push(m));
      try {
        // The accepted key reads the live catalog; the rejected one is told why, in words without the key.
        const status =
          key === SECRET_KEY
            ? await client.catalogStatus((s) => s.state === 'live', 15_000)
            : await client.catalogStatus((s) => s.error !== undefined, 15_000);
        if (key !== SECRET_KEY) assert.match(status.error ?? '', /401/, JSON.stringify(status));
        const uri = `file:///secrets/${label.split(' ')[0]}.endpoint.yaml`;
        await client.open(uri, `${VALID_SPEC}env:\n  TOKEN: ${SECRET_KEY.slice(0, 6)}\n`);
        assert.deepEqual(await client.pulledDiagnostics(uri), [], `${label}: the spec is valid`);
        // Pools come from the catalog: offered with the accepted key; with the rejected one the server still answers.
        const pools = (await client.completion(uri, 4, 11)).map((item) => item.label);
        if (key === SECRET_KEY) assert.ok(pools.includes('ADA_24'), `${label}: pools offered: ${pools.join(', ')}`);
        assert.ok(await client.hover(uri, 1, 8), `${label}: hover answers`);
        count({ inputsTried: 1 });
      } finally {
        await client.stop();
      }
      sweep(`LSP ${label}: stdout`, raw);
      sweep(`LSP ${label}: stderr`, client.stderr.join(''));
      sweep(`LSP ${label}: log messages`, JSON.stringify(logged));
      sweep(`LSP ${label}: catalog statuses`, JSON.stringify(client.catalogStatuses));
      try {
        for (const file of filesUnder(cache)) sweep(`LSP ${label}: cache ${file}`, readFileSync(file, 'utf8'));
      } catch {
        // No cache written (the rejected key): nothing to sweep.
      }
    }
  });
});

describe('the sweep', () => {
  it('finds the key in no output, message, file or request line', async () => {
    await emu.stop();
    sweep('emulator stdout and stderr', emu.output());
    sweep('emulator state file', readFileSync(join(work, 'state.json'), 'utf8'));
    sweep('request lines the service received', proxy.received.map((r) => `${r.method} ${r.path}`).join('\n'));
    assert.ok(proxy.received.length > 20, `requests were made: ${proxy.received.length}`);
    assert.ok(swept.length >= 25, `swept ${swept.length} outputs`);
    if (process.env.RELIABILITY_TRACE) for (const s of swept) console.log(`-- ${s.where}: ${s.text.slice(0, 300).replace(/\n/g, ' / ')}`);
    const leaks = swept.filter((s) => s.text.includes(SECRET_KEY) || s.text.includes(encodeURIComponent(SECRET_KEY)));
    assert.deepEqual(
      leaks.map((l) => `${l.where}: …${l.text.slice(Math.max(0, l.text.indexOf(SECRET_KEY) - 80), l.text.indexOf(SECRET_KEY) + 40)}…`),
      [],
    );
    console.log(
      `reliability [secrets]: ${swept.length} outputs swept (${Math.round(swept.reduce((n, s) => n + s.text.length, 0) / 1024)} KB), ${proxy.received.length} requests checked, key found 0 times`,
    );
    // Restarted for after(), which stops it again.
    emu = await spawnEmulator(['--api-key', SECRET_KEY]);
  });
});
