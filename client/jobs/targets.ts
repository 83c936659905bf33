/**
 * Which endpoint a request runs against, and what ran last. A request file's endpoint is the one
 * last chosen for it (kept in workspace state, since the file must hold only what the service
 * accepts), else the endpoint the spec beside it is deployed to; otherwise the user picks one of
 * the account's queue endpoints. The last input sent to each endpoint is kept for `Run Last Input`.
 */
import * as vscode from 'vscode';
import { ApiError, type Endpoint, type JobRequest } from '../../core/api';
import type { Session } from '../auth/session';
import { endpointType } from '../explorer/endpointFacts';
import { siblingBinding } from './requestFile';

export interface EndpointRef {
  id: string;
  name: string;
}

export interface KnownTarget extends EndpointRef {
  /** How it was chosen, for tooltips. */
  because: string;
}

const TARGETS_KEY = 'endpointStudio.jobs.targets';
const LAST_REQUESTS_KEY = 'endpointStudio.jobs.lastRequests';
/** Workspace state is not meant for bulk data; an input larger than this is not remembered. */
const MAX_REMEMBERED_REQUEST_CHARS = 1_000_000;

export type EndpointKind = 'QUEUE' | 'LOAD_BALANCER' | 'any';

export class JobTargets implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly session: Session,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** The endpoint a request file runs against without asking, if there is one. */
  known(uri: vscode.Uri): KnownTarget | undefined {
    const chosen = this.state.get<Partial<Record<string, EndpointRef>>>(TARGETS_KEY, {})[uri.toString()];
    if (chosen) return { ...chosen, because: 'chosen for this file earlier (Other Endpoint… changes it)' };
    if (uri.scheme !== 'file') return undefined;
    const bound = siblingBinding(uri.fsPath, vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath);
    if (!bound) return undefined;
    return {
      id: bound.endpointId,
      name: bound.endpointName || bound.endpointId,
      because: `the endpoint ${vscode.workspace.asRelativePath(bound.specPath)} is deployed to`,
    };
  }

  async remember(uri: vscode.Uri, endpoint: EndpointRef): Promise<void> {
    const all = {
      ...this.state.get<Record<string, EndpointRef>>(TARGETS_KEY, {}),
      [uri.toString()]: { id: endpoint.id, name: endpoint.name },
    };
    await this.state.update(TARGETS_KEY, all);
    this.changed.fire();
  }

  lastRequest(endpointId: string): JobRequest | undefined {
    return this.state.get<Record<string, JobRequest>>(LAST_REQUESTS_KEY, {})[endpointId];
  }

  async rememberRequest(endpointId: string, request: JobRequest): Promise<void> {
    if (JSON.stringify(request).length > MAX_REMEMBERED_REQUEST_CHARS) {
      this.log.info(`jobs: the input sent to ${endpointId} is over ${MAX_REMEMBERED_REQUEST_CHARS} characters; not kept as the last input`);
      return;
    }
    await this.state.update(LAST_REQUESTS_KEY, {
      ...this.state.get<Record<string, JobRequest>>(LAST_REQUESTS_KEY, {}),
      [endpointId]: request,
    });
  }

  /**
   * The endpoint a request file runs against: the known one (read again, so a deleted endpoint or
   * a load balancer is caught before sending), or one the user picks, remembered for the file.
   */
  async resolve(uri: vscode.Uri, choose: boolean): Promise<Endpoint | undefined> {
    const known = choose ? undefined : this.known(uri);
    if (known) {
      const endpoint = await this.read(known);
      if (endpoint && endpointType(endpoint) === 'QUEUE') return endpoint;
      if (endpoint)
        void vscode.window.showWarningMessage(
          `${endpoint.name} is a load balancer, which has no job queue; choose a queue endpoint for ${vscode.workspace.asRelativePath(uri)}`,
        );
    }
    const picked = await this.pick({ kind: 'QUEUE', title: `Run ${vscode.workspace.asRelativePath(uri)} on which endpoint?` });
    if (picked) await this.remember(uri, picked);
    return picked;
  }

  /** Reads an endpoint by id; says so and answers nothing when it is gone or cannot be read. */
  async read(ref: EndpointRef): Promise<Endpoint | undefined> {
    const api = this.session.api;
    if (!api) return void vscode.window.showWarningMessage('Sign in to run jobs');
    try {
      return await api.serverless.get(ref.id);
    } catch (error) {
      if (error instanceof ApiError && error.notFound)
        void vscode.window.showWarningMessage(`The endpoint ${ref.name} no longer exists; choose another: ${ref.id}`);
      else this.session.reportError(`Reading endpoint ${ref.name}`, error);
      return undefined;
    }
  }

  /** A quick pick of the account's endpoints of one kind. */
  pick(options: { kind: EndpointKind; title: string }): Promise<Endpoint | undefined> {
    return pickEndpoint(this.session, { ...options, signIn: 'Sign in to run jobs' });
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/**
 * A quick pick of the account's endpoints, by name. Given a `kind`, only those, each with its type, and a word when
 * there are none; `keepOpen` keeps it open when the focus moves.
 */
export async function pickEndpoint(
  session: Session,
  options: { title: string; signIn: string; kind?: EndpointKind; keepOpen?: boolean },
): Promise<Endpoint | undefined> {
  const api = session.api;
  if (!api) return void vscode.window.showWarningMessage(options.signIn);
  const { kind } = options;
  const items = (async () => {
    try {
      const endpoints = (await api.serverless.list()).filter((e) => kind === undefined || kind === 'any' || endpointType(e) === kind);
      if (kind && endpoints.length === 0)
        void vscode.window.showInformationMessage(
          kind === 'LOAD_BALANCER'
            ? 'This account has no load balancer endpoints'
            : kind === 'QUEUE'
              ? 'This account has no queue endpoints'
              : 'This account has no endpoints',
        );
      return endpoints
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((endpoint) => ({
          label: endpoint.name,
          description: endpoint.id,
          detail: `${kind ? `${endpointType(endpoint)} · ` : ''}workers ${endpoint.workers.min}–${endpoint.workers.max}`,
          endpoint,
        }));
    } catch (error) {
      session.reportError('Listing endpoints', error);
      return [];
    }
  })();
  const picked = await vscode.window.showQuickPick(items, {
    title: options.title,
    placeHolder: 'Endpoint name or id',
    matchOnDescription: true,
    ignoreFocusOut: options.keepOpen,
  });
  return picked?.endpoint;
}
