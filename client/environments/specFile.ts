/**
 * A spec file as the editor deploys it, asked of the language server (`endpointStudio/specFile`), whose one owner
 * of the workspace's spec files has parsed and checked it already: the body each document deploys (an overlay
 * merged into its base, the open editors' texts first), whether the file is an overlay and of which base, a
 * base's overlays. The editor holds no parse of its own, so Deploy, the drift lenses, Diff, Compare, the rollback
 * offer and the language status all see what the Problems panel sees. The environment's settings
 * (`.endpoint-studio/environments.yaml`) are configuration, read here.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { findWorkspaceRoot } from '../../core/deploy';
import type { JsonPathSegment, TextSpan } from '../../core/endpointSpec/tree';
import { ENVIRONMENTS_FILE } from '../../core/environments/config';
import { environmentSettings, type DeployEnvironment } from '../../core/operations';
import {
  LOCATE_PATHS_REQUEST,
  sendRequestWith,
  SPEC_FILE_REQUEST,
  type LocatedPaths,
  type SpecEnvironmentFacts,
  type SpecFileFacts,
  type SpecOverlayFacts,
} from '../../core/protocol';
import type { LanguageServerHost } from '../languageClient';

/** How long a question waits for a language server that is (re)starting. */
const SERVER_WAIT_MS = 15_000;
/** An answer for an older version than the editor's text is asked again, this many times at most. */
const ATTEMPTS = 3;
/** A question left unanswered this long is given up, so the command that asked says so rather than wait on. */
const ANSWER_WAIT_MS = 20_000;

/** The folder holding the file's `.endpoint-studio/` (bindings, environments): its workspace folder, else the nearest. */
export function specRoot(uri: vscode.Uri): string {
  return vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? findWorkspaceRoot(uri.fsPath);
}

/** The environment a spec file deploys to, with its settings. */
export interface SpecEnvironment extends DeployEnvironment {
  /** Why the environments file configures nothing (it does not parse, or names what it may not). */
  readonly settingsProblem?: string;
}

/** The environment an overlay deploys to, from the server's answer about it; undefined for a base or any other spec. */
export function environmentOf(uri: vscode.Uri, facts: { readonly overlay?: SpecOverlayFacts }): SpecEnvironment | undefined {
  const name = facts.overlay?.environment;
  if (uri.scheme !== 'file' || name === undefined) return undefined;
  const { environment, problems } = environmentSettings(name, uri.fsPath, specRoot(uri));
  const first = problems.at(0);
  return first ? { ...environment, settingsProblem: `${ENVIRONMENTS_FILE} is broken: ${first.message}` } : environment;
}

/** The message of a question the server could not answer (not running, restarting, an internal error). */
export function unanswered(error: unknown): string {
  return `the language server did not answer: ${error instanceof Error ? error.message : String(error)}`;
}

/** The base of `uri` (itself, or the one its `extends` names) and the server's facts about each of its overlays. */
export async function familyOf(
  files: SpecFiles,
  uri: vscode.Uri,
): Promise<{ base: string; environments: readonly SpecEnvironmentFacts[] } | { error: string }> {
  try {
    const facts = await files.facts(uri);
    if (facts.overlay && facts.overlay.basePath === undefined)
      return { error: `${basename(uri.fsPath)} names no base that can be read (see the Problems panel)` };
    const base = facts.overlay?.basePath ?? uri.fsPath;
    const family = facts.overlay ? await files.facts(vscode.Uri.file(base)) : facts;
    return { base, environments: family.environments };
  } catch (error) {
    return { error: unanswered(error) };
  }
}

/** Asks the running language server about spec files; waits for one that is starting. */
export class SpecFiles {
  constructor(private readonly host: LanguageServerHost) {}

  /**
   * The server's answer about the file at `uri`. Given the editor's `text`, an answer for an older version of it
   * is asked again, so its offsets fit the text. Rejects when the server cannot answer.
   */
  async facts(
    uri: vscode.Uri,
    options: { readonly text?: vscode.TextDocument; readonly documentIndex?: number } = {},
  ): Promise<SpecFileFacts> {
    const params = { uri: uri.toString(), ...(options.documentIndex !== undefined ? { documentIndex: options.documentIndex } : {}) };
    let facts = await this.ask((client) => sendRequestWith(client, SPEC_FILE_REQUEST, params));
    for (let attempt = 1; attempt < ATTEMPTS && isBehind(facts, options.text); attempt++)
      facts = await this.ask((client) => sendRequestWith(client, SPEC_FILE_REQUEST, params));
    return facts;
  }

  /** Where `paths` of one document lie in the server's text of it (the closest field it has for one it lacks). */
  locate(uri: vscode.Uri, documentIndex: number, paths: readonly (readonly JsonPathSegment[])[]): Promise<LocatedPaths> {
    return this.ask((client) => sendRequestWith(client, LOCATE_PATHS_REQUEST, { uri: uri.toString(), documentIndex, paths }));
  }

  /** Sends a request; once more to the next server when the one asked stopped meanwhile (a profile change restarts it). */
  private async ask<R>(request: (client: LanguageClient) => Promise<R>): Promise<R> {
    const client = await this.running();
    try {
      return await withDeadline(request(client));
    } catch (error) {
      if (this.host.client === client) throw error;
      return withDeadline(request(await this.running()));
    }
  }

  private running(): Promise<LanguageClient> {
    const current = this.host.client;
    if (current) return Promise.resolve(current);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        started.dispose();
        reject(new Error('the language server is not running'));
      }, SERVER_WAIT_MS);
      const started = this.host.onDidStart((client) => {
        clearTimeout(timer);
        // Disposed after this call returns: `started` is not assigned yet when the host calls back at once.
        queueMicrotask(() => {
          started.dispose();
        });
        resolve(client);
      });
    });
  }
}

function withDeadline<R>(answer: Promise<R>): Promise<R> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`no answer within ${ANSWER_WAIT_MS / 1000} s`));
    }, ANSWER_WAIT_MS);
  });
  return Promise.race([answer, deadline]).finally(() => {
    clearTimeout(timer);
  });
}

/** Whether the answer is for an older version of the open document than the editor holds now. */
function isBehind(facts: SpecFileFacts, text: vscode.TextDocument | undefined): boolean {
  return text !== undefined && !text.isClosed && facts.version !== null && facts.version < text.version;
}

/** The editor's range of a span the server answered, in `text`. */
export function rangeOfSpan(text: vscode.TextDocument, span: TextSpan): vscode.Range {
  return new vscode.Range(text.positionAt(span.offset), text.positionAt(span.offset + span.length));
}
