/** The caller's own templates, network volumes and registry credentials. */
import { decodeArgs } from '../../core/endpointSpec/args';
import { isRecord } from '../../core/endpointSpec/ownData';
import { DATA_CENTERS, type TemplateRecord } from '../catalog/seed';
import type { EmulatorContext } from '../context';
import { readJsonBody } from '../http/body';
import { ProblemError, errorEntry, findById } from '../http/problems';
import { route, type Route } from '../http/router';
import type { NetworkVolumeRecord } from '../state';

type Body = Record<string, unknown>;

/** A field's own check (a problem, or none), or the field table of an object-valued field. */
type Check = (v: unknown) => string | undefined;
interface Shape {
  fields: Record<string, Check | Shape>;
  required?: readonly string[];
}

/** Every failure of `value` against `shape`, each named by its JSON path; unknown keys fail, as with `additionalProperties: false`. */
function shapeErrors(value: unknown, shape: Shape, path: readonly string[]): string[] {
  if (!isRecord(value)) return [errorEntry(path, 'must be an object')];
  const errors: string[] = [];
  for (const key of shape.required ?? []) if (value[key] === undefined) errors.push(errorEntry(path, `missing required property: ${key}`));
  for (const [key, member] of Object.entries(value)) {
    // Own entries only: a body key such as `toString` must read as unknown, not as Object.prototype's.
    const check = Object.hasOwn(shape.fields, key) ? shape.fields[key] : undefined;
    if (!check) errors.push(errorEntry([...path, key], `unknown property: ${key}`));
    else if (typeof check !== 'function') errors.push(...shapeErrors(member, check, [...path, key]));
    else {
      const problem = check(member);
      if (problem) errors.push(errorEntry([...path, key], problem));
    }
  }
  return errors;
}

/** Checks a body against a field table; unknown fields and wrong types are 422, like the service's validator. */
function checkFields(raw: unknown, fields: Shape['fields'], required: readonly string[]): Body {
  if (!isRecord(raw)) throw new ProblemError(400, 'the request body must be a JSON object', ['$: expected an object']);
  const errors = shapeErrors(raw, { fields, required }, []);
  if (errors.length > 0) throw new ProblemError(422, `request validation failed: ${errors[0]}`, errors);
  return raw;
}

const isString =
  (min = 0) =>
  (v: unknown) =>
    typeof v === 'string' && v.length >= min ? undefined : min > 0 ? 'must be a non-empty string' : 'must be a string';
const isInt =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (v: unknown) =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= max
      ? undefined
      : `must be an integer from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}`;
const isBool = (v: unknown) => (typeof v === 'boolean' ? undefined : 'must be true or false');
const isStrings = (v: unknown) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? undefined : 'must be a list of strings');
const isEnv = (v: unknown) =>
  isRecord(v) && Object.values(v).every((x) => typeof x === 'string') ? undefined : 'must be a mapping of string values';
const isOneOf = (values: readonly string[]) => (v: unknown) =>
  typeof v === 'string' && values.includes(v) ? undefined : `must be one of ${values.join(', ')}`;
const isArgs = (v: unknown) =>
  typeof v !== 'string' ? 'must be a string' : decodeArgs(v).ok ? undefined : (decodeArgs(v) as { reason: string }).reason;
const isRegistry = (v: unknown) => (v === null || typeof v === 'string' ? undefined : 'must be a string or null');

/** The snapshot's TemplateMounts: one optional persistent mount, whole (size of at least 10 GB and a path) or not at all. */
const TEMPLATE_MOUNTS: Shape = {
  fields: { persistent: { fields: { size: isInt(10), path: isString() }, required: ['size', 'path'] } },
};

const TEMPLATE_FIELDS = {
  name: isString(1),
  image: isString(1),
  args: isArgs,
  disk: isInt(1),
  ports: isStrings,
  env: isEnv,
  registry: isRegistry,
  mounts: TEMPLATE_MOUNTS,
  serverless: isBool,
  public: isBool,
  category: isOneOf(['CPU', 'NVIDIA', 'AMD']),
  allowedCudaVersions: (v: unknown) =>
    Array.isArray(v) && v.every((x) => typeof x === 'string' && /^\d+\.\d+$/.test(x))
      ? undefined
      : 'must be a list of major.minor versions',
};

