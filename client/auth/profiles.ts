/**
 * Named sign-in profiles (say `personal`, `prod`, `emulator`). Names, URLs and the active profile
 * live in the extension's global state; each key lives only in SecretStorage. Nothing here is a
 * workspace setting, so a cloned repository can neither read a key nor redirect it.
 */
import * as vscode from 'vscode';
import { DEFAULT_API_URL, DEFAULT_JOBS_URL } from '../../core/api/config';

export interface Profile {
  readonly name: string;
  /** Set for profiles that point somewhere else than the settings' URLs (the local emulator). */
  readonly apiUrl?: string;
  readonly jobsUrl?: string;
}

export interface ResolvedProfile {
  readonly name: string;
  readonly apiUrl: string;
  readonly jobsUrl: string;
  readonly apiKey: string;
  /** Where the key came from, for the status bar: never the key itself. */
  readonly keySource: 'secret storage' | 'environment';
}

const PROFILES_KEY = 'endpointStudio.profiles';
const ACTIVE_KEY = 'endpointStudio.activeProfile';
const secretName = (profile: string) => `endpointStudio.apiKey.${profile}`;
const ENVIRONMENT_PROFILE = 'environment';

export class ProfileStore {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly context: vscode.ExtensionContext) {
    context.subscriptions.push(
      this.changed,
      context.secrets.onDidChange((event) => {
        if (event.key.startsWith('endpointStudio.apiKey.')) this.changed.fire();
      }),
    );
  }

  list(): Profile[] {
    return this.context.globalState.get<Profile[]>(PROFILES_KEY, []);
  }

  get activeName(): string | undefined {
    return this.context.globalState.get<string>(ACTIVE_KEY);
  }

  /** The profile to call the service with, or undefined when signed out (and no key in the environment). */
  async resolveActive(): Promise<ResolvedProfile | undefined> {
    const active = this.activeName === undefined ? undefined : await this.resolveStored(this.activeName);
    return active ?? this.resolveEnvironment();
  }

  /**
   * A profile by name, whether active or not (an environment deploys with its own): a stored profile with its
   * key, or `environment` for the key in the process environment; undefined when it is not signed in here.
   */
  async resolveNamed(name: string): Promise<ResolvedProfile | undefined> {
    return (await this.resolveStored(name)) ?? (name === ENVIRONMENT_PROFILE ? this.resolveEnvironment() : undefined);
  }

  private async resolveStored(name: string): Promise<ResolvedProfile | undefined> {
    const stored = this.list().find((p) => p.name === name);
    const apiKey = stored && (await this.context.secrets.get(secretName(stored.name)));
    if (!stored || !apiKey) return undefined;
    const urls = this.settingsUrls();
    return { name, apiUrl: stored.apiUrl ?? urls.apiUrl, jobsUrl: stored.jobsUrl ?? urls.jobsUrl, apiKey, keySource: 'secret storage' };
  }

  private resolveEnvironment(): ResolvedProfile | undefined {
    const fromEnvironment = process.env.ENDPOINT_STUDIO_API_KEY?.trim() || process.env.RUNPOD_API_KEY?.trim();
    return fromEnvironment
      ? { name: ENVIRONMENT_PROFILE, ...this.settingsUrls(), apiKey: fromEnvironment, keySource: 'environment' }
      : undefined;
  }

  async save(profile: Profile, apiKey: string): Promise<void> {
    await this.context.secrets.store(secretName(profile.name), apiKey);
    const others = this.list().filter((p) => p.name !== profile.name);
    await this.context.globalState.update(
      PROFILES_KEY,
      [...others, profile].sort((a, b) => a.name.localeCompare(b.name)),
    );
    await this.activate(profile.name);
  }

  async activate(name: string): Promise<void> {
    await this.context.globalState.update(ACTIVE_KEY, name);
    this.changed.fire();
  }

  async remove(name: string): Promise<void> {
    await this.context.secrets.delete(secretName(name));
    await this.context.globalState.update(
      PROFILES_KEY,
      this.list().filter((p) => p.name !== name),
    );
    if (this.activeName === name) await this.context.globalState.update(ACTIVE_KEY, this.list()[0]?.name);
    this.changed.fire();
  }

  /** Only the user (machine) value counts: a workspace value of a machine-scoped setting is ignored. */
  settingsUrls(): { apiUrl: string; jobsUrl: string } {
    const api = vscode.workspace.getConfiguration('endpointStudio.api');
    return {
      apiUrl: api.inspect<string>('url')?.globalValue ?? DEFAULT_API_URL,
      jobsUrl: api.inspect<string>('jobsUrl')?.globalValue ?? DEFAULT_JOBS_URL,
    };
  }
}
