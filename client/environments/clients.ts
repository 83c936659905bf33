/**
 * Which account a spec file talks to. An overlay's environment names its profile in
 * `.endpoint-studio/environments.yaml`, and everything about that file (the drift lenses, Diff, Compare,
 * the deploy) reads and writes with that profile's key, whichever profile is active; any other spec uses the
 * active one. A client per profile is kept until the profiles or trust change. In an untrusted workspace
 * there is no client at all: nothing is sent. Which environment a file is in, the language server says
 * (`SpecFiles`); a file it cannot answer for gets no client, rather than the active profile's by mistake.
 */
import * as vscode from 'vscode';
import type { ApiClient } from '../../core/api';
import type { SpecOverlayFacts } from '../../core/protocol';
import type { ResolvedProfile } from '../auth/profiles';
import type { Session } from '../auth/session';
import { environmentOf, unanswered, type SpecFiles, type SpecEnvironment } from './specFile';

export interface ProfileClient {
  readonly api: ApiClient;
  readonly profile: ResolvedProfile;
}

/** A spec file's client, or why it has none; the environment it deploys to either way. */
export type SpecClient =
  | { readonly ok: true; readonly client: ProfileClient; readonly environment?: SpecEnvironment }
  | { readonly ok: false; readonly reason: string; readonly environment?: SpecEnvironment };

export class SpecClients implements vscode.Disposable {
  private readonly clients = new Map<string, Promise<ProfileClient | undefined>>();
  private readonly subscription: vscode.Disposable;

  constructor(
    readonly session: Session,
    /** What the language server says about each spec file. */
    readonly files: SpecFiles,
  ) {
    // The session reloads after any profile, key or trust change: clients made before may hold a removed key.
    this.subscription = session.onDidChange(() => {
      this.clients.clear();
    });
  }

  /** A client with the named profile's key; undefined when it is not signed in here or the workspace is untrusted. */
  forProfile(name: string): Promise<ProfileClient | undefined> {
    if (!vscode.workspace.isTrusted) return Promise.resolve(undefined);
    const { session } = this;
    if (session.profile?.name === name && session.api) return Promise.resolve({ api: session.api, profile: session.profile });
    let client = this.clients.get(name);
    if (!client) {
      client = session.profiles.resolveNamed(name).then((profile) => profile && { api: session.clientOf(profile), profile });
      this.clients.set(name, client);
    }
    return client;
  }

  /** The active profile's client, when signed in. */
  active(): ProfileClient | undefined {
    const { api, profile } = this.session;
    return api && profile ? { api, profile } : undefined;
  }

  /**
   * The client a spec file reads its live endpoint with: its environment's profile, else the active one. `known`
   * is the server's answer about the file when the caller has it already (a document's `overlay`).
   */
  async forSpec(uri: vscode.Uri, known?: { readonly overlay?: SpecOverlayFacts }): Promise<SpecClient> {
    let facts = known;
    if (!facts && uri.scheme === 'file') {
      try {
        facts = await this.files.facts(uri);
      } catch (error) {
        return { ok: false, reason: unanswered(error) };
      }
    }
    const environment = facts ? environmentOf(uri, facts) : undefined;
    if (!vscode.workspace.isTrusted) return { ok: false, reason: 'the workspace is not trusted', environment };
    if (environment?.profile !== undefined) {
      const client = await this.forProfile(environment.profile);
      if (client) return { ok: true, client, environment };
      return { ok: false, reason: `profile ${environment.profile} (for ${environment.name}) is not signed in`, environment };
    }
    const active = this.active();
    return active ? { ok: true, client: active, environment } : { ok: false, reason: 'signed out', environment };
  }

  dispose(): void {
    this.subscription.dispose();
    this.clients.clear();
  }
}
