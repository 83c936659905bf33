/**
 * The shared protocol module: which files are specs, which format they are in, the custom messages
 * over a real JSON-RPC connection, and the extension manifest repeating the same patterns as data.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { glob } from 'tinyglobby';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  CATALOG_STATUS_NOTIFICATION,
  isSpecFile,
  JSON_SPEC_FILE_GLOB,
  onNotification,
  onRequest,
  REFRESH_CATALOG_REQUEST,
  sendNotification,
  sendRequest,
  SPEC_DOCUMENT_PATTERNS,
  SPEC_FILE_GLOB,
  SPEC_FILE_PATTERN,
  SPEC_FILE_SUFFIXES,
  specFileName,
  specFormatOf,
  splitSpecFileName,
  YAML_SPEC_FILE_GLOB,
  type CatalogStatus,
} from '../../core/protocol';
import { withInitializationOptions } from '../../server/session';
import { REPO_ROOT } from '../support/lspClient';

describe('spec files', () => {
  it('are recognised by path or URI, whatever the case of the suffix', () => {
    for (const name of [
      '/work/a.endpoint.yaml',
      'b.endpoint.yml',
      'C:\\specs\\c.endpoint.json',
      'file:///w/d.ENDPOINT.YAML',
      'file:///w/with%20space.endpoint.json',
    ]) {
      assert.equal(isSpecFile(name), true, name);
    }
    for (const name of ['a.yaml', 'endpoint.yaml', 'a.request.json', 'a.endpoint.yaml.bak', 'a.endpoint.toml', 'a-endpoint.yaml']) {
      assert.equal(isSpecFile(name), false, name);
    }
  });

  it('are JSON when named so or when the editor says so, YAML otherwise', () => {
    assert.equal(specFormatOf('a.endpoint.json'), 'json');
    assert.equal(specFormatOf('file:///a.endpoint.JSON'), 'json');
    assert.equal(specFormatOf('a.endpoint.yaml'), 'yaml');
    assert.equal(specFormatOf('a.endpoint.yml'), 'yaml');
    assert.equal(specFormatOf('untitled:Untitled-1', 'json'), 'json');
    assert.equal(specFormatOf('a.endpoint.yaml', 'json'), 'json');
    assert.equal(specFormatOf('a.endpoint.json', 'yaml'), 'json');
  });

  it('split before their suffix, both parts as written', () => {
    assert.deepEqual(splitSpecFileName('specs/sdxl.prod.endpoint.YAML'), { stem: 'specs/sdxl.prod', suffix: '.endpoint.YAML' });
    assert.deepEqual(splitSpecFileName('a.endpoint.json'), { stem: 'a', suffix: '.endpoint.json' });
    for (const name of ['a.yaml', 'a.endpoint.yaml.bak']) assert.equal(splitSpecFileName(name), undefined, name);
  });

  it('get new names the pattern recognises, in the format asked for', () => {
    assert.equal(specFileName('worker'), 'worker.endpoint.yaml');
    assert.equal(specFileName('worker', 'json'), 'worker.endpoint.json');
    for (const format of ['yaml', 'json'] as const) assert.equal(specFormatOf(specFileName('x', format)), format);
    for (const suffix of SPEC_FILE_SUFFIXES) assert.ok(isSpecFile(`x${suffix}`), suffix);
  });

  it('are written the same way in the regex, the suffixes and the globs', () => {
    assert.deepEqual(SPEC_FILE_SUFFIXES, ['.endpoint.yaml', '.endpoint.yml', '.endpoint.json']);
    assert.deepEqual(
      expandBraces(SPEC_FILE_GLOB),
      SPEC_FILE_SUFFIXES.map((suffix) => `**/*${suffix}`),
    );
    assert.deepEqual(
      SPEC_DOCUMENT_PATTERNS.flatMap(({ pattern }) => expandBraces(pattern)),
      expandBraces(SPEC_FILE_GLOB),
      'the per-language globs together cover exactly the spec files',
    );
    assert.deepEqual(
      SPEC_DOCUMENT_PATTERNS.map(({ language, format, pattern }) => [language, format, pattern]),
      [
        ['endpoint-yaml', 'yaml', YAML_SPEC_FILE_GLOB],
        ['endpoint-json', 'json', JSON_SPEC_FILE_GLOB],
      ],
    );
    for (const { language, format, pattern } of SPEC_DOCUMENT_PATTERNS) {
      for (const name of expandBraces(pattern)) {
        assert.equal(specFormatOf(name.replace('**/*', 'x')), format, name);
        assert.equal(specFormatOf('untitled:Untitled-1', language), format, language);
      }
    }
  });

  describe('found on disk by the glob', () => {
    let root: string;
    before(() => {
      root = mkdtempSync(join(tmpdir(), 'es-protocol-'));
    });
    after(() => {
      rmSync(root, { recursive: true, force: true });
    });

    it('are exactly the files the pattern recognises', async () => {
      const names = [
        'a.endpoint.yaml',
        'deep/b.endpoint.yml',
        'deep/er/c.endpoint.json',
        'd.request.json',
        'e.yaml',
        'f.endpoint.yaml.bak',
      ];
      for (const name of names) {
        mkdirSync(dirname(join(root, name)), { recursive: true });
        writeFileSync(join(root, name), '');
      }
      const found = (await glob(SPEC_FILE_GLOB, { cwd: root })).sort();
      assert.deepEqual(found, names.filter((name) => isSpecFile(name)).sort());
      assert.equal(found.length, 3);
    });
  });
});

describe('the extension manifest', () => {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    activationEvents: string[];
    engines: { vscode: string };
    contributes: {
      languages: { id: string; filenamePatterns?: string[] }[];
      grammars: { language?: string; path: string }[];
      jsonLanguageParticipants?: { languageId: string }[];
      languageModelTools?: unknown[];
    };
  };
  const whenPattern = /resourceFilename =~ (\/.+?\/[a-z]*)(?=\s|$)/g;
  const fileMatches = new Set([SPEC_FILE_GLOB, YAML_SPEC_FILE_GLOB, JSON_SPEC_FILE_GLOB].flatMap((g) => [g, g.replace(/^\*\*\//, '')]));

  it('activates on the module’s glob', () => {
    assert.ok(manifest.activationEvents.includes(`workspaceContains:${SPEC_FILE_GLOB}`), JSON.stringify(manifest.activationEvents));
  });

  it('activates on opening a spec through a language of its own, not on every YAML or JSON file', () => {
    for (const event of ['onLanguage:yaml', 'onLanguage:json', '*']) assert.ok(!manifest.activationEvents.includes(event), event);
    // Since VS Code 1.74 a contributed language activates its extension without an explicit onLanguage event.
    const [major, minor] = (/\d+\.\d+/.exec(manifest.engines.vscode)?.[0] ?? '0.0').split('.').map(Number);
    assert.ok(major > 1 || minor >= 74, manifest.engines.vscode);
    for (const { language, pattern } of SPEC_DOCUMENT_PATTERNS) {
      const contributed = manifest.contributes.languages.find((l) => l.id === language);
      assert.deepEqual(contributed?.filenamePatterns, [pattern.replace(/^\*\*\//, '')], language);
      assert.ok(
        manifest.contributes.grammars.some((g) => g.language === language && existsSync(join(REPO_ROOT, g.path))),
        `${language} has a grammar`,
      );
    }
    // JSON specs keep the editor's JSON features (formatting, outline) through the JSON language server.
    assert.deepEqual(manifest.contributes.jsonLanguageParticipants, [{ languageId: 'endpoint-json' }]);
  });

  it('uses the module’s regex, flags included, in every `when` clause about spec files', () => {
    const regexes = stringsIn(manifest.contributes).flatMap((text) => [...text.matchAll(whenPattern)].map((m) => m[1]));
    const aboutSpecs = regexes.filter((source) => source.includes('endpoint'));
    assert.ok(aboutSpecs.length >= 3, `expected the deploy commands' when clauses, found ${JSON.stringify(regexes)}`);
    for (const literal of aboutSpecs) assert.equal(literal, String(SPEC_FILE_PATTERN));
  });

  it('names spec files nowhere in a form the module does not define', () => {
    // Any glob or regex about spec files (jsonValidation, yamlValidation, a new menu, ...) must be one of the module's.
    // The language-model tools' descriptions are prose for a model, not patterns any editor matches.
    const { languageModelTools: _prose, ...matched } = manifest.contributes;
    const mentions = [...manifest.activationEvents, ...stringsIn(matched)].filter(
      (text) => text.includes('.endpoint.') || text.includes('\\.endpoint\\.'),
    );
    assert.ok(mentions.length > 0);
    for (const text of mentions) {
      const known =
        text === `workspaceContains:${SPEC_FILE_GLOB}` ||
        fileMatches.has(text) ||
        [...text.matchAll(whenPattern)].some((m) => m[1] === String(SPEC_FILE_PATTERN));
      assert.ok(known, `package.json names spec files as ${JSON.stringify(text)}, which core/protocol does not define`);
    }
  });
});

