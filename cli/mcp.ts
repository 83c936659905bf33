/**
 * `endpoint-studio mcp [--allow-writes]`: the agent tools (`agents/`) served over the Model Context
 * Protocol on stdio, for any MCP client (an editor's agent mode, a desktop assistant, a CI bot).
 * stdout carries nothing but protocol messages; the key comes from the environment as for every
 * other command and is in no result, and so does a pinned catalog snapshot; an environment's overlay is
 * planned and deployed on that environment's own key variable, as `deploy` does. Without --allow-writes,
 * deploying and running jobs are refused. Nothing a client sends or declines ends the process
 * (cli/mcpGuards.ts); what goes wrong is said on stderr, without any key.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { resolve } from 'node:path';
import { AGENT_TOOLS, PlanTokenStore, runTool, type AgentContext, type AgentTool } from '../agents';
import { AGENT_RESOURCES } from '../agents/resources';
import { catalogFileFromEnvironment, configFromEnvironment, createApiClient, type ApiClient } from '../core/api';
import { createRedactor } from '../core/api/redact';
import { readCommandLine } from './args';
import { logProtocolErrors, logRejectedClientRequests, surviveUnhandledRejections, type McpLog } from './mcpGuards';
import { packageInfo } from '../core/util/packageInfo';
import type { ServiceIo } from './service';

export const MCP_HELP = `Usage: endpoint-studio mcp [--allow-writes] [--workspace DIR]

Serves the agent tools over the Model Context Protocol on stdin/stdout:
validate_spec, estimate_cost, search_catalog, plan_deploy, deploy_spec, list_endpoints,
get_endpoint, read_worker_logs, run_job, get_job, billing_summary; and as resources the
spec's JSON Schema and its rules.

--allow-writes   allow deploy_spec and run_job (refused otherwise)
--workspace DIR  where relative spec paths and .endpoint-studio/ are read (default: the
                 current directory)
The service is $ENDPOINT_STUDIO_API_URL with the key in $ENDPOINT_STUDIO_API_KEY (or
RUNPOD_API_KEY); without a key only validate_spec works (without catalog rules). An
environment's overlay is planned and deployed with the key in its own variable
(ENDPOINT_STUDIO_API_KEY_<ENV>, or the keyVariable of .endpoint-studio/environments.yaml).
With $ENDPOINT_STUDIO_CATALOG_FILE (a snapshot from endpoint-studio catalog export),
search_catalog, estimate_cost and validate_spec's catalog rules read it instead of the
service, with a key or without one.`;

const COMMAND_LINE = {
  command: 'mcp',
  usage: MCP_HELP,
  options: { 'allow-writes': { type: 'boolean', default: false }, workspace: { type: 'string' } },
  allowPositionals: false,
} as const;

export async function runMcp(args: string[], io: ServiceIo): Promise<number> {
  const line = readCommandLine(COMMAND_LINE, args, io);
  if (typeof line === 'number') return line;
  const env = io.env ?? process.env;
  const keys = keysInEnvironment(env);
  const log: McpLog = (text) => {
    io.err(createRedactor([...keys])(text));
  };
  surviveUnhandledRejections(log);
  const client = clientFromEnvironment(env, io, keys);
  const catalogFile = catalogFileFromEnvironment(env);
  const context: AgentContext = {
    client,
    clientForEnvironment: (environment) =>
      clientFromEnvironment(env, io, keys, environment.keyVariable) ?? {
        reason: `no API key for the ${environment.name} environment: the server needs ${environment.keyVariable} in its environment (an environment's key is read from its own variable only)`,
      },
    noClientReason: 'no API key: the server needs ENDPOINT_STUDIO_API_KEY (or RUNPOD_API_KEY) in its environment',
    writesAllowed: line.values['allow-writes'],
    enableWrites: 'start the server with endpoint-studio mcp --allow-writes',
    workspaceRoot: resolve(line.values.workspace ?? process.cwd()),
    plans: new PlanTokenStore(),
    ...(catalogFile ? { catalogFile } : {}),
  };
  const server = createMcpServer(context, log);
  const transport = new StdioServerTransport();
  const closed = new Promise<number>((done) => {
    transport.onclose = () => {
      done(0);
    };
  });
  await server.connect(transport);
  const catalogNote = catalogFile ? `, catalog snapshot ${catalogFile}` : '';
  io.err(
    `endpoint-studio mcp: ${AGENT_TOOLS.length} tools on stdio${context.writesAllowed ? ', writes allowed' : ', read-only'}${catalogNote}`,
  );
  return closed;
}

/** A client on the key in `keyVariable` (default the usual key variables); the key joins `keys`, which the log redacts. */
function clientFromEnvironment(env: NodeJS.ProcessEnv, io: ServiceIo, keys: Set<string>, keyVariable?: string): ApiClient | undefined {
  const config = configFromEnvironment(env, keyVariable === undefined ? {} : { keyVariable });
  if (!config.apiKey) return undefined;
  keys.add(config.apiKey);
  try {
    return createApiClient({ ...config, userAgent: 'endpoint-studio-mcp' });
  } catch (error) {
    io.err(`endpoint-studio mcp: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/**
 * The keys in the usual variables and each environment's default one, for the log to redact from the
 * start; an environment's keyVariable may be named anything, so its key joins when a client is made on it.
 */
function keysInEnvironment(env: NodeJS.ProcessEnv): Set<string> {
  const variables = Object.keys(env).filter((name) => /^(ENDPOINT_STUDIO_API_KEY(_\w+)?|RUNPOD_API_KEY)$/.test(name));
  return new Set(variables.map((name) => env[name]?.trim() ?? '').filter((key) => key !== ''));
}

/**
 * The server with every tool and resource registered, not yet connected. `log` hears of requests
 * the client turns down and of messages the protocol skips.
 */
export function createMcpServer(context: AgentContext, log: McpLog): McpServer {
  const server = new McpServer({ name: 'endpoint-studio', version: packageInfo().version });
  logRejectedClientRequests(server, log);
  logProtocolErrors(server, log);
  for (const tool of AGENT_TOOLS) registerAgentTool(server, tool, context);
  for (const resource of AGENT_RESOURCES) {
    server.registerResource(
      resource.name,
      resource.uri,
      { title: resource.title, description: resource.description, mimeType: resource.mimeType },
      (uri) => ({ contents: [{ uri: uri.href, mimeType: resource.mimeType, text: resource.text() }] }),
    );
  }
  return server;
}

function registerAgentTool(server: McpServer, tool: AgentTool, context: AgentContext): void {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input,
      outputSchema: tool.output,
      annotations: { readOnlyHint: !tool.writes, destructiveHint: tool.writes, idempotentHint: !tool.writes, openWorldHint: true },
    },
    async (args: unknown) => {
      const result = await runTool(tool, args, context);
      const text = { type: 'text' as const, text: result.text };
      if (!result.isError) return { content: [text], structuredContent: result.structured };
      // Clients check structured content against the output schema even on errors, so an error's
      // details (status, problems on spec lines) travel as a JSON text block after the message.
      return { content: [text, { type: 'text' as const, text: JSON.stringify(result.structured) }], isError: true };
    },
  );
}
