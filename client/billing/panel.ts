/**
 * The billing panel: an editor tab with a form that mirrors the command-line client's flags, a
 * stacked bar chart by time bucket, with a marker at each release of the endpoints in view (a change in
 * cost usually follows a deploy), and the table with totals under it. The extension reads the service
 * and shapes the answer; the webview only draws what it is sent and reports the form.
 * Only one request is in flight: a new query aborts the previous one, whose answer is dropped.
 */
import * as vscode from 'vscode';
import { webviewHtml } from '../webviewPage';
import { MAX_LAST_N, type BillingRequest, type BillingResponse } from '../../core/billing/query';
import { queryBilling } from '../../core/operations';
import { BUCKET_SIZES } from '../../core/billing/buckets';
import { billingCsv, csvFileName } from '../../core/billing/csv';
import { shapeBilling, withGroupNames, type BillingTable } from '../../core/billing/series';
import type { ApiClient, Endpoint } from '../../core/api';
import type { Session } from '../auth/session';
import { kindDescriptions, parseWebviewMessage, type PanelQuery, type ToWebview } from './messages';
import { markedEndpoints, releaseMarkers, type EndpointReleases, type ReleaseMarker } from './markers';
import { defaultQuery, MAX_SERIES, normalizeQuery, panelView, requestOf } from './view';

export const BILLING_PANEL = 'endpointStudio.billingPanel';
/** Set while the panel holds an answer that can be exported. */
export const HAS_DATA_KEY = 'endpointStudio.billing.hasData';