function templateRoutes(ctx: EmulatorContext): Route[] {
  const own = (id: string): TemplateRecord => findById(ctx.state.templates, id, 'template');
  return [
    route('GET', '/v2/templates', 'List your templates', () => ({
      status: 200,
      body: { templates: ctx.state.templates },
    })),
    route('POST', '/v2/templates', 'Create a template', async ({ req }) => {
      const body = checkFields(await readJsonBody(req), TEMPLATE_FIELDS, ['name', 'image']);
      const template: TemplateRecord = {
        id: ctx.ids.short(10),
        name: body.name as string,
        image: body.image as string,
        args: (body.args as string | undefined) ?? '',
        disk: (body.disk as number | undefined) ?? 20,
        mounts: (body.mounts as Body | undefined) ?? {},
        ports: (body.ports as string[] | undefined) ?? [],
        env: (body.env as Record<string, string> | undefined) ?? {},
        registry: (body.registry as string | null | undefined) ?? null,
        serverless: (body.serverless as boolean | undefined) ?? false,
        public: (body.public as boolean | undefined) ?? false,
        category: (body.category as TemplateRecord['category'] | undefined) ?? 'NVIDIA',
        ...(Array.isArray(body.allowedCudaVersions) ? { allowedCudaVersions: body.allowedCudaVersions as string[] } : {}),
      };
      ctx.state.templates.push(template);
      ctx.persist();
      return { status: 201, body: template };
    }),
    route('GET', '/v2/templates/{id}', 'Get a template', ({ params }) => ({ status: 200, body: own(params.id) })),
    route('PATCH', '/v2/templates/{id}', 'Update a template', async ({ req, params }) => {
      const template = own(params.id);
      const { mounts, ...rest } = checkFields(await readJsonBody(req), TEMPLATE_FIELDS, []);
      Object.assign(template, rest);
      // Mounts merge by kind, each sent mount whole: `{}` leaves the existing mount unchanged, as the API documents.
      if (mounts !== undefined) template.mounts = { ...template.mounts, ...(mounts as Body) };
      ctx.persist();
      return { status: 200, body: template };
    }),
    route('DELETE', '/v2/templates/{id}', 'Delete a template', ({ params }) => {
      const template = own(params.id);
      ctx.state.templates = ctx.state.templates.filter((t) => t !== template);
      ctx.persist();
      return { status: 204 };
    }),
  ];
}

