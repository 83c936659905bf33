/**
 * `validate --format github` and `--format sarif` as CI reads them, from the bundled CLI: each workflow command
 * is parsed back the way the runner unescapes it and must say what the JSON output says (file relative to the
 * current directory, 1-based positions, severity, code, message), whatever a message or a file name holds;
 * the SARIF log must meet SARIF 2.1.0's requirements (checked with Ajv against the schema below) and name
 * every code as a rule described in docs/rules.md's words, with a link to its section there.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import Ajv from 'ajv';
import type { Log } from 'sarif';
import { escapeData, escapeProperty } from '../../cli/githubFormat';
import { everyDocumentedCode } from '../../core/policy';
import { REPO_ROOT } from '../support/lspClient';
import { SARIF_2_1_0_REQUIREMENTS } from './sarifRequirements';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');

const VALID =
  'name: demo\ntype: QUEUE\nimage: myorg/worker:1.0.0\ngpu:\n  pools: [ADA_24]\nscaling:\n  type: QUEUE_DELAY\n  queueDelay: 4\n';
/** An error, a warning, and an unknown key whose name puts %, a newline, a comma and a colon into the message. */
const BROKEN = `${VALID.replace('queueDelay: 4', 'queueDelay: 0.1')}timeout: 300\n"50%,\\nx: y": 1\n`;

interface JsonEntry {
  file: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: string;
  code: string;
  message: string;
}

interface Annotation {
  command: string;
  properties: Record<string, string>;
  message: string;
}

/** The runner's reading of a workflow command line (actions/runner's ActionCommand.TryParseV2). */
function parseAnnotation(line: string): Annotation | undefined {
  const match = /^::(\w+) ([^:]*)::(.*)$/.exec(line);
  if (!match) return undefined;
  const unescape = (text: string): string =>
    text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
  const properties = Object.fromEntries(
    match[2].split(',').map((pair) => {
      const [key, ...value] = pair.split('=');
      return [key, unescape(value.join('='))];
    }),
  );
  return { command: match[1], properties, message: unescape(match[3]) };
}