describe('custom messages over JSON-RPC', () => {
  let server: MessageConnection;
  let client: MessageConnection;
  before(() => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    server = createMessageConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
    client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
    server.listen();
    client.listen();
  });
  after(() => {
    server.dispose();
    client.dispose();
  });

  it('use the method names the server and every client have always used', () => {
    assert.equal(CATALOG_STATUS_NOTIFICATION.method, 'endpointStudio/catalogStatus');
    assert.equal(REFRESH_CATALOG_REQUEST.method, 'endpointStudio/refreshCatalog');
  });

  it('carry the catalog status from server to client', async () => {
    const status: CatalogStatus = { state: 'cached', fetchedAt: '2025-06-01T08:00:00.000Z', error: 'offline' };
    const received = new Promise<CatalogStatus>((resolve) => {
      onNotification(client, CATALOG_STATUS_NOTIFICATION, resolve);
    });
    await sendNotification(server, CATALOG_STATUS_NOTIFICATION, status);
    assert.deepEqual(await received, status);
  });

  it('answer a refresh with the new status', async () => {
    let asked = 0;
    onRequest(server, REFRESH_CATALOG_REQUEST, () => {
      asked++;
      return Promise.resolve<CatalogStatus>({ state: 'live', fetchedAt: '2025-06-01T09:00:00.000Z' });
    });
    assert.deepEqual(await sendRequest(client, REFRESH_CATALOG_REQUEST), { state: 'live', fetchedAt: '2025-06-01T09:00:00.000Z' });
    assert.equal(asked, 1);
  });
});

