/**
 * The settings a client can change while the server runs (`debounceMs`, `inlayHints`). They arrive in
 * `initializationOptions` (session.ts); a client that offers `workspace/configuration` is asked for the
 * `endpointStudio` section once it is initialized and again on every `workspace/didChangeConfiguration`,
 * and a client that does not may send the section in that notification's `settings`. The catalog file and
 * cache folder are not among them: they are fixed for the server process.
 */
import { DidChangeConfigurationNotification, type Connection } from 'vscode-languageserver';
import { SETTINGS_SECTION } from '../../core/protocol';
import { ALL_INLAY_HINTS, withInitializationOptions, type ServerOptions, type ServerSession } from '../session';

export class ServerSettings {
  private readonly listeners = new Set<() => void>();
  /** The options as initialize left them: a setting the client's section leaves out falls back to these. */
  private base?: ServerOptions;

  constructor(
    private readonly connection: Connection,
    private readonly session: ServerSession,
  ) {
    session.onInitialized(() => {
      this.base = session.options;
      void this.watch();
      void this.read();
    });
    connection.onDidChangeConfiguration((params) => {
      if (this.offersConfiguration) void this.read();
      else this.apply(sectionOf(params.settings));
    });
  }

  /** Called after a setting changed. */
  onDidChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  private get offersConfiguration(): boolean {
    return this.session.requests.declares('workspace/configuration');
  }

  /** A client that registers notifications on request (VS Code) sends them only for a section it was asked to watch. */
  private async watch(): Promise<void> {
    await this.session.requests.register(DidChangeConfigurationNotification.method, () =>
      this.connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION }),
    );
  }

  private async read(): Promise<void> {
    const section = await this.session.requests.ask('workspace/configuration', (): Promise<unknown> =>
      this.connection.workspace.getConfiguration(SETTINGS_SECTION),
    );
    this.apply(section);
  }

  /** Applies what the client holds for the section; no section (null, as editors answer one they lack) leaves all as it is. */
  private apply(section: unknown): void {
    if (typeof section !== 'object' || section === null) return;
    const { debounceMs, inlayHints } = section as Record<string, unknown>;
    const before = JSON.stringify(this.session.options);
    this.session.options = withInitializationOptions(this.base ?? this.session.options, { debounceMs, inlayHints });
    if (JSON.stringify(this.session.options) === before) return;
    // Logged so a reader of the output can tell whether a settings change reached the server at all.
    this.connection.console.log(`settings applied: ${describeSettings(this.session.options)}`);
    for (const listener of this.listeners) listener();
  }
}

/** The settings that can change while the server runs, as the log states them: `inlay hints defaults off, …`. */
function describeSettings({ inlayHints = ALL_INLAY_HINTS, debounceMs }: ServerOptions): string {
  const hints = Object.entries(inlayHints).map(([kind, shown]) => `${kind} ${shown ? 'on' : 'off'}`);
  return `inlay hints ${hints.join(', ')}; debounce ${debounceMs} ms`;
}

/** The `endpointStudio` section of a didChangeConfiguration's settings. */
function sectionOf(settings: unknown): unknown {
  return typeof settings === 'object' && settings !== null ? (settings as Record<string, unknown>)[SETTINGS_SECTION] : undefined;
}
