/**
 * Starts code-server (VS Code in the browser) the way the tests need it: its own process group, a fresh
 * user-data and extensions folder in a temp dir, our packaged extension installed, bound to a free
 * loopback port, no auth. stop() kills the whole group, so no server outlives a failed test. Which
 * code-server (VS Code version) runs is paths.ts's EDITOR unless the caller names one.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EDITOR, type Editor } from './paths';

export interface CodeServerOptions {
  /** The folder the workbench opens. */
  workspace: string;
  /** .vsix files installed before start. */
  extensions?: readonly string[];
  /** Extra environment for the server and the extension host it forks. */
  env?: Record<string, string>;
  /**
   * Settings on top of the quiet defaults. Machine-scoped ones (see MACHINE_SCOPED) go where code-server reads
   * them, the rest to the user's settings.
   */
  userSettings?: Record<string, unknown>;
  /** Keep workspace trust on, so the folder opens untrusted (Restricted Mode); off by default. */
  workspaceTrust?: boolean;
  /** The editor to run; paths.ts's EDITOR (ENDPOINT_STUDIO_EDITOR) by default. */
  editor?: Editor;
}

const START_TIMEOUT_MS = 60_000;
const DEFAULT_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  // Extensions' walkthroughs (ours included) open only where asked for: the demo and the walkthrough test.
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  // VS Code 1.10x and later open the Chat view in a secondary side bar on first start, narrowing the editor.
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};
/**
 * Settings VS Code declares machine-scoped. code-server reads those only from <user-data>/Machine/settings.json
 * and ignores them in User/settings.json, where a switch would silently do nothing.
 */
const MACHINE_SCOPED = new Set(['workbench.welcomePage.walkthroughs.openOnInstall']);
const running = new Set<CodeServer>();
// A test process that dies without its after() hook must still not leave servers behind.
process.once('exit', () => {
  for (const server of running) server.killGroup('SIGKILL');
});

export class CodeServer {
  readonly output: string[] = [];

  private constructor(
    readonly url: string,
    readonly port: number,
    readonly tempDir: string,
    readonly editor: Editor,
    private readonly child: ChildProcess,
  ) {}

  static async start(options: CodeServerOptions): Promise<CodeServer> {
    const editor = options.editor ?? EDITOR;
    if (!existsSync(editor.entry) || !existsSync(editor.node)) {
      throw new Error(
        `code-server ${editor.codeServerVersion} (VS Code ${editor.name}) is not installed at ${editor.entry}: run \`npm run setup:editor\` first`,
      );
    }
    const tempDir = mkdtempSync(join(tmpdir(), 'endpoint-studio-editor-'));
    const dirs = {
      userData: join(tempDir, 'user-data'),
      extensions: join(tempDir, 'extensions'),
      // code-server writes a default config (with a password) to $XDG_CONFIG_HOME unless given one.
      xdg: join(tempDir, 'xdg'),
    };
    for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
    // A quiet, predictable workbench: no welcome page, tips, telemetry notice or trust prompt.
    const settings = { ...DEFAULT_SETTINGS, ...options.userSettings };
    writeSettings(join(dirs.userData, 'User'), settings, (key) => !MACHINE_SCOPED.has(key));
    writeSettings(join(dirs.userData, 'Machine'), settings, (key) => MACHINE_SCOPED.has(key));
    const configFile = join(tempDir, 'config.yaml');
    writeFileSync(configFile, 'auth: none\n');
    const env = {
      ...process.env,
      XDG_CONFIG_HOME: dirs.xdg,
      XDG_DATA_HOME: dirs.xdg,
      // The server's and the CLI's code caches too: each session starts as a first run, and writes nothing outside.
      XDG_CACHE_HOME: dirs.xdg,
      ...options.env,
    };
    const common = ['--config', configFile, '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions];

    for (const vsix of options.extensions ?? []) {
      if (!existsSync(vsix)) throw new Error(`extension package not found: ${vsix} (run \`npm run package\`)`);
      const install = spawnSync(editor.node, [editor.entry, ...common, '--force', '--install-extension', vsix], {
        env,
        encoding: 'utf8',
        timeout: START_TIMEOUT_MS,
      });
      if (install.status !== 0 || !/successfully installed/i.test(install.stdout + install.stderr)) {
        throw new Error(`installing ${vsix} into code-server failed:\n${install.stdout}\n${install.stderr}`);
      }
    }

    const port = await freePort();
    const args = [
      editor.entry,
      ...common,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
      '--disable-getting-started-override',
      '--ignore-last-opened',
      options.workspace,
    ];
    // detached: its own process group, so stop() reaches the extension host and language server too.
    const child = spawn(editor.node, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const server = new CodeServer(`http://127.0.0.1:${port}/`, port, tempDir, editor, child);
    running.add(server);
    try {
      await server.waitForListening();
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  private waitForListening(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        fail(new Error(`code-server did not listen within ${START_TIMEOUT_MS} ms`));
      }, START_TIMEOUT_MS);
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(new Error(`${error.message}\n--- code-server output ---\n${this.output.join('')}`));
      };
      const onData = (chunk: Buffer) => {
        this.output.push(chunk.toString());
        if (/HTTP server listening on/.test(this.output.join(''))) {
          clearTimeout(timer);
          resolve();
        }
      };
      const { stdout, stderr } = this.child;
      if (!stdout || !stderr) {
        fail(new Error('code-server was started without output pipes'));
        return;
      }
      stdout.on('data', onData);
      stderr.on('data', onData);
      this.child.once('exit', (code, signal) => {
        fail(new Error(`code-server exited early (code ${code}, signal ${signal})`));
      });
    });
  }

  /** Signals the whole process group: the extension host and language server may outlive the leader. */
  killGroup(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // The group is already gone.
    }
  }

  async stop(): Promise<void> {
    running.delete(this);
    const exited = new Promise<void>((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) resolve();
      else
        this.child.once('exit', () => {
          resolve();
        });
    });
    this.killGroup('SIGTERM');
    const timer = setTimeout(() => {
      this.killGroup('SIGKILL');
    }, 5_000);
    await exited;
    clearTimeout(timer);
    // Whatever ignored SIGTERM (pty host, language server) goes now.
    this.killGroup('SIGKILL');
    rmSync(this.tempDir, { recursive: true, force: true, maxRetries: 3 });
  }
}

function writeSettings(folder: string, settings: Record<string, unknown>, belongs: (key: string) => boolean): void {
  mkdirSync(folder, { recursive: true });
  const own = Object.fromEntries(Object.entries(settings).filter(([key]) => belongs(key)));
  writeFileSync(join(folder, 'settings.json'), JSON.stringify(own, null, 2));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (typeof address === 'object' && address) resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}
