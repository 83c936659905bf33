/**
 * A terminal editor in a tmux pane, on a tmux server of its own (its socket in the test's folder, so no other
 * tmux is touched): keys go in with send-keys, the screen comes back as text with capture-pane.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
const POLL_MS = 100;

export class TmuxPane {
  private constructor(private readonly socket: string) {}

  /** Starts `command` in a `columns`×`rows` pane in `cwd`; the tmux server, and so the command, get `env`. */
  static async start(socket: string, command: string, options: { cwd: string; env: NodeJS.ProcessEnv; columns: number; rows: number }) {
    const args = ['-S', socket, '-f', '/dev/null', 'new-session', '-d', '-x', String(options.columns), '-y', String(options.rows)];
    await new Promise<void>((done, failed) => {
      const tmux = spawn('tmux', [...args, '-c', options.cwd, command], { cwd: options.cwd, env: options.env, stdio: 'ignore' });
      tmux.on('error', failed);
      tmux.on('close', (status) => {
        if (status === 0) done();
        else failed(new Error(`tmux new-session exited with ${String(status)}`));
      });
    });
    return new TmuxPane(socket);
  }

  private async tmux(...args: string[]): Promise<string> {
    return (await execFileAsync('tmux', ['-S', this.socket, ...args])).stdout;
  }

  /** The process the pane runs (the editor itself: the shell execs it). */
  async pid(): Promise<number> {
    return Number((await this.tmux('display-message', '-p', '#{pane_pid}')).trim());
  }

  /** The screen's text, one string per row. */
  async screen(): Promise<string[]> {
    return (await this.tmux('capture-pane', '-p')).split('\n');
  }

  /** Types `text` as it is (no key names), then the keys named in `keys` (such as Enter or Escape). */
  async type(text: string, ...keys: string[]): Promise<void> {
    if (text !== '') await this.tmux('send-keys', '-l', text);
    if (keys.length > 0) await this.tmux('send-keys', ...keys);
  }

  /** Runs an editor command line: `:` then `command`, Enter. */
  async command(command: string): Promise<void> {
    await this.type(`:${command}`, 'Enter');
  }

  /** Waits until `check` returns a value other than undefined, polling; fails with `what` and the screen after `timeoutMs`. */
  async until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}; the screen:\n${(await this.screen()).join('\n')}`);
      await new Promise((done) => setTimeout(done, POLL_MS));
    }
  }

  /** Stops the tmux server and everything in it. */
  async close(): Promise<void> {
    await this.tmux('kill-server').catch(() => undefined);
  }
}
