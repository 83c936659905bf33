/**
 * The job console's commands. Each takes what it was invoked on: a request file (CodeLens, editor
 * title, Explorer), an endpoint node of the Endpoints view, or a job of a result document; from the
 * Command Palette it uses the active request file or asks.
 */
import * as vscode from 'vscode';
import type { Endpoint, JobRequest } from '../../core/api';
import type { Session } from '../auth/session';
import { endpointType } from '../explorer/endpointFacts';
import type { JobConsole } from './console';
import type { RunMode } from './format';
import type { EndpointHealthActions } from './health';
import { REQUEST_FILE_GLOB, isRequestFile, parseRequestText } from './requestFile';
import type { JobDocuments, TrackedJob } from './results';
import { runSmokeCheck } from './smokeCheck';
import type { JobTargets } from './targets';
import { noteJobSubmitted } from '../walkthrough';

/** The Endpoints view's endpoint node, as far as jobs need it. */
interface EndpointNodeArg {
  kind?: unknown;
  endpoint?: Endpoint;
}

/** A job as lenses and messages pass it. */
interface JobRef {
  endpointId: string;
  endpointName: string;
  jobId: string;
}

type RunTarget = vscode.Uri | EndpointNodeArg | undefined;

/** An endpoint as a finished rollout names it for a smoke check. */
interface EndpointRefArg {
  endpointId: string;
  endpointName?: string;
}

export function registerJobCommands(
  session: Session,
  jobs: JobConsole,
  targets: JobTargets,
  docs: JobDocuments,
  health: EndpointHealthActions,
): vscode.Disposable {
  const commands = new JobCommands(session, jobs, targets, docs, health);
  return vscode.Disposable.from(
    vscode.commands.registerCommand('endpointStudio.jobs.run', (arg?: RunTarget) => commands.run(arg, 'run')),
    vscode.commands.registerCommand('endpointStudio.jobs.runSync', (arg?: RunTarget) => commands.run(arg, 'runsync')),
    vscode.commands.registerCommand('endpointStudio.jobs.runOn', (arg?: unknown) => commands.runOn(arg)),
    vscode.commands.registerCommand('endpointStudio.jobs.runLast', (node?: EndpointNodeArg) => commands.runLast(node)),
    vscode.commands.registerCommand('endpointStudio.jobs.cancel', (ref?: unknown) => commands.cancel(ref)),
    vscode.commands.registerCommand('endpointStudio.jobs.retry', (ref?: unknown) => commands.retry(ref)),
    vscode.commands.registerCommand('endpointStudio.jobs.purgeQueue', (node?: EndpointNodeArg) => commands.purgeQueue(node)),
    vscode.commands.registerCommand('endpointStudio.jobs.health', (node?: EndpointNodeArg) => commands.health(node)),
    vscode.commands.registerCommand('endpointStudio.jobs.pingHealth', (node?: EndpointNodeArg) => commands.pingHealth(node)),
    vscode.commands.registerCommand('endpointStudio.jobs.smokeCheck', (arg?: unknown) => commands.smokeCheck(arg)),
  );
}

/** One public method per command; the private ones are the steps they share. */
class JobCommands {
  constructor(
    private readonly session: Session,
    private readonly jobs: JobConsole,
    private readonly targets: JobTargets,
    private readonly docs: JobDocuments,
    private readonly healthActions: EndpointHealthActions,
  ) {}

  /** Runs what the command was invoked on: a request file, an endpoint node, the active request file, or one picked. */
  async run(arg: RunTarget, mode: RunMode): Promise<void> {
    if (arg instanceof vscode.Uri) return this.runFile(arg, mode, false);
    if (arg?.endpoint) return this.runOnEndpoint(arg.endpoint, mode);
    const active = activeRequestFile();
    if (active) return this.runFile(active, mode, false);
    const files = await findRequestFiles();
    if (files.length === 0) {
      const endpoint = await this.targets.pick({ kind: 'QUEUE', title: 'No request files here: run an input on which endpoint?' });
      return endpoint && this.runOnEndpoint(endpoint, mode);
    }
    const picked = await vscode.window.showQuickPick(
      files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
      { title: 'Run which request file?' },
    );
    if (picked) await this.runFile(picked.uri, mode, false);
  }

