/**
 * `endpoint-studio mcp` goes on serving whatever a client answers and whatever goes wrong inside it:
 * over stdio with the SDK's client, a promise nobody handles is logged on stderr without the keys
 * and the server answers the next call; answers to requests it never sent are logged and skipped;
 * and it sends no request to a client that supports nothing. In process, requests the server sends
 * a client that rejects or does not support them are logged once per method, and the server goes on.
 */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, ListRootsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { PlanTokenStore } from '../../agents';
import { createMcpServer } from '../../cli/mcp';

const CLI = resolve(__dirname, '../../dist/cli.js');
const REJECT_ON_SIGNAL = resolve(__dirname, '../fixtures/mcp/rejectOnSignal.mjs');
const KEY = 'es-test-key-0f3a9c51d2';
const PROD_KEY = 'es-test-prod-key-77b1e4';

interface Spawned {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  /** Resolves with stderr so far once `pattern` shows in it. */
  stderrShows(pattern: RegExp): Promise<string>;
}

const spawned: Spawned[] = [];

async function spawnServer(nodeArgs: string[] = []): Promise<Spawned> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, CLI, 'mcp'],
    stderr: 'pipe',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ENDPOINT_STUDIO_API_URL: 'http://127.0.0.1:9',
      ENDPOINT_STUDIO_API_KEY: KEY,
      ENDPOINT_STUDIO_API_KEY_PROD: PROD_KEY,
    },
  });
  let stderr = '';
  let closed = false;
  const listeners = new Set<() => void>();
  const tell = () => {
    for (const listener of listeners) listener();
  };
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    tell();
  });
  // A client that supports nothing the server could ask for.
  const client = new Client({ name: 'endpoint-studio-test', version: '1.0.0' }, { capabilities: {} });
  client.onclose = () => {
    closed = true;
    tell();
  };
  await client.connect(transport);
  const server: Spawned = {
    client,
    transport,
    stderrShows: (pattern) =>
      new Promise((done, fail) => {
        const check = () => {
          if (pattern.test(stderr)) done(stderr);
          else if (closed) fail(new Error(`the server exited before its stderr showed ${String(pattern)}:\n${stderr}`));
          else return;
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      }),
  };
  spawned.push(server);
  return server;
}

/** A tool call that needs neither the service nor a file: the server answered it. */
async function answers(client: Client): Promise<void> {
  const result = await client.callTool({ name: 'validate_spec', arguments: {} });
  assert.equal(result.isError, true);
  assert.deepEqual(result.content, [
    { type: 'text', text: 'a spec is needed: give its text (with format) or the path of its file' },
    { type: 'text', text: JSON.stringify({ error: { message: 'a spec is needed: give its text (with format) or the path of its file' } }) },
  ]);
}

describe('endpoint-studio mcp goes on', { timeout: 60_000 }, () => {
  after(async () => {
    for (const server of spawned) await server.client.close();
  });

  it('an unhandled rejection is logged on stderr without the keys, and the server answers the next call', async () => {
    const server = await spawnServer(['--import', REJECT_ON_SIGNAL]);
    await answers(server.client);
    const pid = server.transport.pid;
    assert.ok(pid !== null);
    process.kill(pid, 'SIGUSR2');
    const stderr = await server.stderrShows(/unexpected error, the server goes on: Error: a promise nobody awaited/);
    await answers(server.client);
    await server.client.ping();
    assert.match(stderr, /sent with \[redacted\] and \[redacted\]/);
    assert.ok(!stderr.includes(KEY) && !stderr.includes(PROD_KEY), stderr);
    assert.equal(server.transport.pid, pid, 'the same process');
  });

  it('answers to requests it never sent are logged and skipped; it sends no request to a client that supports nothing', async () => {
    const server = await spawnServer();
    const asked: string[] = [];
    server.client.fallbackRequestHandler = (request) => {
      asked.push(request.method);
      return Promise.reject(new McpError(ErrorCode.MethodNotFound, `not supported: ${request.method}`));
    };
    await server.transport.send({ jsonrpc: '2.0', id: 4242, result: {} });
    await server.transport.send({ jsonrpc: '2.0', id: 4243, error: { code: ErrorCode.MethodNotFound, message: 'Method not found' } });
    const stderr = await server.stderrShows(/ignored a message from the client: .*4243/);
    assert.match(stderr, /ignored a message from the client: .*4242/);
    await answers(server.client);
    await server.client.listTools();
    await server.client.callTool({ name: 'validate_spec', arguments: { text: 'name: x\n' } });
    assert.deepEqual(asked, [], 'no tool asks the client for roots, sampling, elicitation or anything else');
  });

  it('a request the client rejects or does not support is logged once per method, and the server goes on', async () => {
    const lines: string[] = [];
    const server = createMcpServer(
      {
        client: undefined,
        noClientReason: 'no key here',
        writesAllowed: false,
        enableWrites: 'say --allow-writes',
        workspaceRoot: __dirname,
        plans: new PlanTokenStore(),
      },
      (line) => lines.push(line),
    );
    // Declares roots and turns the request down; sampling it does not support at all.
    const client = new Client({ name: 'endpoint-studio-test', version: '1.0.0' }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, () => {
      throw new McpError(ErrorCode.InternalError, 'roots are private here');
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      await assert.rejects(server.server.listRoots(), /roots are private here/);
      await assert.rejects(server.server.listRoots(), /roots are private here/);
      const sampling = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hi' } }], maxTokens: 10 };
      await assert.rejects(server.server.createMessage(sampling), /Method not found/);
      await assert.rejects(server.server.createMessage(sampling), /Method not found/);
      assert.deepEqual(
        lines.map((line) => line.replace(/: .*$/, '')),
        ['endpoint-studio mcp', 'endpoint-studio mcp'],
      );
      assert.match(lines[0], /the client turned down roots\/list \(said once; the server goes on without it\): .*roots are private here/);
      assert.match(lines[1], /the client turned down sampling\/createMessage .*Method not found/);
      await answers(client);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