describe('initialization options', () => {
  const defaults = { debounceMs: 150 };

  it('override the defaults when they have the right type', () => {
    assert.deepEqual(withInitializationOptions(defaults, { debounceMs: 0, catalogFile: '/c.json', cacheDir: '/cache' }), {
      debounceMs: 0,
      catalogFile: '/c.json',
      cacheDir: '/cache',
    });
  });

  it('are ignored when missing or of the wrong type', () => {
    for (const sent of [undefined, null, 'fast', 42, {}, { debounceMs: -1 }, { debounceMs: '10', catalogFile: 3, cacheDir: false }]) {
      assert.deepEqual(withInitializationOptions(defaults, sent), defaults, JSON.stringify(sent));
    }
  });

  it('switch each kind of inlay hint, a kind left out or of the wrong type keeping its value', () => {
    assert.deepEqual(withInitializationOptions(defaults, { inlayHints: { cost: false } }).inlayHints, {
      defaults: true,
      cost: false,
      environments: true,
    });
    const off = { ...defaults, inlayHints: { defaults: false, cost: false, environments: false } };
    assert.deepEqual(withInitializationOptions(off, { inlayHints: { defaults: true, cost: 'no', environments: true } }).inlayHints, {
      defaults: true,
      cost: false,
      environments: true,
    });
    for (const inlayHints of [null, 'off', false]) assert.deepEqual(withInitializationOptions(off, { inlayHints }), off);
  });
});

/** `**\/*.endpoint.{yaml,yml}` → one glob per alternative; globs here have at most one brace group. */
function expandBraces(pattern: string): string[] {
  const group = /\{([^}]*)\}/.exec(pattern);
  if (!group) return [pattern];
  return group[1].split(',').map((alternative) => pattern.replace(group[0], alternative));
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}
