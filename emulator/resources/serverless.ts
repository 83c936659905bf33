/** `/v2/serverless`: create (every contract rule), list, get, PATCH with releases, delete, workers, releases. */
import { isRecord } from '../../core/endpointSpec/ownData';
import { validateSpecData, toServiceBody } from '../../core/endpointSpec/validate';
import { findTemplate, type EmulatorContext } from '../context';
import { readJsonBody } from '../http/body';
import { findById, rejectIfErrors, ProblemError } from '../http/problems';
import { route, type Route } from '../http/router';
import type { ReleaseRecord, StoredEndpoint } from '../state';
import { resolveTemplate } from './createRules';
import { catalogOf } from '../catalog/asCatalog';
import { asCreateBody, buildEndpoint, diffEndpoints, endpointResponse, idleTimeoutOf, mergePatch, needsRestart } from './endpointModel';

type Body = Record<string, unknown>;

export function requireEndpoint(ctx: EmulatorContext, id: string): StoredEndpoint {
  return findById(ctx.state.endpoints, id, 'serverless endpoint');
}

function addRelease(ctx: EmulatorContext, endpoint: StoredEndpoint, diff: ReleaseRecord['diff']): void {
  const releases = ctx.state.releases[endpoint.id] ?? [];
  releases.unshift({
    id: ctx.ids.short(10),
    version: endpoint.version,
    source: 'MANUAL',
    buildId: null,
    createdByUserId: null,
    createdAt: new Date(ctx.now()).toISOString(),
    diff,
  });
  ctx.state.releases[endpoint.id] = releases;
}

/** Drops the fields a newer service would accept (EmulatorOptions.newerServiceFields) before validating. */
function withoutNewerFields(ctx: EmulatorContext, raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  return Object.fromEntries(Object.entries(raw).filter(([name]) => !Object.hasOwn(ctx.newerServiceFields, name)));
}

/** Creates an endpoint from a create body (checked by every rule) with its first release; the demo seeds through it too. */
export function createEndpoint(ctx: EmulatorContext, received: unknown): StoredEndpoint {
  const raw = withoutNewerFields(ctx, received);
  rejectIfErrors(validateSpecData(raw, 'create', { catalog: catalogOf(ctx) }));
  const body = resolveTemplate(toServiceBody(raw as Body), (id) => findTemplate(ctx, id));
  const endpoint = buildEndpoint(body, ctx.ids.short(), new Date(ctx.now()).toISOString());
  ctx.state.endpoints.push(endpoint);
  addRelease(ctx, endpoint, []);
  ctx.persist();
  return endpoint;
}

/** Applies a PATCH body; a change is a new release. */
export function updateEndpoint(ctx: EmulatorContext, current: StoredEndpoint, raw: unknown): StoredEndpoint {
  rejectIfErrors(validateSpecData(raw, 'update'));
  const body = toServiceBody(raw as Body);
  if (current.cpu && body.gpu !== undefined)
    throw new ProblemError(400, 'this is a CPU endpoint; gpu cannot be set on it', [
      '$.gpu: a CPU endpoint cannot take gpu; create a GPU endpoint instead',
    ]);
  if (current.gpu && body.cpu !== undefined)
    throw new ProblemError(400, 'this is a GPU endpoint; cpu cannot be set on it', [
      '$.cpu: a GPU endpoint cannot take cpu; create a CPU endpoint instead',
    ]);
  const merged = mergePatch(current, body);
  const sentIdleTimeout = typeof (body.workers as Body | undefined)?.idleTimeout === 'number';
  // Rules that only fail on the combination of stored and sent fields (scaler switch, idleTimeout).
  const asCreate = asCreateBody(merged, sentIdleTimeout);
  rejectIfErrors(validateSpecData(asCreate, 'create', { catalog: catalogOf(ctx) }));
  const idleTimeout = idleTimeoutOf(merged);
  if (idleTimeout === undefined) delete merged.workers.idleTimeout;
  else merged.workers.idleTimeout = idleTimeout;
  const diff = diffEndpoints(current, merged);
  if (diff.length === 0) return current;
  merged.version = current.version + 1;
  const index = ctx.state.endpoints.indexOf(current);
  ctx.state.endpoints[index] = merged;
  addRelease(ctx, merged, diff);
  ctx.sim.endpointChanged(merged, needsRestart(current, merged));
  ctx.persist();
  return merged;
}

function releasesView(ctx: EmulatorContext, endpoint: StoredEndpoint): Body {
  const workers = ctx.sim.workersOf(endpoint.id);
  const onLatest = workers.filter((w) => w.version >= endpoint.version).length;
  return {
    endpointVersion: endpoint.version,
    rollout: {
      inProgress: onLatest < workers.length,
      workersOnLatest: onLatest,
      workersTotal: workers.length,
      percentOnLatest: workers.length === 0 ? 0 : Math.floor((onLatest / workers.length) * 100),
    },
    releases: (ctx.state.releases[endpoint.id] ?? []).map((r) => ({
      ...r,
      workerCount: workers.filter((w) => w.version === r.version).length,
    })),
  };
}

function workersView(ctx: EmulatorContext, endpoint: StoredEndpoint): Body {
  const workers = ctx.sim.workerViews(endpoint);
  const count = (status: string): number => workers.filter((w) => w.status === status).length;
  return {
    endpointVersion: endpoint.version,
    summary: {
      running: count('RUNNING'),
      idle: count('IDLE'),
      initializing: count('INITIALIZING'),
      throttled: count('THROTTLED'),
      unhealthy: count('UNHEALTHY'),
      total: workers.length,
    },
    workers,
  };
}

export function serverlessRoutes(ctx: EmulatorContext): Route[] {
  const show = (e: StoredEndpoint): Body => endpointResponse(e, ctx.jobsUrl());
  return [
    route('GET', '/v2/serverless', 'List serverless endpoints', () => ({
      status: 200,
      body: { endpoints: ctx.state.endpoints.map(show) },
    })),
    route('POST', '/v2/serverless', 'Create a serverless endpoint', async ({ req }) => ({
      status: 201,
      body: show(createEndpoint(ctx, await readJsonBody(req))),
    })),
    route('GET', '/v2/serverless/{id}', 'Get a serverless endpoint', ({ params }) => ({
      status: 200,
      body: show(requireEndpoint(ctx, params.id)),
    })),
    route('PATCH', '/v2/serverless/{id}', 'Update a serverless endpoint', async ({ req, params }) => {
      const current = requireEndpoint(ctx, params.id);
      const body = await readJsonBody(req);
      return { status: 200, body: show(updateEndpoint(ctx, current, body)) };
    }),
    route('DELETE', '/v2/serverless/{id}', 'Delete a serverless endpoint', ({ params }) => {
      const endpoint = requireEndpoint(ctx, params.id);
      ctx.sim.endpointDeleted(endpoint.id);
      ctx.state.endpoints = ctx.state.endpoints.filter((e) => e !== endpoint);
      ctx.state.releases = Object.fromEntries(Object.entries(ctx.state.releases).filter(([id]) => id !== endpoint.id));
      ctx.persist();
      return { status: 204 };
    }),
    route('GET', '/v2/serverless/{id}/workers', 'List serverless endpoint workers', ({ params }) => ({
      status: 200,
      body: workersView(ctx, requireEndpoint(ctx, params.id)),
    })),
    route('GET', '/v2/serverless/{id}/releases', 'List serverless endpoint releases', ({ params }) => ({
      status: 200,
      body: releasesView(ctx, requireEndpoint(ctx, params.id)),
    })),
  ];
}
