/**
 * Worker logs in the bottom panel: `Open Worker Logs` (one worker) and `Open Endpoint Logs` (all
 * workers of an endpoint merged, each row tagged with worker and source), from the Endpoints tree's
 * context menu or from the Command Palette with quick picks; other features open one worker or a chosen
 * set of workers merged (`openWorkersLogs`).
 */
import * as vscode from 'vscode';
import type { Endpoint, Worker } from '../../core/api';
import type { Session } from '../auth/session';
import { pickEndpoint } from '../jobs/targets';
import type { LogTarget } from './follower';
import { LOGS_VIEW, LogsView } from './panel';
import { noteLogsOpened } from '../walkthrough';

/** The Endpoints tree's endpoint and worker nodes, as far as logs need them. */
interface TreeNodeArg {
  kind?: unknown;
  endpoint?: Endpoint;
  worker?: Worker;
}

/**
 * What other features pass to `endpointStudio.logs.openWorker` to link to a worker's logs (a
 * failed job links to the worker that ran it): `executeCommand('endpointStudio.logs.openWorker',
 * { endpointId, workerId, endpointName })`.
 */
export interface WorkerRef {
  endpointId: string;
  workerId: string;
  endpointName?: string;
}

/** Several workers of one endpoint, their logs merged: what `openWorkersLogs` takes. */
export interface WorkersRef {
  endpointId: string;
  workerIds: readonly string[];
  endpointName?: string;
}

/** Opens the Logs panel on one worker, or on exactly these workers of an endpoint, merged (a stalled rollout's workers, say). */
export function openWorkersLogs(ref: WorkerRef | WorkersRef): Thenable<unknown> {
  return vscode.commands.executeCommand('endpointStudio.logs.openWorker', ref);
}

/** What another feature passed, checked: its endpoint's workers, one or several; undefined when it is malformed. */
function refTarget(ref: WorkerRef | WorkersRef): LogTarget | undefined {
  if (typeof ref.endpointId !== 'string' || ref.endpointId === '') return undefined;
  const endpointName = typeof ref.endpointName === 'string' ? ref.endpointName : ref.endpointId;
  if ('workerIds' in ref) {
    const ids = Array.isArray(ref.workerIds) ? ref.workerIds.filter((id) => typeof id === 'string' && id !== '') : [];
    return ids.length === 0 ? undefined : { endpointId: ref.endpointId, workerIds: ids, endpointName };
  }
  if (typeof ref.workerId !== 'string' || ref.workerId === '') return undefined;
  return { endpointId: ref.endpointId, workerId: ref.workerId, endpointName };
}

export function registerLogs(context: vscode.ExtensionContext, session: Session, log: vscode.LogOutputChannel): vscode.Disposable {
  const view = new LogsView(context.extensionUri, session, log);

  const open = async (target: LogTarget | undefined): Promise<void> => {
    if (!target) return;
    noteLogsOpened();
    await view.open(target);
  };

  return vscode.Disposable.from(
    view,
    vscode.window.registerWebviewViewProvider(LOGS_VIEW, view),
    vscode.commands.registerCommand('endpointStudio.logs.openWorker', async (node?: TreeNodeArg | WorkerRef | WorkersRef) => {
      if (node && ('workerIds' in node || 'workerId' in node)) return open(refTarget(node));
      if (node?.kind === 'worker' && node.endpoint && node.worker)
        return open({ endpointId: node.endpoint.id, endpointName: node.endpoint.name, workerId: node.worker.id });
      const endpoint = node?.endpoint ?? (await pickEndpoint(session, PICK_ENDPOINT));
      if (!endpoint) return;
      const worker = await pickWorker(session, endpoint);
      if (worker) await open({ endpointId: endpoint.id, endpointName: endpoint.name, workerId: worker.id });
    }),
    vscode.commands.registerCommand('endpointStudio.logs.openEndpoint', async (node?: TreeNodeArg) => {
      const endpoint = node?.endpoint ?? (await pickEndpoint(session, PICK_ENDPOINT));
      if (endpoint) await open({ endpointId: endpoint.id, endpointName: endpoint.name });
    }),
  );
}

/**
 * The pickers stay open when the focus moves: run from the walkthrough's button, they would otherwise close as
 * the walkthrough page gives its step the focus again a moment later (VS Code 1.139), the workers still loading.
 */
const KEEP_PICKER_OPEN = true;

const PICK_ENDPOINT = { title: 'Logs: choose an endpoint', signIn: 'Sign in to read worker logs', keepOpen: KEEP_PICKER_OPEN };

async function pickWorker(session: Session, endpoint: Endpoint): Promise<Worker | undefined> {
  const api = session.api;
  if (!api) return undefined;
  const items = (async () => {
    try {
      const list = await api.serverless.workers(endpoint.id);
      if (list.workers.length === 0)
        void vscode.window.showInformationMessage(`${endpoint.name} has no workers running; open the endpoint's logs to wait for one`);
      return list.workers.map((worker) => ({
        label: worker.id,
        description: worker.status,
        detail: [worker.gpuTypeId, worker.dataCenterId, worker.version != null ? `v${worker.version}` : undefined]
          .filter(Boolean)
          .join(' · '),
        worker,
      }));
    } catch (error) {
      session.reportError(`Listing the workers of ${endpoint.name}`, error);
      return [];
    }
  })();
  const picked = await vscode.window.showQuickPick(items, {
    title: `Logs: choose a worker of ${endpoint.name}`,
    placeHolder: 'Worker id',
    ignoreFocusOut: KEEP_PICKER_OPEN,
  });
  return picked?.worker;
}