  /** Runs a request file on an endpoint chosen now, rather than the one it would run on. */
  async runOn(arg: unknown): Promise<void> {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    if (uri && isRequestFile(uri.path)) return this.runFile(uri, 'run', true);
    return this.run(undefined, 'run');
  }

  async runLast(node: EndpointNodeArg | undefined): Promise<void> {
    const endpoint = node?.endpoint ?? (await this.targets.pick({ kind: 'QUEUE', title: 'Run the last input on which endpoint?' }));
    if (!endpoint || this.refuseLoadBalancer(endpoint)) return;
    const last = this.targets.lastRequest(endpoint.id);
    if (!last)
      return void vscode.window.showInformationMessage(
        `No input was sent to ${endpoint.name} from this workspace yet; run a request file on it first`,
      );
    await this.submit(endpoint, last, 'run', 'last used input');
  }

  async cancel(ref: unknown): Promise<void> {
    const job = isJobRef(ref) ? ref : await this.pickJob((t) => t.controller !== undefined, 'Cancel which job?');
    if (job) await this.jobs.cancel(job.endpointId, job.endpointName, job.jobId);
  }

  async retry(ref: unknown): Promise<void> {
    const job = isJobRef(ref)
      ? ref
      : await this.pickJob(
          (t) => !t.controller && (t.record.status === 'FAILED' || t.record.status === 'TIMED_OUT'),
          'Retry which failed or timed-out job?',
        );
    if (job) await this.jobs.retry(job.endpointId, job.endpointName, job.jobId);
  }

  async purgeQueue(node: EndpointNodeArg | undefined): Promise<void> {
    const endpoint = node?.endpoint ?? (await this.targets.pick({ kind: 'QUEUE', title: 'Purge the queue of which endpoint?' }));
    if (endpoint) await this.healthActions.purge(endpoint);
  }

  async health(node: EndpointNodeArg | undefined): Promise<void> {
    const endpoint = node?.endpoint ?? (await this.targets.pick({ kind: 'any', title: 'Health of which endpoint?' }));
    if (endpoint) await this.healthActions.show(endpoint);
  }

  async pingHealth(node: EndpointNodeArg | undefined): Promise<void> {
    const endpoint =
      node?.endpoint ?? (await this.targets.pick({ kind: 'LOAD_BALANCER', title: 'Ping the health URL of which load balancer?' }));
    if (endpoint) await this.healthActions.pingAndReport(endpoint);
  }

  /**
   * One job on an endpoint's new release, passed only when it completed there: a request file on its
   * endpoint (the lens), or an endpoint (a finished rollout, the palette) with a request file or input chosen.
   */
  async smokeCheck(arg: unknown): Promise<void> {
    if (isEndpointRef(arg)) {
      const endpoint = await this.targets.read({ id: arg.endpointId, name: arg.endpointName ?? arg.endpointId });
      return endpoint && this.smokeEndpoint(endpoint);
    }
    const uri = arg instanceof vscode.Uri ? arg : activeRequestFile();
    if (!uri) {
      const endpoint = await this.targets.pick({ kind: 'QUEUE', title: 'Smoke check which endpoint?' });
      return endpoint && this.smokeEndpoint(endpoint);
    }
    const request = await this.requestOf(uri, 'Smoke check');
    const endpoint = request && (await this.targets.resolve(uri, false));
    if (request && endpoint && !this.refuseLoadBalancer(endpoint)) await runSmokeCheck(this.session, endpoint, request);
  }

  private async smokeEndpoint(endpoint: Endpoint): Promise<void> {
    if (this.refuseLoadBalancer(endpoint)) return;
    const request = await this.smokeRequest(endpoint);
    if (request) await runSmokeCheck(this.session, endpoint, request);
  }

