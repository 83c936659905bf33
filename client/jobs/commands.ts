/**
 * The job console's commands. Each takes what it was invoked on: a request file (CodeLens, editor
 * title, Explorer), an endpoint node of the Endpoints view, or a job of a result document; from the
 * Command Palette it uses the active request file or asks.
 */
import * as vscode from 'vscode';
import type { Endpoint, JobRequest } from '../../core/api';
import { endpointType } from '../explorer/endpointFacts';
import type { JobConsole } from './console';
import type { EndpointHealthActions } from './health';
import { REQUEST_FILE_GLOB, isRequestFile, parseRequestText } from './requestFile';
import type { JobDocuments, TrackedJob } from './results';
import type { RunMode } from './runner';
import type { JobTargets } from './targets';

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

export function registerJobCommands(
  jobs: JobConsole,
  targets: JobTargets,
  docs: JobDocuments,
  health: EndpointHealthActions,
): vscode.Disposable {
  /** Runs a request file against its endpoint (asking when there is none, or when `choose`). */
  async function runFile(uri: vscode.Uri, mode: RunMode, choose: boolean, endpoint?: Endpoint): Promise<void> {
    const document = await vscode.workspace.openTextDocument(uri);
    const name = vscode.workspace.asRelativePath(uri);
    const parsed = parseRequestText(document.getText());
    if (!parsed.ok) {
      const more = parsed.problems.length > 1 ? ` (and ${parsed.problems.length - 1} more)` : '';
      return void vscode.window.showErrorMessage(`Run failed: ${name} is not a valid request: ${parsed.problems[0]}${more}`);
    }
    const target = endpoint ?? (await targets.resolve(uri, choose));
    if (!target) return;
    if (endpoint) await targets.remember(uri, endpoint);
    await submit(target, parsed.request, mode, name);
  }

  /** A load balancer has no queue: says where its requests go instead of letting the service refuse. */
  function refuseLoadBalancer(endpoint: Endpoint): boolean {
    if (endpointType(endpoint) !== 'LOAD_BALANCER') return false;
    void vscode.window
      .showInformationMessage(
        `${endpoint.name} is a load balancer: it has no job queue, requests go to the worker's own paths under its base URL`,
        'Ping Health',
      )
      .then((choice) => {
        if (choice) void health.pingAndReport(endpoint);
      });
    return true;
  }

  async function submit(endpoint: Endpoint, request: JobRequest, mode: RunMode, source: string): Promise<void> {
    if (refuseLoadBalancer(endpoint)) return;
    await targets.rememberRequest(endpoint.id, request);
    await jobs.submit(endpoint, request, mode, source);
  }

  /** From the Endpoints view or the palette: which request to send to an endpoint. */
  async function runOnEndpoint(endpoint: Endpoint, mode: RunMode): Promise<void> {
    if (refuseLoadBalancer(endpoint)) return;
    const last = targets.lastRequest(endpoint.id);
    const files = await vscode.workspace.findFiles(REQUEST_FILE_GLOB, '**/node_modules/**', 200);
    type Item = vscode.QuickPickItem & { run: () => Promise<void> };
    const items: Item[] = [
      ...files
        .sort((a, b) => a.fsPath.localeCompare(b.fsPath))
        .map((uri): Item => ({ label: `$(file) ${vscode.workspace.asRelativePath(uri)}`, run: () => runFile(uri, mode, false, endpoint) })),
      ...(last
        ? [{ label: '$(history) Last used input', detail: preview(last), run: () => submit(endpoint, last, mode, 'last used input') }]
        : []),
      { label: '$(edit) Type an input…', detail: "A JSON value, sent as the request's input", run: () => typedInput(endpoint, mode, last) },
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: `${mode === 'runsync' ? 'runsync' : 'Run'} on ${endpoint.name}: which request?`,
      matchOnDetail: false,
    });
    await picked?.run();
  }

  async function typedInput(endpoint: Endpoint, mode: RunMode, last: JobRequest | undefined): Promise<void> {
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
    if (text !== undefined) await submit(endpoint, { input: JSON.parse(text) as unknown }, mode, 'typed input');
  }

  async function run(arg: RunTarget, mode: RunMode): Promise<void> {
    if (arg instanceof vscode.Uri) return runFile(arg, mode, false);
    if (arg?.endpoint) return runOnEndpoint(arg.endpoint, mode);
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active && isRequestFile(active.path)) return runFile(active, mode, false);
    const files = await vscode.workspace.findFiles(REQUEST_FILE_GLOB, '**/node_modules/**', 200);
    if (files.length === 0) {
      const endpoint = await targets.pick({ kind: 'QUEUE', title: 'No request files here: run an input on which endpoint?' });
      return endpoint && runOnEndpoint(endpoint, mode);
    }
    const picked = await vscode.window.showQuickPick(
      files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
      { title: 'Run which request file?' },
    );
    if (picked) await runFile(picked.uri, mode, false);
  }

  async function endpointOf(
    node: EndpointNodeArg | undefined,
    kind: 'QUEUE' | 'LOAD_BALANCER' | 'any',
    title: string,
  ): Promise<Endpoint | undefined> {
    return node?.endpoint ?? targets.pick({ kind, title });
  }

  /** A job of this window matching `filter`, or one named by endpoint and id. */
  async function pickJob(filter: (t: TrackedJob) => boolean, title: string): Promise<JobRef | undefined> {
    type Item = vscode.QuickPickItem & { ref?: JobRef };
    const items: Item[] = docs
      .list((t) => t.record.jobId !== undefined && filter(t))
      .map((t) => ({
        label: t.record.jobId as string,
        description: `${t.record.endpointName} · ${t.record.status}`,
        detail: t.record.source,
        ref: { endpointId: t.record.endpointId, endpointName: t.record.endpointName, jobId: t.record.jobId as string },
      }));
    items.push({ label: '$(search) A job by its id…', description: 'submitted elsewhere' });
    const picked = await vscode.window.showQuickPick(items, { title });
    if (!picked) return undefined;
    if (picked.ref) return picked.ref;
    const endpoint = await targets.pick({ kind: 'QUEUE', title: `${title}: on which endpoint?` });
    if (!endpoint) return undefined;
    const jobId = await vscode.window.showInputBox({
      title: `${title}: job id on ${endpoint.name}`,
      validateInput: (v) => (v.trim() === '' ? 'a job id' : undefined),
    });
    return jobId ? { endpointId: endpoint.id, endpointName: endpoint.name, jobId: jobId.trim() } : undefined;
  }

  const isRef = (value: unknown): value is JobRef =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as JobRef).jobId === 'string' &&
    typeof (value as JobRef).endpointId === 'string';

  return vscode.Disposable.from(
    vscode.commands.registerCommand('endpointStudio.jobs.run', (arg?: RunTarget) => run(arg, 'run')),
    vscode.commands.registerCommand('endpointStudio.jobs.runSync', (arg?: RunTarget) => run(arg, 'runsync')),
    vscode.commands.registerCommand('endpointStudio.jobs.runOn', async (arg?: vscode.Uri) => {
      const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
      if (uri && isRequestFile(uri.path)) return runFile(uri, 'run', true);
      return run(undefined, 'run');
    }),
    vscode.commands.registerCommand('endpointStudio.jobs.runLast', async (node?: EndpointNodeArg) => {
      const endpoint = await endpointOf(node, 'QUEUE', 'Run the last input on which endpoint?');
      if (!endpoint || refuseLoadBalancer(endpoint)) return;
      const last = targets.lastRequest(endpoint.id);
      if (!last)
        return void vscode.window.showInformationMessage(
          `No input was sent to ${endpoint.name} from this workspace yet; run a request file on it first`,
        );
      await submit(endpoint, last, 'run', 'last used input');
    }),
    vscode.commands.registerCommand('endpointStudio.jobs.cancel', async (ref?: JobRef) => {
      const job = isRef(ref) ? ref : await pickJob((t) => t.controller !== undefined, 'Cancel which job?');
      if (job) await jobs.cancel(job.endpointId, job.endpointName, job.jobId);
    }),
    vscode.commands.registerCommand('endpointStudio.jobs.retry', async (ref?: JobRef) => {
      const job = isRef(ref)
        ? ref
        : await pickJob(
            (t) => !t.controller && (t.record.status === 'FAILED' || t.record.status === 'TIMED_OUT'),
            'Retry which failed or timed-out job?',
          );
      if (job) await jobs.retry(job.endpointId, job.endpointName, job.jobId);
    }),
    vscode.commands.registerCommand('endpointStudio.jobs.purgeQueue', async (node?: EndpointNodeArg) => {
      const endpoint = await endpointOf(node, 'QUEUE', 'Purge the queue of which endpoint?');
      if (endpoint) await health.purge(endpoint);
    }),
    vscode.commands.registerCommand('endpointStudio.jobs.health', async (node?: EndpointNodeArg) => {
      const endpoint = await endpointOf(node, 'any', 'Health of which endpoint?');
      if (endpoint) await health.show(endpoint);
    }),
    vscode.commands.registerCommand('endpointStudio.jobs.pingHealth', async (node?: EndpointNodeArg) => {
      const endpoint = await endpointOf(node, 'LOAD_BALANCER', 'Ping the health URL of which load balancer?');
      if (endpoint) await health.pingAndReport(endpoint);
    }),
  );
}

/** One line of a request for a quick pick: its input, cut short. */
function preview(request: JobRequest): string {
  const text = JSON.stringify(request.input);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