export class BillingPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private query: PanelQuery = defaultQuery();
  private last: { request: BillingRequest; response: BillingResponse } | undefined;
  private lastMessage: ToWebview | undefined;
  private inflight: AbortController | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly session: Session,
    private readonly log: vscode.LogOutputChannel,
  ) {
    // Another profile is another account: what the panel shows is no longer theirs.
    this.disposables.push(
      session.onDidChange(() => {
        if (this.panel) this.run();
      }),
    );
  }

  /** Shows the panel (creating it once) and reads `query`, or the current query with `changes`. */
  open(changes: Partial<PanelQuery> = {}, fresh = false): void {
    this.query = normalizeQuery({ ...(fresh ? defaultQuery(changes.kind ?? this.query.kind) : this.query), ...changes });
    if (this.panel) {
      this.panel.reveal(undefined, false);
      this.post({ type: 'init', query: this.query, kinds: kindDescriptions(), bucketSizes: [...BUCKET_SIZES], maxLastN: MAX_LAST_N });
      this.run();
      return;
    }
    const media = vscode.Uri.joinPath(this.extensionUri, 'media', 'billing');
    const panel = vscode.window.createWebviewPanel(BILLING_PANEL, 'Billing', vscode.ViewColumn.Active, {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [media],
    });
    panel.webview.html = webviewHtml(panel.webview, media, { title: 'Billing', script: 'billing.js', style: 'billing.css', body: BODY });
    this.panel = panel;
    const subscriptions = [
      panel.webview.onDidReceiveMessage((raw: unknown) => {
        this.receive(raw);
      }),
      panel.onDidDispose(() => {
        this.inflight?.abort();
        this.panel = undefined;
        this.last = undefined;
        this.lastMessage = undefined;
        void vscode.commands.executeCommand('setContext', HAS_DATA_KEY, false);
        for (const d of subscriptions) d.dispose();
      }),
    ];
  }

  private receive(raw: unknown): void {
    const message = parseWebviewMessage(raw);
    if (!message) {
      this.log.warn('billing panel: ignored a message of unknown shape from the webview');
      return;
    }
    switch (message.type) {
      case 'ready':
        // A webview that was hidden and shown again starts blank: give it the form and the last answer.
        this.post({ type: 'init', query: this.query, kinds: kindDescriptions(), bucketSizes: [...BUCKET_SIZES], maxLastN: MAX_LAST_N });
        if (this.lastMessage && !this.inflight) {
          this.post(this.lastMessage);
          return;
        }
        this.run();
        return;
      case 'query':
        this.query = normalizeQuery(message.query);
        this.run();
        return;
      case 'exportCsv':
        return void this.exportCsv();
    }
  }

  /** Reads the current query; the answer (or the reason there is none) goes to the webview. */
  private run(): void {
    this.inflight?.abort();
    this.inflight = undefined;
    const api = this.session.api;
    if (!api) {
      this.settle({ type: 'error', message: 'billing needs a signed-in profile: sign in, or use the local emulator', retry: false });
      return;
    }
    const checked = requestOf(this.query);
    if ('error' in checked) {
      this.settle({ type: 'error', message: `billing query invalid: ${checked.error}`, retry: false });
      return;
    }
    const { request } = checked;
    const controller = new AbortController();
    this.inflight = controller;
    this.post({ type: 'loading', query: this.query });
    // Grouped by endpoint, the chart names endpoints; the list is read alongside, and is optional.
    const byEndpoint = request.kind === 'serverless' && request.grouping === 'endpointId';
    const listed = byEndpoint
      ? api.serverless.list({ signal: controller.signal }).then(
          (list) => new Map(list.map((e) => [e.id, e])),
          () => new Map<string, Endpoint>(),
        )
      : Promise.resolve(new Map<string, Endpoint>());
    void Promise.all([queryBilling(api, request, { signal: controller.signal }), listed]).then(async ([result, endpoints]) => {
      if (!this.answers(controller)) return;
      if (!result.ok) {
        this.inflight = undefined;
        this.log.warn(`billing failed: ${result.message}`);
        const hint = result.status === 401 ? ' (the service rejected the key: sign in again)' : '';
        this.settle({ type: 'error', message: `billing failed: ${result.message}${hint}`, retry: true });
        return;
      }
      const { response } = result;
      const names = new Map([...endpoints].map(([id, e]) => [id, e.name]));
      const table = withGroupNames(shapeBilling(request.kind, request.grouping, response), names);
      const markers = await this.releaseMarkers(api, request, table, endpoints, controller.signal);
      if (!this.answers(controller)) return;
      this.inflight = undefined;
      this.last = { request, response };
      void vscode.commands.executeCommand('setContext', HAS_DATA_KEY, true);
      this.settle({ type: 'data', view: panelView(request, table, markers), canExport: response.records.length > 0 });
    });
  }

  /** Whether `controller`'s query is still the one to answer (a newer query aborts it). */
  private answers(controller: AbortController): boolean {
    return this.inflight === controller && !controller.signal.aborted;
  }

  /** The releases of the endpoints in view as chart markers; an endpoint whose releases cannot be read gets none. */
  private async releaseMarkers(
    api: ApiClient,
    request: BillingRequest,
    table: BillingTable,
    endpoints: ReadonlyMap<string, Endpoint>,
    signal: AbortSignal,
  ): Promise<ReleaseMarker[]> {
    const read = await Promise.all(
      markedEndpoints(request, table, MAX_SERIES).map((id) =>
        api.serverless.releases(id, { signal }).then(
          (list): EndpointReleases => ({
            endpointId: id,
            name: endpoints.get(id)?.name,
            scalingType: endpoints.get(id)?.scaling.type,
            releases: list.releases,
          }),
          (error: unknown) => {
            if (!signal.aborted)
              this.log.warn(
                `billing chart: the releases of ${id} are not marked: ${this.session.redact(error instanceof Error ? error.message : String(error))}`,
              );
            return undefined;
          },
        ),
      ),
    );
    return releaseMarkers(
      table.buckets,
      read.filter((r) => r !== undefined),
    );
  }

  private settle(message: ToWebview): void {
    this.lastMessage = message;
    this.post(message);
  }

  /** Writes the records of the last answer as CSV where the user chooses. */
  async exportCsv(): Promise<void> {
    const last = this.last;
    if (!last)
      return void vscode.window.showInformationMessage(
        'Open the billing chart and load some billing first; the export writes what it shows',
      );
    const base = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = csvFileName(last.request.kind, last.response);
    const uri = await vscode.window.showSaveDialog({
      defaultUri: base ? vscode.Uri.joinPath(base, name) : undefined,
      filters: { CSV: ['csv'] },
      title: `Export ${last.response.records.length} billing record(s)`,
    });
    if (!uri) return;
    try {
      await vscode.workspace.fs.writeFile(uri, Buffer.from(billingCsv(last.request.kind, last.request.grouping, last.response), 'utf8'));
      vscode.window.setStatusBarMessage(
        `$(export) Exported ${last.response.records.length} billing record(s) to ${vscode.workspace.asRelativePath(uri)}`,
        4000,
      );
    } catch (error) {
      this.session.reportError('Exporting billing', error);
    }
  }

  private post(message: ToWebview): void {
    void this.panel?.webview.postMessage(message);
  }

  dispose(): void {
    this.inflight?.abort();
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

const BODY = `<form id="controls" class="controls" aria-label="Billing query">
  <label>Billing <select id="kind" name="kind"></select></label>
  <label>Bucket <select id="bucketSize" name="bucketSize"></select></label>
  <fieldset class="range">
    <legend>Window</legend>
    <label><input type="radio" name="range" id="rangeBetween" value="between"> From</label>
    <input id="startTime" type="text" spellcheck="false" placeholder="30 days ago" aria-label="Start time, RFC 3339 (empty: 30 days ago)" title="RFC 3339, e.g. 2026-05-01T00:00:00Z">
    <label for="endTime">to</label>
    <input id="endTime" type="text" spellcheck="false" placeholder="now" aria-label="End time, RFC 3339 (empty: now)" title="RFC 3339, e.g. 2026-06-01T00:00:00Z">
    <label><input type="radio" name="range" id="rangeLast" value="last"> Last</label>
    <input id="lastN" type="number" min="1" step="1" aria-label="Number of buckets">
    <span aria-hidden="true">buckets</span>
  </fieldset>
  <label id="groupingLabel">Group by <select id="grouping" name="grouping"></select></label>
  <label data-filter="podId">Pod <input id="podId" type="text" spellcheck="false" placeholder="any"></label>
  <label data-filter="endpointId">Endpoint <input id="endpointId" type="text" spellcheck="false" placeholder="any"></label>
  <label data-filter="gpuId">GPU <input id="gpuId" type="text" spellcheck="false" placeholder="any"></label>
  <button id="show" type="submit">Show</button>
  <button id="export" type="button" disabled>Export CSV…</button>
</form>
<div id="status" class="status" role="status" aria-live="polite"></div>
<div id="error" class="error" role="alert" hidden><span id="errorText"></span> <button id="retry" type="button">Retry</button></div>
<main id="result" hidden>
  <h1 id="title"></h1>
  <p id="subtitle" class="subtitle"></p>
  <p id="empty" class="empty" hidden>No spend in this window.</p>
  <div id="chart" class="chart"></div>
  <p id="detail" class="detail" aria-live="polite"></p>
  <ul id="legend" class="legend" aria-label="Legend"></ul>
  <table id="table"><caption class="visually-hidden">Spend per bucket (USD)</caption><thead></thead><tbody></tbody><tfoot></tfoot></table>
  <p id="components" class="components"></p>
</main>`;
