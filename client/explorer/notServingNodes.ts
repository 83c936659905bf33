/**
 * How the Endpoints view names workers that are not serving: a release whose workers crash-loop, wait for
 * capacity or are still starting says so in its row and tooltip (a crash-looping one opens its workers' logs
 * when clicked), and an endpoint whose watched rollout stalled or failed says why in its tooltip. The cause is
 * the core's (`notServingCause`, or the watch's own with the line a crash ended on); this only words it. A release
 * also says how long it took to serve, as recorded in the binding of the spec that deploys it.
 */
import * as vscode from 'vscode';
import type { Endpoint, Release, Worker } from '../../core/api';
import { readinessSummary, readyText, type ReadinessReport } from '../../core/deploy/readiness';
import type { NotServingCause } from '../../core/operations';
import { watchedRollouts } from '../deploy/rollout';
import { causeLabel } from '../deploy/rolloutReport';
import { releaseCause, releaseDescription, releaseTooltip } from './endpointFacts';
import type { EndpointNode } from './endpointsTree';

/** Markdown for the endpoint's tooltip: why its workers are not serving. */
export function causeNote(cause: NotServingCause): string {
  return `**Not serving** (${causeLabel(cause)}): ${escapeMarkdown(cause.message)}`;
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

/**
 * A release with why its workers are not serving: the cause the last watched rollout named (with the line a crash
 * ended on) when it is this release's, else the one its workers' states give.
 */
export function releaseNode(
  endpoint: Endpoint,
  release: Release,
  workers: readonly Worker[] | undefined,
  readiness?: ReadinessReport,
): EndpointNode {
  const fromState = releaseCause(release, workers);
  const watched = watchedRollouts.cause(endpoint.id);
  const cause = fromState && watched && watched.version === release.version && watched.kind === fromState.kind ? watched : fromState;
  return { kind: 'release', endpoint, release, ...(cause ? { cause } : {}), ...(readiness ? { readiness } : {}) };
}

/**
 * A release row, saying how long it took to serve when a watch recorded it ("ready in 42 s"); a crash-looping one is
 * marked and opens its workers' logs when clicked.
 */
export function releaseItem(node: Extract<EndpointNode, { kind: 'release' }>): vscode.TreeItem {
  const { endpoint, release, cause } = node;
  const ready = readyText(node.readiness?.readiness);
  const summary = node.readiness && readinessSummary(node.readiness);
  const item = new vscode.TreeItem(
    `v${release.version ?? '?'}`,
    release.diff.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `endpoint/${endpoint.id}/releases/${release.id}`;
  item.description = `${cause ? `${causeLabel(cause)} · ` : ''}${ready ? `${ready} · ` : ''}${releaseDescription(release)}`;
  const crashing = cause?.kind === 'crash-looping';
  const timed = summary !== undefined ? `\n\nTime to ready: ${summary}` : '';
  item.tooltip = `${releaseTooltip(release)}${timed}${cause ? `\n\nNot serving: ${cause.message}${crashing ? '\nClick to open the logs of its workers.' : ''}` : ''}`;
  item.iconPath = crashing
    ? new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'))
    : new vscode.ThemeIcon(release.source === 'GIT_BUILD' ? 'git-commit' : 'tag');
  if (crashing)
    item.command = {
      command: 'endpointStudio.logs.openWorker',
      title: 'Open Logs',
      arguments: [{ endpointId: endpoint.id, endpointName: endpoint.name, workerIds: cause.workers }],
    };
  item.contextValue = 'release';
  return item;
}
