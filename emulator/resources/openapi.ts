/** `GET /v2/openapi.json`: a description of the paths this emulator serves, generated from its routes. */
import type { Route } from '../http/router';
import commonSchema from '../../schemas/common.schema.json';
import createSchema from '../../schemas/endpoint-create.schema.json';
import updateSchema from '../../schemas/endpoint-update.schema.json';

/** The bundled schemas as OpenAPI components: file references become references into `components`. */
function asComponent(schema: unknown): unknown {
  return JSON.parse(
    JSON.stringify(schema, (key, value: unknown) => {
      if (key === '$id' || key === '$schema') return undefined;
      if (key !== '$ref' || typeof value !== 'string') return value;
      return value
        .replace(/^common\.schema\.json#/, '#/components/schemas/EndpointSpecCommon')
        .replace(/^#\/\$defs\//, '#/components/schemas/EndpointSpecCommon/$defs/');
    }),
  );
}

const PROBLEM = { $ref: '#/components/schemas/Problem' };

export function openApiDocument(
  routes: readonly Route[],
  newerServiceFields: Readonly<Record<string, Record<string, unknown>>>,
): Record<string, unknown> {
  const create = asComponent(createSchema) as { properties: Record<string, unknown> };
  create.properties = { ...create.properties, ...newerServiceFields };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const item = (paths[r.pattern] ??= {});
    const parameters = r.segments
      .filter((s) => s.startsWith('{'))
      .map((s) => ({ name: s.slice(1, -1), in: 'path', required: true, schema: { type: 'string' } }));
    const okStatus = r.method === 'POST' && !r.pattern.includes('/logs') ? '201' : r.method === 'DELETE' ? '204' : '200';
    item[r.method.toLowerCase()] = {
      summary: r.summary,
      ...(parameters.length > 0 ? { parameters } : {}),
      responses: {
        [okStatus]: { description: 'Success' },
        '401': { description: 'Missing, malformed or unknown bearer token', content: { 'application/problem+json': { schema: PROBLEM } } },
        '403': { description: 'The key is read-only', content: { 'application/problem+json': { schema: PROBLEM } } },
        '429': { description: 'Rate limit exceeded; see Retry-After', content: { 'application/problem+json': { schema: PROBLEM } } },
        default: { description: 'Problem', content: { 'application/problem+json': { schema: PROBLEM } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Endpoint Studio local emulator (REST API v2)',
      version: '2.0.0',
      description:
        "A local stand-in for the serverless REST API v2, for trying Endpoint Studio without an account and for tests. Job operations are served on the separate jobs host named in each endpoint's requestUrls.",
    },
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      schemas: {
        EndpointSpecCommon: asComponent(commonSchema),
        CreateEndpointRequest: create,
        UpdateEndpointRequest: asComponent(updateSchema),
        Problem: {
          type: 'object',
          required: ['title', 'status', 'detail'],
          properties: {
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            errors: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
  };
}