function volumeRoutes(ctx: EmulatorContext): Route[] {
  const find = (id: string): NetworkVolumeRecord => findById(ctx.state.networkVolumes, id, 'network volume');
  const view = (v: NetworkVolumeRecord): Body => ({ id: v.id, name: v.name, size: v.size, dataCenter: v.dataCenter, type: v.type });
  const closeUsage = (id: string): void => {
    for (const u of ctx.state.volumeUsage) if (u.volumeId === id && u.to === null) u.to = ctx.now();
  };
  return [
    route('GET', '/v2/network-volumes', 'List network volumes', () => ({
      status: 200,
      body: { networkVolumes: ctx.state.networkVolumes.map(view) },
    })),
    route('POST', '/v2/network-volumes', 'Create a network volume', async ({ req }) => {
      const body = checkFields(
        await readJsonBody(req),
        { name: isString(1), size: isInt(10, 4096), dataCenter: isString(1), type: isOneOf(['STANDARD', 'HIGH_PERFORMANCE']) },
        ['name', 'size', 'dataCenter'],
      );
      const dc = DATA_CENTERS.find((d) => d.id === body.dataCenter);
      if (!dc)
        throw new ProblemError(422, `unknown data center: ${String(body.dataCenter)}`, [
          `$.dataCenter: unknown data center ${JSON.stringify(body.dataCenter)}`,
        ]);
      const type = (body.type as NetworkVolumeRecord['type'] | undefined) ?? dc.networkVolumeTypes[0];
      if (!dc.networkVolumeTypes.includes(type))
        throw new ProblemError(422, `${dc.id} does not offer ${type} volumes`, [
          `$.type: ${dc.id} offers ${dc.networkVolumeTypes.join(', ')}`,
        ]);
      const volume: NetworkVolumeRecord = {
        id: ctx.ids.short(10),
        name: body.name as string,
        size: body.size as number,
        dataCenter: dc.id,
        type,
        createdAt: new Date(ctx.now()).toISOString(),
      };
      ctx.state.networkVolumes.push(volume);
      ctx.state.volumeUsage.push({ volumeId: volume.id, type, size: volume.size, from: ctx.now(), to: null });
      ctx.persist();
      return { status: 201, body: view(volume) };
    }),
    route('GET', '/v2/network-volumes/{id}', 'Get a network volume', ({ params }) => ({ status: 200, body: view(find(params.id)) })),
    route('PATCH', '/v2/network-volumes/{id}', 'Update a network volume', async ({ req, params }) => {
      const volume = find(params.id);
      const body = checkFields(await readJsonBody(req), { name: isString(1), size: isInt(10, 4096) }, []);
      if (Object.keys(body).length === 0) throw new ProblemError(400, 'send at least one of name or size');
      if (typeof body.size === 'number' && body.size < volume.size)
        throw new ProblemError(400, `network volume storage cannot be reduced (current size ${volume.size} GB)`, [
          `$.size: must be at least ${volume.size}`,
        ]);
      if (typeof body.name === 'string') volume.name = body.name;
      if (typeof body.size === 'number' && body.size !== volume.size) {
        closeUsage(volume.id);
        volume.size = body.size;
        ctx.state.volumeUsage.push({ volumeId: volume.id, type: volume.type, size: volume.size, from: ctx.now(), to: null });
      }
      ctx.persist();
      return { status: 200, body: view(volume) };
    }),
    route('DELETE', '/v2/network-volumes/{id}', 'Delete a network volume', ({ params }) => {
      const volume = find(params.id);
      if (ctx.state.endpoints.some((e) => e.networkVolumes.includes(volume.id)))
        throw new ProblemError(400, `network volume ${volume.id} is attached to an endpoint; detach it first`);
      ctx.state.networkVolumes = ctx.state.networkVolumes.filter((v) => v !== volume);
      closeUsage(volume.id);
      ctx.persist();
      return { status: 204 };
    }),
  ];
}

function registryRoutes(ctx: EmulatorContext): Route[] {
  return [
    route('GET', '/v2/registries', 'List registry credentials', () => ({
      status: 200,
      body: { registries: ctx.state.registries.map((r) => ({ id: r.id, name: r.name })) },
    })),
    route('POST', '/v2/registries', 'Create a registry credential', async ({ req }) => {
      const body = checkFields(await readJsonBody(req), { name: isString(1), username: isString(1), password: isString(1) }, [
        'name',
        'username',
        'password',
      ]);
      // The password is accepted and dropped: nothing pulls images here, and a state file must never hold one.
      const registry = { id: ctx.ids.short(10), name: body.name as string, username: body.username as string };
      ctx.state.registries.push(registry);
      ctx.persist();
      return { status: 201, body: { id: registry.id, name: registry.name } };
    }),
    route('GET', '/v2/registries/{id}', 'Get a registry credential', ({ params }) => {
      const registry = findById(ctx.state.registries, params.id, 'registry');
      return { status: 200, body: { id: registry.id, name: registry.name } };
    }),
    route('DELETE', '/v2/registries/{id}', 'Delete a registry credential', ({ params }) => {
      const registry = findById(ctx.state.registries, params.id, 'registry');
      ctx.state.registries = ctx.state.registries.filter((r) => r !== registry);
      ctx.persist();
      return { status: 204 };
    }),
  ];
}

export function accountRoutes(ctx: EmulatorContext): Route[] {
  return [...templateRoutes(ctx), ...volumeRoutes(ctx), ...registryRoutes(ctx)];
}
