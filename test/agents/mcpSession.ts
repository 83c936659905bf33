/**
 * The MCP server of the built CLI (`endpoint-studio mcp`), started over stdio as an agent's host starts it and
 * driven with the official SDK client, so the tests that need one say only where it runs and with what. A tool
 * call comes back as a test reads it: its text, and its structured result or, for a refusal, the details the
 * server sends as its last text block. Every successful result is held to the tool's declared output schema.
 */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { structuredContentChecker } from './strictSchemas';

const CLI = resolve(__dirname, '../../dist/cli.js');

export interface ToolOutcome {
  readonly isError: boolean;
  readonly text: string;
  readonly structured: Record<string, unknown>;
}

export interface McpSession {
  readonly client: Client;
  call(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  close(): Promise<void>;
}

export interface McpSessionOptions {
  /** The workspace the server runs in. */
  readonly cwd: string;
  /** Its environment besides PATH and HOME: the service's URL and key, an environment's key variable. */
  readonly env?: Record<string, string>;
  /** Serve the tools that change the service too. */
  readonly allowWrites?: boolean;
}

export async function startMcpSession(options: McpSessionOptions): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...(options.allowWrites ? ['--allow-writes'] : [])],
    cwd: options.cwd,
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
  });
  const client = new Client({ name: 'endpoint-studio-test', version: '1.0.0' });
  await client.connect(transport);
  const checkOutput = structuredContentChecker((await client.listTools()).tools);
  return {
    client,
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args });
      const content = (result.content as { text?: string }[]).map((c) => c.text ?? '');
      const isError = result.isError === true;
      const details = isError && content.length > 1 ? content.pop() : undefined;
      if (!isError) assert.equal(checkOutput(name, result.structuredContent), undefined, `${name}: valid under its output schema`);
      const structured = details !== undefined ? (JSON.parse(details) as unknown) : (result.structuredContent ?? {});
      return { isError, text: content.join('\n'), structured: structured as Record<string, unknown> };
    },
    close: () => client.close(),
  };
}

/** The outcome, asserted to be no error (its text says why when it is one). */
export function succeeded(outcome: ToolOutcome): ToolOutcome {
  assert.equal(outcome.isError, false, outcome.text);
  return outcome;
}
