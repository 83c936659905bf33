/**
 * The manifest as the Marketplace and a first-time user meet it: texts kept in package.nls.json (every
 * reference defined, every text used), the icon, the links, the settings that reach the service tagged, and
 * a walkthrough whose every step can actually complete: each completion event names a contributed command
 * or a context key the extension sets, and each step's page exists.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { localize, manifestTexts, nlsReferences } from '../../scripts/manifest';
import { REPO_ROOT } from '../../scripts/editor/paths';

interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string };
  completionEvents: string[];
}
interface Setting {
  markdownDescription?: string;
  tags?: string[];
}
interface Manifest {
  icon: string;
  repository: { url: string };
  bugs: { url: string };
  homepage: string;
  galleryBanner: { color: string; theme: string };
  scripts: Record<string, string>;
  contributes: {
    commands: { command: string; title: string; category: string }[];
    views: Record<string, { id: string; name: string }[]>;
    configuration: { title: string; properties: Record<string, Setting> };
    walkthroughs: { id: string; title: string; description: string; steps: Step[] }[];
  };
}

const raw = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
const texts = manifestTexts(REPO_ROOT);
const manifest = localize(raw, texts) as Manifest;
const REPOSITORY = 'https://github.com/endpoint-studio/endpoint-studio';
const isReference = (text: string): boolean => /^%[^%\s]+%$/.test(text);

function clientSources(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) return clientSources(path);
    return path.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

describe('the manifest texts (package.nls.json)', () => {
  it('define every %key% package.json refers to, and nothing it does not', () => {
    const used = new Set(nlsReferences(raw));
    assert.deepEqual(
      Object.keys(texts).filter((key) => !used.has(key)),
      [],
      'texts no longer used',
    );
    assert.deepEqual(
      [...used].filter((key) => !Object.hasOwn(texts, key)),
      [],
      'references without a text',
    );
  });

  it('hold the command titles, view names, setting descriptions and the walkthrough', () => {
    const shown = [
      ...raw.contributes.commands.flatMap((c) => [c.title, c.category]),
      ...Object.values(raw.contributes.views).flatMap((views) => views.map((v) => v.name)),
      raw.contributes.configuration.title,
      ...Object.values(raw.contributes.configuration.properties).map((s) => s.markdownDescription ?? ''),
      ...raw.contributes.walkthroughs.flatMap((w) => [w.title, w.description, ...w.steps.flatMap((s) => [s.title, s.description])]),
    ];
    assert.deepEqual(
      shown.filter((text) => !isReference(text)),
      [],
    );
  });
});

describe('the Marketplace listing', () => {
  it('has a 128×128 PNG icon drawn from the SVG beside it', () => {
    assert.equal(raw.icon, 'media/icon.png');
    const png = readFileSync(join(REPO_ROOT, raw.icon));
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
    assert.ok(existsSync(join(REPO_ROOT, 'media', 'icon.svg')));
  });

  it('links the repository, its issues and its home page, with a banner colour', () => {
    assert.equal(raw.repository.url, `${REPOSITORY}.git`);
    assert.equal(raw.bugs.url, `${REPOSITORY}/issues`);
    assert.equal(raw.homepage, `${REPOSITORY}#readme`);
    assert.match(raw.galleryBanner.color, /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(raw.galleryBanner.theme));
  });

  it('packages with the links rewritten for the listing, and ships the texts, changelog and languages', () => {
    assert.doesNotMatch(raw.scripts.package, /--allow-missing-repository|--no-rewrite-relative-links/);
    const shipped = readFileSync(join(REPO_ROOT, '.vscodeignore'), 'utf8').split('\n');
    for (const entry of ['!package.nls.json', '!CHANGELOG.md', '!syntaxes/**', '!media/**']) assert.ok(shipped.includes(entry), entry);
    assert.match(readFileSync(join(REPO_ROOT, 'CHANGELOG.md'), 'utf8'), /^## 0\.1\.0$/m);
  });

  it('tags the settings that make the extension reach the service, and only those', () => {
    const tagged = Object.entries(raw.contributes.configuration.properties)
      .filter(([, setting]) => setting.tags?.includes('usesOnlineServices'))
      .map(([key]) => key);
    assert.deepEqual(tagged.sort(), [
      'endpointStudio.api.jobsUrl',
      'endpointStudio.api.url',
      'endpointStudio.billing.endpointSpend',
      'endpointStudio.billing.lastDays',
      'endpointStudio.jobs.pollIntervalMs',
      'endpointStudio.jobs.runsyncWaitMs',
    ]);
  });
});

describe('the walkthrough', () => {
  const [walkthrough] = manifest.contributes.walkthroughs;
  const commands = new Set(manifest.contributes.commands.map((c) => c.command));
  const sources = clientSources(join(REPO_ROOT, 'client')).join('\n');

  it('is one walkthrough, opened again from the Command Palette', () => {
    assert.equal(manifest.contributes.walkthroughs.length, 1);
    assert.equal(walkthrough.id, 'endpointStudio.gettingStarted');
    assert.ok(commands.has('endpointStudio.walkthrough.open'));
    assert.match(sources, new RegExp(`'${walkthrough.id}'`), 'the extension opens the walkthrough by its id');
  });

  it('walks from connecting to billing', () => {
    assert.deepEqual(
      walkthrough.steps.map((s) => s.id),
      ['connect', 'createSpec', 'quickFix', 'deploy', 'runJob', 'workerLogs', 'billing'],
    );
  });

  for (const step of walkthrough.steps) {
    it(`step ${step.id} completes on something the user does, and has a page`, () => {
      assert.ok(step.completionEvents.length > 0);
      for (const event of step.completionEvents) {
        const [kind, name] = event.split(/:(.*)/s);
        if (kind === 'onCommand') assert.ok(commands.has(name), `${event}: not a contributed command`);
        else if (kind === 'onContext') assert.match(sources, new RegExp(`'${name.replace(/\./g, '\\.')}'`), `${event}: never set`);
        else assert.fail(`${event}: a step completes on a command or a context key`);
      }
      const page = step.media.markdown;
      assert.ok(page !== undefined && existsSync(join(REPO_ROOT, page)), `${step.id}: ${page}`);
      // Buttons in a step's text name commands the extension contributes or the workbench's own.
      for (const [, command] of step.description.matchAll(/\]\(command:([\w.]+)/g)) {
        assert.ok(commands.has(command) || command.startsWith('workbench.'), `${step.id}: ${command}`);
      }
    });
  }
});