describe('endpoint-studio validate --format github and --format sarif', () => {
  let dir: string;
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [CLI, 'validate', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env } });

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'es-validate-formats-'));
    mkdirSync(join(dir, 'specs'));
    writeFileSync(join(dir, 'specs', 'good.endpoint.yaml'), VALID);
    writeFileSync(join(dir, 'specs', 'odd, name: 100%.endpoint.yaml'), BROKEN);
    writeFileSync(join(dir, 'specs', 'warn.endpoint.yaml'), `${VALID}timeout: 300\n`);
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('escapes data and properties as the runner unescapes them', () => {
    assert.equal(escapeData('100%\r\nnext, a: b'), '100%25%0D%0Anext, a: b');
    assert.equal(escapeProperty('100%\r\nnext, a: b'), '100%25%0D%0Anext%2C a%3A b');
    for (const text of ['a,b:c%d\ne', '%0A', '::error::forged']) {
      assert.equal(parseAnnotation(`::notice title=${escapeProperty(text)}::${escapeData(text)}`)?.properties.title, text);
      assert.equal(parseAnnotation(`::notice title=x::${escapeData(text)}`)?.message, text);
    }
  });

  it('writes one annotation per problem, saying what the JSON output says, with the same exit status', () => {
    const json = run(['--format', 'json', 'specs']);
    const github = run(['--format', 'github', 'specs']);
    assert.equal(json.status, 1, json.stderr);
    assert.equal(github.status, 1, github.stderr);
    const entries = JSON.parse(json.stdout) as JsonEntry[];
    assert.deepEqual(
      entries.map((e) => [e.code, e.severity]),
      [
        ['out-of-range', 'error'],
        ['timeout-units', 'warning'],
        ['unknown-property', 'error'],
        ['timeout-units', 'warning'],
      ],
    );

    const lines = github.stdout.trimEnd().split('\n');
    assert.equal(lines.at(-1), '3 files checked: 2 errors, 2 warnings');
    const annotations = lines.slice(0, -1).map((line) => parseAnnotation(line));
    assert.equal(annotations.length, entries.length);
    annotations.forEach((annotation, index) => {
      const entry = entries[index];
      assert.ok(annotation, `not a workflow command: ${lines[index]}`);
      assert.equal(annotation.command, entry.severity);
      assert.deepEqual(annotation.properties, {
        file: entry.file,
        line: String(entry.range.start.line + 1),
        col: String(entry.range.start.character + 1),
        endLine: String(entry.range.end.line + 1),
        endColumn: String(entry.range.end.character + 1),
        title: entry.code,
      });
      assert.equal(annotation.message, entry.message);
    });
    const unknown = annotations.find((a) => a?.properties.title === 'unknown-property');
    assert.match(unknown?.message ?? '', /50%,\nx/, 'the message keeps its newline, comma and percent sign');
    assert.equal(unknown?.properties.file, 'specs/odd, name: 100%.endpoint.yaml');

    const warningsOnly = run(['--format', 'github', 'specs/warn.endpoint.yaml']);
    assert.equal(warningsOnly.status, 0);
    assert.match(
      warningsOnly.stdout,
      /^::warning file=specs\/warn\.endpoint\.yaml,line=9,col=10,endLine=9,endColumn=13,title=timeout-units::/,
    );
  });

  it('annotates a file it cannot read, and says once when the catalog checks were skipped', () => {
    const cacheDir = join(dir, 'empty-cache');
    const result = run(['--format', 'github', '--offline', 'specs/good.endpoint.yaml', 'missing.endpoint.yaml'], {
      ENDPOINT_STUDIO_API_KEY: 'es_test_key',
      ENDPOINT_STUDIO_CACHE_DIR: cacheDir,
    });
    assert.equal(result.status, 2);
    const annotations = result.stdout.split('\n').flatMap((line) => parseAnnotation(line) ?? []);
    assert.deepEqual(
      annotations.map((a) => [a.command, a.properties.file, a.properties.title]),
      [
        ['error', 'missing.endpoint.yaml', 'file-unreadable'],
        ['notice', undefined, 'catalog-skipped'],
      ],
    );
    assert.match(annotations[1].message, /--offline: the service was not asked; no cached catalog/);
    assert.match(result.stderr, /cannot read missing\.endpoint\.yaml: no such file/);
  });

  it('writes a SARIF 2.1.0 log: rules from docs/rules.md, results with regions, paths relative to the current directory', () => {
    const json = run(['--format', 'json', 'specs']);
    const sarif = run(['--format', 'sarif', 'specs']);
    assert.equal(sarif.status, 1, sarif.stderr);
    assert.equal(sarif.stderr, '');
    const log = JSON.parse(sarif.stdout) as Log;
    const validate = new Ajv({ allErrors: true }).compile(SARIF_2_1_0_REQUIREMENTS);
    assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));

    const [run0] = log.runs;
    const rules = run0.tool.driver.rules ?? [];
    const page = readFileSync(join(REPO_ROOT, 'docs', 'rules.md'), 'utf8');
    const reportable = everyDocumentedCode().filter((code) => code.kind !== 'editor');
    assert.deepEqual(
      rules.map((rule) => rule.id),
      reportable.map((code) => code.code),
    );
    for (const [index, rule] of rules.entries()) {
      assert.equal(rule.shortDescription?.text, reportable[index].description);
      const help = new URL(rule.helpUri ?? '');
      assert.match(help.pathname, /\/docs\/rules\.md$/);
      assert.ok(page.includes(`\n### ${help.hash.slice(1)}\n`), `docs/rules.md has no section ${help.hash}`);
    }
    assert.deepEqual(run0.originalUriBaseIds, { '%SRCROOT%': { uri: pathToFileURL(`${dir}/`).href } });

    const entries = JSON.parse(json.stdout) as JsonEntry[];
    assert.equal(run0.results?.length, entries.length);
    run0.results.forEach((result, index) => {
      const entry = entries[index];
      assert.equal(result.ruleId, entry.code);
      assert.equal(rules[result.ruleIndex ?? -1].id, entry.code);
      assert.equal(result.level, entry.severity === 'information' ? 'note' : entry.severity);
      assert.equal(result.message.text, entry.message);
      const physical = result.locations?.[0].physicalLocation;
      assert.equal(physical?.artifactLocation?.uriBaseId, '%SRCROOT%');
      assert.equal(decodeURIComponent(physical.artifactLocation.uri ?? ''), entry.file);
      assert.deepEqual(physical.region, {
        startLine: entry.range.start.line + 1,
        startColumn: entry.range.start.character + 1,
        endLine: entry.range.end.line + 1,
        endColumn: entry.range.end.character + 1,
      });
      const uri = new URL(physical.artifactLocation.uri ?? '', run0.originalUriBaseIds?.['%SRCROOT%'].uri);
      assert.equal(readFileSync(uri, 'utf8').length > 0, true, `${uri.href} is the checked file`);
    });
    assert.deepEqual(run0.invocations, [{ executionSuccessful: true }]);
  });

  it('tells an unreadable file and skipped catalog checks as notifications of the run, not as results', () => {
    const result = run(['--format', 'sarif', '--offline', 'specs/good.endpoint.yaml', 'missing.endpoint.yaml'], {
      ENDPOINT_STUDIO_API_KEY: 'es_test_key',
      ENDPOINT_STUDIO_CACHE_DIR: join(dir, 'empty-cache'),
    });
    assert.equal(result.status, 2);
    const log = JSON.parse(result.stdout) as Log;
    assert.ok(new Ajv().validate(SARIF_2_1_0_REQUIREMENTS, log));
    const [run0] = log.runs;
    assert.deepEqual(run0.results, []);
    const invocation = run0.invocations?.[0];
    assert.equal(invocation?.executionSuccessful, false);
    assert.deepEqual(
      invocation.toolExecutionNotifications?.map((n) => [
        n.level,
        n.descriptor?.id,
        n.locations?.[0].physicalLocation?.artifactLocation?.uri,
      ]),
      [
        ['error', 'file-unreadable', 'missing.endpoint.yaml'],
        ['note', 'catalog-skipped', undefined],
      ],
    );
  });
});