  /** Runs a request file against its endpoint (asking when there is none, or when `choose`). */
  private async runFile(uri: vscode.Uri, mode: RunMode, choose: boolean, endpoint?: Endpoint): Promise<void> {
    const request = await this.requestOf(uri, 'Run');
    if (!request) return;
    const target = endpoint ?? (await this.targets.resolve(uri, choose));
    if (!target) return;
    if (endpoint) await this.targets.remember(uri, endpoint);
    await this.submit(target, request, mode, vscode.workspace.asRelativePath(uri));
  }

  /** The request a file holds; undefined, said, when it is not a valid one. */
  private async requestOf(uri: vscode.Uri, action: string): Promise<JobRequest | undefined> {
    const document = await vscode.workspace.openTextDocument(uri);
    const parsed = parseRequestText(document.getText());
    if (parsed.ok) return parsed.request;
    const more = parsed.problems.length > 1 ? ` (and ${parsed.problems.length - 1} more)` : '';
    void vscode.window.showErrorMessage(
      `${action} failed: ${vscode.workspace.asRelativePath(uri)} is not a valid request: ${parsed.problems[0]}${more}`,
    );
    return undefined;
  }

  /**
   * The request to smoke check an endpoint with: the one request file that runs on it, else the file or the
   * last used input the user picks (the files that run on it first).
   */
  private async smokeRequest(endpoint: Endpoint): Promise<JobRequest | undefined> {
    const files = (await findRequestFiles()).sort((a, b) => a.fsPath.localeCompare(b.fsPath));
    const own = files.filter((uri) => this.targets.known(uri)?.id === endpoint.id);
    if (own.length === 1) return this.requestOf(own[0], 'Smoke check');
    const last = this.targets.lastRequest(endpoint.id);
    type Item = vscode.QuickPickItem & { request: () => Promise<JobRequest | undefined> };
    const items: Item[] = [
      ...[...own, ...files.filter((uri) => !own.includes(uri))].map((uri): Item => ({
        label: `$(file) ${vscode.workspace.asRelativePath(uri)}`,
        request: () => this.requestOf(uri, 'Smoke check'),
      })),
      ...(last ? [{ label: '$(history) Last used input', detail: preview(last), request: () => Promise.resolve(last) }] : []),
    ];
    if (items.length === 0)
      return void vscode.window.showInformationMessage(
        `No request to smoke check ${endpoint.name} with: write a *.request.json file (its job input) beside the spec`,
      );
    const picked = await vscode.window.showQuickPick(items, { title: `Smoke check ${endpoint.name} with which request?` });
    return picked?.request();
  }

  /** A load balancer has no queue: says where its requests go instead of letting the service refuse. */
  private refuseLoadBalancer(endpoint: Endpoint): boolean {
    if (endpointType(endpoint) !== 'LOAD_BALANCER') return false;
    void vscode.window
      .showInformationMessage(
        `${endpoint.name} is a load balancer: it has no job queue, requests go to the worker's own paths under its base URL`,
        'Ping Health',
      )
      .then((choice) => {
        if (choice) void this.healthActions.pingAndReport(endpoint);
      });
    return true;
  }

  private async submit(endpoint: Endpoint, request: JobRequest, mode: RunMode, source: string): Promise<void> {
    if (this.refuseLoadBalancer(endpoint)) return;
    await this.targets.rememberRequest(endpoint.id, request);
    noteJobSubmitted();
    await this.jobs.submit(endpoint, request, mode, source);
  }

