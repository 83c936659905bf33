/**
 * The security rules that live in the manifest and in the source rather than in behaviour a
 * process shows: settings a workspace cannot use to redirect the key, restricted mode in untrusted
 * workspaces, webviews under a strict CSP with a nonce, no inline handlers and no remote resources,
 * every message from a webview parsed before use (fast-check feeds the parsers anything), and
 * destructive actions confirmed. The behaviour behind them runs in the e2e suite.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { parseWebviewMessage as parseBillingMessage } from '../../client/billing/messages';
import { parseWebviewMessage as parseLogsMessage } from '../../client/logs/messages';
import { count, REPO_ROOT, reportFigures } from './support';

after(() => {
  reportFigures(__filename);
});

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  contributes: {
    configuration:
      | { properties: Record<string, { scope?: string; format?: string }> }
      | { properties: Record<string, { scope?: string; format?: string }> }[];
  };
  capabilities: { untrustedWorkspaces: { supported: string | boolean; restrictedConfigurations?: string[] } };
};
const settings = Object.assign({}, ...[manifest.contributes.configuration].flat().map((c) => c.properties)) as Record<
  string,
  { scope?: string; format?: string }
>;

function sources(folder: string, pattern: RegExp): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sources(path, pattern);
    return pattern.test(name) ? [path] : [];
  });
}
const read = (path: string): string => readFileSync(path, 'utf8');

describe('settings and workspace trust', () => {
  it('the API URLs are machine-scoped, so a cloned workspace cannot send the key elsewhere', () => {
    const urlSettings = Object.keys(settings).filter((name) => /url/i.test(name) || settings[name].format === 'uri');
    assert.deepEqual(urlSettings.sort(), ['endpointStudio.api.jobsUrl', 'endpointStudio.api.url']);
    for (const name of urlSettings)
      assert.ok(['machine', 'application'].includes(settings[name].scope ?? ''), `${name} has scope ${settings[name].scope}`);
  });

  it('no setting holds a key, token or password (keys live in SecretStorage only)', () => {
    assert.deepEqual(
      Object.keys(settings).filter((name) => /key|token|secret|password|credential/i.test(name)),
      [],
    );
  });

  it('untrusted workspaces get limited support with the URL settings restricted', () => {
    const trust = manifest.capabilities.untrustedWorkspaces;
    assert.equal(trust.supported, 'limited');
    assert.deepEqual([...(trust.restrictedConfigurations ?? [])].sort(), ['endpointStudio.api.jobsUrl', 'endpointStudio.api.url']);
  });

  it('no client is built, and the server gets no key, in an untrusted workspace', () => {
    // The session is the only place an API client is created for the extension's features.
    const creators = sources(join(REPO_ROOT, 'client'), /\.ts$/).filter((f) => /createApiClient\(/.test(read(f)));
    assert.deepEqual(creators.map((f) => relative(REPO_ROOT, f)).sort(), ['client/auth/commands.ts', 'client/auth/session.ts']);
    // Sign-in checks a typed key against the service: not in Restricted Mode.
    const commands = read(join(REPO_ROOT, 'client/auth/commands.ts'));
    const signIn = commands.slice(commands.indexOf('const signIn = async'), commands.indexOf('checkKey(urls.apiUrl'));
    assert.match(signIn, /^const signIn = async \(\): Promise<void> => \{\s*\/\/[^\n]*\n\s*if \(!vscode\.workspace\.isTrusted\) return/);
    assert.match(
      read(join(REPO_ROOT, 'client/auth/session.ts')),
      /const profile = vscode\.workspace\.isTrusted \? await this\.profiles\.resolveActive\(\) : undefined;/,
    );
    // The key reaches the language server through its environment only, and only with a profile.
    const environment = read(join(REPO_ROOT, 'client/serverEnvironment.ts'));
    assert.match(environment, /for \(const name of \['ENDPOINT_STUDIO_API_KEY', 'RUNPOD_API_KEY'/);
    assert.match(environment, /if \(profile\) \{[^}]*ENDPOINT_STUDIO_API_KEY = profile\.apiKey/);
  });
});

describe('webviews', () => {
  const shell = join(REPO_ROOT, 'client/webviewPage.ts');
  const panels = sources(join(REPO_ROOT, 'client'), /\.ts$/).filter((f) => f !== shell && read(f).includes('webviewHtml('));

  it('are found (the logs view and the billing panel), and only the shared shell writes a page head', () => {
    assert.deepEqual(panels.map((f) => relative(REPO_ROOT, f)).sort(), ['client/billing/panel.ts', 'client/logs/panel.ts']);
    const heads = sources(join(REPO_ROOT, 'client'), /\.ts$/).filter((f) => read(f).includes('Content-Security-Policy'));
    assert.deepEqual(
      heads.map((f) => relative(REPO_ROOT, f)),
      ['client/webviewPage.ts'],
    );
  });

  it('client/webviewPage.ts: strict CSP with a fresh nonce, the one script carrying it, no remote resources', () => {
    const source = read(shell);
    const csp = /const csp = `([^`]*)`/.exec(source)?.[1] ?? '';
    assert.match(csp, /^default-src 'none';/);
    assert.match(csp, /script-src 'nonce-\$\{nonce\}'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*|https?:/);
    assert.match(source, /const nonce = randomBytes\(16\)\.toString\('base64'\);/);
    const template = source.slice(source.indexOf('<!DOCTYPE html>'), source.indexOf('</html>'));
    assert.doesNotMatch(template, /\son[a-z]+\s*=/i, 'no inline event handlers');
    assert.doesNotMatch(template, /(src|href)="https?:|url\(https?:|\/\/cdn/i, 'no remote resources');
    const scripts = template.match(/<script[^>]*>/g) ?? [];
    assert.equal(scripts.length, 1);
    for (const script of scripts) assert.match(script, /nonce="\$\{nonce\}"/);
  });

  for (const panel of panels) {
    const name = relative(REPO_ROOT, panel);
    it(`${name}: markup with no inline code or remote resources, messages parsed`, () => {
      const source = read(panel);
      const body = /const BODY = `([^`]*)`/.exec(source)?.[1] ?? '';
      assert.ok(body.length > 100);
      assert.doesNotMatch(body, /<script/i, 'scripts come only from the shell');
      assert.doesNotMatch(body, /\son[a-z]+\s*=/i, 'no inline event handlers');
      assert.doesNotMatch(body, /(src|href)="https?:|url\(https?:|\/\/cdn/i, 'no remote resources');
      assert.match(source, /enableScripts: true, enableCommandUris: false, localResourceRoots: \[media\]/);
      // What the webview sends is parsed before anything acts on it.
      assert.match(source, /onDidReceiveMessage\(\(raw: unknown\) => this\.receive\(raw\)\)/);
      assert.match(source, /parseWebviewMessage\(raw\)/);
    });
  }

  it('webview scripts build no HTML from data and run no strings as code', () => {
    const scripts = [...sources(join(REPO_ROOT, 'media'), /\.js$/), join(REPO_ROOT, 'client/billing/view.ts')];
    for (const script of scripts) {
      const text = read(script);
      assert.doesNotMatch(
        text,
        /\.innerHTML\s*=|insertAdjacentHTML|outerHTML\s*=|document\.write|\beval\(|new Function\(/,
        relative(REPO_ROOT, script),
      );
      assert.doesNotMatch(text, /https?:\/\/(?!www\.w3\.org\/2000\/svg)/, `${relative(REPO_ROOT, script)} loads nothing remote`);
    }
  });

  it('fast-check: the message parsers take anything and return only exact known messages', () => {
    const hostile = fc.oneof(
      fc.anything({ withNullPrototype: true, withObjectString: true }),
      fc.record(
        {
          type: fc.constantFrom(
            'ready',
            'pause',
            'source',
            'tail',
            'filter',
            'clear',
            'save',
            'query',
            'exportCsv',
            '__proto__',
            'constructor',
          ),
          paused: fc.anything(),
          source: fc.anything(),
          tail: fc.anything(),
          text: fc.anything(),
          regex: fc.anything(),
          query: fc.anything(),
        },
        { requiredKeys: ['type'] },
      ),
      fc.constant(JSON.parse('{"type": "filter", "text": "x", "regex": false, "__proto__": {"polluted": true}}') as unknown),
      fc.string({ maxLength: 2000 }).map((text) => ({ type: 'filter', text, regex: true })),
    );
    fc.assert(
      fc.property(hostile, (raw) => {
        count({ inputsTried: 2 });
        const logs = parseLogsMessage(raw);
        if (logs !== undefined) {
          assert.ok(['ready', 'pause', 'source', 'tail', 'filter', 'clear', 'save'].includes(logs.type));
          if (logs.type === 'filter')
            assert.ok(typeof logs.text === 'string' && logs.text.length <= 500 && typeof logs.regex === 'boolean');
          if (logs.type === 'source') assert.ok(['all', 'container', 'system'].includes(logs.source));
        }
        const billing = parseBillingMessage(raw);
        if (billing !== undefined) assert.ok(['ready', 'query', 'exportCsv'].includes(billing.type));
        assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype was polluted');
      }),
      { numRuns: 400 },
    );
  });
});

describe('destructive actions', () => {
  it('deleting an endpoint needs its name typed; purging a queue needs a modal confirmation', () => {
    const explorer = read(join(REPO_ROOT, 'client/explorer/endpointCommands.ts'));
    const deleting = explorer.slice(explorer.indexOf('async function deleteEndpoint'), explorer.indexOf('api.serverless.delete(id)'));
    assert.ok(deleting.length > 0, 'the delete command exists');
    assert.match(deleting, /validateInput: \(value\) => \(value === name \? undefined/);
    assert.match(deleting, /if \(typed !== name\) return/);
    const jobs = read(join(REPO_ROOT, 'client/jobs/health.ts'));
    const purging = jobs.slice(jobs.indexOf('async purge('), jobs.indexOf('api.jobs.purgeQueue('));
    assert.match(purging, /showWarningMessage\([\s\S]*\{ modal: true/);
    assert.match(purging, /if \(choice !== 'Purge Queue'\) return;/);
    // The service calls that destroy are made only from those two places in the extension.
    const callers = (pattern: RegExp) =>
      sources(join(REPO_ROOT, 'client'), /\.ts$/)
        .filter((f) => pattern.test(read(f)))
        .map((f) => relative(REPO_ROOT, f));
    assert.deepEqual(callers(/serverless\.delete\(/), ['client/explorer/endpointCommands.ts']);
    assert.deepEqual(callers(/jobs\.purgeQueue\(/), ['client/jobs/health.ts']);
  });
});
