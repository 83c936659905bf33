/**
 * The security rules that are data (the manifest) or that no behaviour can show, plus the webview
 * message parsers fed anything by fast-check: settings a workspace cannot use to redirect the key,
 * limited support in untrusted workspaces, and inventories of where the source creates API clients,
 * writes webview pages and calls the service's destructive operations.
 *
 * The behaviour behind these rules is checked where it can be observed: in code-server, an untrusted
 * workspace refusing sign-in and starting the language server without the key
 * (test/e2e/restrictedMode.test.ts); the Logs and billing pages as served, with their CSP, nonce,
 * markup, ignored command links and malformed messages (test/e2e/logs.test.ts, billing.test.ts); delete
 * behind the typed name (test/e2e/explorer.test.ts) and purge behind a modal (test/e2e/jobs.test.ts);
 * and the page shell called with a real webview (test/integration/webviewPage.test.ts).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { fuzz } from '../support/fuzz';
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

  it('API clients are created only by the session and by the sign-in key check', () => {
    // A source inventory, kept because no behaviour shows it: a feature that built its own client would
    // bypass the trust check in the session, and only code some test happens to run could reveal that.
    // Restricted Mode as it behaves is checked in test/e2e/restrictedMode.test.ts.
    const creators = sources(join(REPO_ROOT, 'client'), /\.ts$/).filter((f) => /createApiClient\(/.test(read(f)));
    assert.deepEqual(creators.map((f) => relative(REPO_ROOT, f)).sort(), ['client/auth/commands.ts', 'client/auth/session.ts']);
  });
});

describe('webviews', () => {
  const shell = join(REPO_ROOT, 'client/webviewPage.ts');
  const panels = sources(join(REPO_ROOT, 'client'), /\.ts$/).filter((f) => f !== shell && read(f).includes('webviewHtml('));

  it('are found (the logs view and the billing panel), and only the shared shell writes a page head', () => {
    // A source inventory: a new webview that wrote its own page would have no behaviour to check until
    // someone wrote a test for it. The pages as served are checked in test/e2e (logs, billing).
    assert.deepEqual(panels.map((f) => relative(REPO_ROOT, f)).sort(), ['client/billing/panel.ts', 'client/logs/panel.ts']);
    const heads = sources(join(REPO_ROOT, 'client'), /\.ts$/).filter((f) => read(f).includes('Content-Security-Policy'));
    assert.deepEqual(
      heads.map((f) => relative(REPO_ROOT, f)),
      ['client/webviewPage.ts'],
    );
  });

  it('webview scripts build no HTML from data and run no strings as code', () => {
    // Kept as a source scan: the e2e Logs test shows a log line's markup arriving as text, but no input
    // can reach every sink of every script, so the absence of HTML sinks and eval is checked here.
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
    fuzz(
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
  it('the service calls that destroy are made only from the two commands that confirm them', () => {
    // A source inventory: the confirmations themselves (the typed name, the modal) are exercised in
    // test/e2e/explorer.test.ts and test/e2e/jobs.test.ts; that no other code path makes these calls
    // unconfirmed is not something a running editor can show.
    const callers = (pattern: RegExp) =>
      sources(join(REPO_ROOT, 'client'), /\.ts$/)
        .filter((f) => pattern.test(read(f)))
        .map((f) => relative(REPO_ROOT, f));
    assert.deepEqual(callers(/serverless\.delete\(/), ['client/explorer/endpointCommands.ts']);
    assert.deepEqual(callers(/jobs\.purgeQueue\(/), ['client/jobs/health.ts']);
  });
});
