/**
 * An endpoint's health and queue: the health document of a queue endpoint (jobs and workers by
 * state), a load balancer's `base` and `health` URLs with a ping of the latter (answer and
 * latency), and purging a queue behind a modal confirmation that names the endpoint.
 */
import * as vscode from 'vscode';
import type { Endpoint, LoadBalancerRequestUrls } from '../../core/api';
import type { HealthPing } from '../../core/api/jobs';
import type { Session } from '../auth/session';
import { endpointType } from '../explorer/endpointFacts';
import { formatHealth, formatLoadBalancer, pingSummary } from './format';
import { openBeside, type JobDocuments } from './results';

export class EndpointHealthActions {
  constructor(
    private readonly session: Session,
    private readonly docs: JobDocuments,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Queue endpoint: jobs and workers by state. Load balancer: its URLs and a ping. */
  async show(endpoint: Endpoint): Promise<void> {
    const api = this.session.api;
    if (!api) return void vscode.window.showWarningMessage('Sign in to read endpoint health');
    if (endpointType(endpoint) === 'LOAD_BALANCER') {
      const urls = lbUrlsOrWarn(endpoint);
      if (!urls) return;
      const ping = await this.ping(endpoint, urls);
      const uri = this.docs.show(
        endpoint.name,
        'health.md',
        formatLoadBalancer(endpoint, urls, 'status' in ping ? ping : { error: ping.error }, new Date()),
      );
      await openBeside(uri, 'markdown');
      return;
    }
    try {
      const health = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: `Reading the health of ${endpoint.name}` },
        () => api.jobs.health(endpoint.id),
      );
      const uri = this.docs.show(endpoint.name, 'health.md', formatHealth(endpoint, health, new Date()));
      await openBeside(uri, 'markdown');
    } catch (error) {
      this.session.reportError(`Reading the health of ${endpoint.name}`, error);
    }
  }

  /** Pings a load balancer's health URL and says what it answered, how fast. */
  async pingAndReport(endpoint: Endpoint): Promise<void> {
    if (endpointType(endpoint) !== 'LOAD_BALANCER') return this.show(endpoint);
    const urls = lbUrlsOrWarn(endpoint);
    if (!urls) return;
    const ping = await this.ping(endpoint, urls);
    if (!('status' in ping)) return;
    const message = `Health of ${endpoint.name}: ${pingSummary(ping)}`;
    const shown = ping.ok
      ? vscode.window.showInformationMessage(message, 'Show URLs')
      : vscode.window.showWarningMessage(message, 'Show URLs');
    void shown.then((choice) => {
      if (choice) void this.show(endpoint);
    });
  }

  private async ping(endpoint: Endpoint, urls: LoadBalancerRequestUrls): Promise<HealthPing | { error: string }> {
    const api = this.session.api;
    if (!api) return { error: 'signed out' };
    try {
      const ping = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: `Pinging the health URL of ${endpoint.name}` },
        () => api.jobs.pingHealth(urls.health, { timeoutMs: 30_000 }),
      );
      this.log.info(`jobs: health of ${endpoint.name}: ${pingSummary(ping)}`);
      return ping;
    } catch (error) {
      this.session.reportError(`Pinging the health URL of ${endpoint.name}`, error);
      return { error: this.session.redact(error instanceof Error ? error.message : String(error)) };
    }
  }

  /** Asks first, naming the endpoint; jobs in progress are not touched. */
  async purge(endpoint: Endpoint): Promise<void> {
    const api = this.session.api;
    if (!api) return void vscode.window.showWarningMessage('Sign in to purge a queue');
    if (endpointType(endpoint) !== 'QUEUE')
      return void vscode.window.showInformationMessage(`${endpoint.name} is a load balancer: it has no queue to purge`);
    const choice = await vscode.window.showWarningMessage(
      `Purge the queue of ${endpoint.name}?`,
      {
        modal: true,
        detail: `Every job waiting in the queue of ${endpoint.name} (${endpoint.id}) is removed and will not run. Jobs in progress keep running.`,
      },
      'Purge Queue',
    );
    if (choice !== 'Purge Queue') return;
    try {
      const result = await api.jobs.purgeQueue(endpoint.id);
      this.log.info(`jobs: purged the queue of ${endpoint.name} (${endpoint.id}): ${result.removed} removed`);
      void vscode.window.showInformationMessage(`Purged the queue of ${endpoint.name}; jobs removed: ${result.removed}`);
    } catch (error) {
      this.session.reportError(`Purging the queue of ${endpoint.name}`, error);
    }
  }
}

/** A load balancer's URLs; while the service has not given them, a warning says so and the answer is undefined. */
function lbUrlsOrWarn(endpoint: Endpoint): LoadBalancerRequestUrls | undefined {
  const urls = endpoint.requestUrls;
  if (urls && 'base' in urls && typeof urls.health === 'string') return urls;
  void vscode.window.showWarningMessage(`${endpoint.name} has no request URLs yet; refresh the Endpoints view: ${endpoint.id}`);
  return undefined;
}