  /** From the Endpoints view or the palette: which request to send to an endpoint. */
  private async runOnEndpoint(endpoint: Endpoint, mode: RunMode): Promise<void> {
    if (this.refuseLoadBalancer(endpoint)) return;
    const last = this.targets.lastRequest(endpoint.id);
    const files = await findRequestFiles();
    type Item = vscode.QuickPickItem & { run: () => Promise<void> };
    const items: Item[] = [
      ...files
        .sort((a, b) => a.fsPath.localeCompare(b.fsPath))
        .map((uri): Item => ({
          label: `$(file) ${vscode.workspace.asRelativePath(uri)}`,
          run: () => this.runFile(uri, mode, false, endpoint),
        })),
      ...(last
        ? [{ label: '$(history) Last used input', detail: preview(last), run: () => this.submit(endpoint, last, mode, 'last used input') }]
        : []),
      {
        label: '$(edit) Type an input…',
        detail: "A JSON value, sent as the request's input",
        run: async () => {
          const typed = await askInput(endpoint, last);
          if (typed) await this.submit(endpoint, typed, mode, 'typed input');
        },
      },
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: `${mode === 'runsync' ? 'runsync' : 'Run'} on ${endpoint.name}: which request?`,
      matchOnDetail: false,
    });
    await picked?.run();
  }

  /** A job of this window matching `filter`, or one named by endpoint and id. */
  private async pickJob(filter: (t: TrackedJob) => boolean, title: string): Promise<JobRef | undefined> {
    type Item = vscode.QuickPickItem & { ref?: JobRef };
    const items: Item[] = this.docs.list(filter).flatMap(jobItems);
    items.push({ label: '$(search) A job by its id…', description: 'submitted elsewhere' });
    const picked = await vscode.window.showQuickPick(items, { title });
    if (!picked) return undefined;
    if (picked.ref) return picked.ref;
    const endpoint = await this.targets.pick({ kind: 'QUEUE', title: `${title}: on which endpoint?` });
    if (!endpoint) return undefined;
    const jobId = await vscode.window.showInputBox({
      title: `${title}: job id on ${endpoint.name}`,
      validateInput: (v) => (v.trim() === '' ? 'a job id' : undefined),
    });
    return jobId ? { endpointId: endpoint.id, endpointName: endpoint.name, jobId: jobId.trim() } : undefined;
  }
}

function activeRequestFile(): vscode.Uri | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  return active && isRequestFile(active.path) ? active : undefined;
}

function isEndpointRef(value: unknown): value is EndpointRefArg {
  return typeof value === 'object' && value !== null && typeof (value as EndpointRefArg).endpointId === 'string';
}

function findRequestFiles(): Thenable<vscode.Uri[]> {
  return vscode.workspace.findFiles(REQUEST_FILE_GLOB, '**/node_modules/**', 200);
}

/** A tracked job as the job picker lists it: none for a submission the service has not named yet. */
function jobItems({ record }: TrackedJob): (vscode.QuickPickItem & { ref: JobRef })[] {
  const { jobId } = record;
  if (jobId === undefined) return [];
  return [
    {
      label: jobId,
      description: `${record.endpointName} · ${record.status}`,
      detail: record.source,
      ref: { endpointId: record.endpointId, endpointName: record.endpointName, jobId },
    },
  ];
}

/** A JSON input typed for `endpoint`, starting from the last one sent; undefined when dismissed. */
async function askInput(endpoint: Endpoint, last: JobRequest | undefined): Promise<JobRequest | undefined> {
  const text = await vscode.window.showInputBox({
    title: `Input for ${endpoint.name}`,
    prompt: 'A JSON value; the handler receives it as job["input"]',
    value: JSON.stringify(last?.input ?? {}),
    validateInput: (value) => {
      try {
        return JSON.parse(value) === null ? 'the input must not be null' : undefined;
      } catch (error) {
        return `not JSON: ${(error as Error).message}`;
      }
    },
  });
  return text === undefined ? undefined : { input: JSON.parse(text) as unknown };
}

function isJobRef(value: unknown): value is JobRef {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as JobRef).jobId === 'string' &&
    typeof (value as JobRef).endpointId === 'string'
  );
}

/** One line of a request for a quick pick: its input, cut short. */
function preview(request: JobRequest): string {
  const text = JSON.stringify(request.input);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
