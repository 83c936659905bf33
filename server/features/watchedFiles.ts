/**
 * Changes on disk reach the open specs without an edit: after `git pull` rewrites an overlay, its open base shows
 * the new problems, and an open overlay those of its rewritten base. A client that registers file watchers on
 * request (VS Code, Helix, Eglot) is asked to watch the spec files, the environments file and the team policy
 * (`.endpoint-studio/policy.yaml`, read by the checks like a spec, so its change drops the checks it judged); for one
 * that cannot (Neovim 0.10 on Linux) the server watches, itself, each folder whose files the checks have read.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, join } from 'node:path';
import { DidChangeWatchedFilesNotification, FileChangeType, type Connection } from 'vscode-languageserver';
import { isPolicyFile, isSpecFile, POLICY_FILE_GLOB } from '../../core/protocol';
import type { ServerSession } from '../session';
import { filePathOf } from '../uris';

const SPEC_GLOB = '**/*.endpoint.{yaml,yml,json}';
const ENVIRONMENTS_GLOB = '**/.endpoint-studio/environments.yaml';
/** An editor's save or `git pull` is several events in a row (a temporary file, a rename): they are taken as one. */
const SETTLE_MS = 100;

export interface DiskChange {
  readonly path: string;
  /** The file appeared or went, rather than only its text changing. */
  readonly existence: boolean;
}

/** What changed on disk in one settled batch. */
export interface DiskChanges {
  /** Spec files and team policy files (`.endpoint-studio/policy.yaml`) that changed, appeared or went. */
  readonly files: readonly DiskChange[];
  /** `.endpoint-studio/environments.yaml` changed. */
  readonly environments: boolean;
}

export class WatchedFiles {
  /** The folders the checks have read, watched here once it is known that the client will not. */
  private readonly folders = new Set<string>();
  private readonly ownWatchers = new Map<string, FSWatcher>();
  private readonly unwatchable = new Set<string>();
  private watchingOurselves = false;
  private pending: DiskChange[] = [];
  private timer?: NodeJS.Timeout;
  private readonly listeners: ((changes: DiskChanges) => void)[] = [];

  constructor(
    private readonly connection: Connection,
    session: ServerSession,
  ) {
    session.onInitialized(() => {
      void this.start(session);
    });
    connection.onDidChangeWatchedFiles(({ changes }) => {
      this.take(
        changes.flatMap(({ uri, type }) => {
          const path = filePathOf(uri);
          return path === undefined ? [] : [{ path, existence: type !== FileChangeType.Changed }];
        }),
      );
    });
    connection.onShutdown(() => {
      this.dispose();
    });
  }

  onDidChange(listener: (changes: DiskChanges) => void): void {
    this.listeners.push(listener);
  }

  /** A folder the checks read files from: watched here when the client watches nothing for the server. */
  readsFolder(folder: string): void {
    this.folders.add(folder);
    if (this.watchingOurselves) this.watchFolder(folder);
  }

  private watchFolder(folder: string): void {
    if (this.ownWatchers.has(folder) || this.unwatchable.has(folder)) return;
    try {
      const watcher = watch(folder, { persistent: false }, (event, name) => {
        if (name) this.take([{ path: join(folder, name), existence: event === 'rename' }]);
      });
      watcher.on('error', () => {
        watcher.close();
      });
      this.ownWatchers.set(folder, watcher);
    } catch {
      // A folder that cannot be watched (gone, no permission) is read again only after an edit, and not tried
      // again on every read.
      this.unwatchable.add(folder);
    }
  }

  private async start(session: ServerSession): Promise<void> {
    const registered = await session.requests.register(DidChangeWatchedFilesNotification.method, () =>
      this.connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: SPEC_GLOB }, { globPattern: ENVIRONMENTS_GLOB }, { globPattern: POLICY_FILE_GLOB }],
      }),
    );
    if (registered) return;
    this.watchingOurselves = true;
    for (const folder of this.folders) this.watchFolder(folder);
  }

  private take(changes: readonly DiskChange[]): void {
    const relevant = changes.filter(({ path }) => isSpecFile(path) || isWorkspaceFile(path, 'environments.yaml') || isPolicyFile(path));
    if (relevant.length === 0) return;
    this.pending.push(...relevant);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.flush();
    }, SETTLE_MS);
  }

  private flush(): void {
    const changes = this.pending;
    this.pending = [];
    const files = changes.filter(({ path }) => isSpecFile(path) || isPolicyFile(path));
    const environments = changes.some(({ path }) => isWorkspaceFile(path, 'environments.yaml'));
    for (const listener of this.listeners) listener({ files, environments });
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const watcher of this.ownWatchers.values()) watcher.close();
    this.ownWatchers.clear();
  }
}

/** A file of the workspace's `.endpoint-studio/` folder. */
function isWorkspaceFile(path: string, name: string): boolean {
  return basename(path) === name && basename(join(path, '..')) === '.endpoint-studio';
}
