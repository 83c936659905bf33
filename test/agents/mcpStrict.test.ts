/**
 * The tool schemas `endpoint-studio mcp` lists pass the MCP Inspector's `--strict` checks: listed over
 * stdio to the SDK's client, every input and output schema is held to the Inspector's schema lint
 * (test/agents/strictSchemas.ts), and every output schema compiles under Ajv's strict mode, which is
 * what the results are validated with in the tests that call the tools.
 */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { z } from 'zod';
import { structuredContentChecker, strictFindings } from './strictSchemas';

const CLI = resolve(__dirname, '../../dist/cli.js');

describe('MCP tool schemas under the Inspector --strict checks', { timeout: 60_000 }, () => {
  let client: Client;
  let tools: Awaited<ReturnType<Client['listTools']>>['tools'];

  before(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      stderr: 'pipe',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    client = new Client({ name: 'endpoint-studio-test', version: '1.0.0' });
    await client.connect(transport);
    ({ tools } = await client.listTools());
  });

  after(async () => {
    await client.close();
  });

  it('the checks find what the Inspector reports: zod’s {} for "any other field", bare booleans, type arrays, remote refs', () => {
    const loose = z.toJSONSchema(z.looseObject({ id: z.string() }), { target: 'draft-7', io: 'output' });
    assert.deepEqual(strictFindings(loose), [{ rule: 'untyped-schema', path: 'additionalProperties' }]);
    assert.deepEqual(
      strictFindings({
        type: 'object',
        properties: { a: true, b: { type: ['string', 'null'] }, c: { $ref: 'https://example.com/s.json' }, d: { description: 'x' } },
        additionalProperties: false,
      }),
      [
        { rule: 'boolean-schema', path: 'properties.a' },
        { rule: 'type-union', path: 'properties.b' },
        { rule: 'remote-ref', path: 'properties.c' },
        { rule: 'untyped-schema', path: 'properties.d' },
      ],
    );
    assert.deepEqual(strictFindings({ type: 'object', additionalProperties: true, properties: { x: { not: {} } } }), []);
  });

  it('every tool lists input and output schemas with no finding', () => {
    assert.equal(tools.length, 15);
    const findings = tools.flatMap((tool) => [
      ...strictFindings(tool.inputSchema).map((f) => `${tool.name} inputSchema.${f.path}: ${f.rule}`),
      ...strictFindings(tool.outputSchema).map((f) => `${tool.name} outputSchema.${f.path}: ${f.rule}`),
    ]);
    assert.deepEqual(findings, []);
    for (const tool of tools) assert.ok(tool.outputSchema, `${tool.name} lists an output schema`);
  });

  it('every output schema compiles under Ajv strict mode, and results are checked against it', () => {
    const check = structuredContentChecker(tools);
    assert.equal(check('get_job', { endpointId: 'ep', jobId: 'j', status: 'IN_QUEUE' }), undefined);
    assert.equal(check('get_job', { endpointId: 'ep', jobId: 'j', status: 'COMPLETED', output: [1, { a: null }], more: 1 }), undefined);
    assert.match(check('get_job', { endpointId: 'ep', status: 'IN_QUEUE' }) ?? '', /must have required property 'jobId'/);
    const line = { workerId: 'w1', ts: '2026-01-01T00:00:00Z', source: 'container', line: 'hi' };
    const logs = { endpointId: 'ep', workers: ['w1'], truncated: false };
    assert.equal(check('read_worker_logs', { ...logs, lines: [line] }), undefined);
    assert.match(check('read_worker_logs', { ...logs, lines: [{ ...line, extra: 1 }] }) ?? '', /additional properties/);
  });
});
