/**
 * What keeps `endpoint-studio mcp` serving whatever a client answers and whatever goes wrong inside
 * it. A client is a session the user started and may keep for hours; the server dying would fail
 * every tool call after it with nothing said. So a promise nobody awaited is logged and survived
 * (Node's default ends the process), a request the server sends the client that the client turns
 * down is logged once per method and left to its caller, and a message the protocol cannot place
 * (an answer to nothing, a line that is not JSON) is logged. Every line goes through the redactor.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export type McpLog = (line: string) => void;

const describe = (reason: unknown): string => (reason instanceof Error ? (reason.stack ?? reason.message) : String(reason));
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The last resort for the process: an unhandled rejection is a bug, logged, and the server goes on. */
export function surviveUnhandledRejections(log: McpLog): void {
  process.on('unhandledRejection', (reason) => {
    log(`endpoint-studio mcp: unexpected error, the server goes on: ${describe(reason)}`);
  });
}

/**
 * Requests to the client (sampling, roots, elicitation: whatever the server comes to ask) that the
 * client rejects or does not support: said once per method, since a client that refuses one will
 * refuse it every time, and rejected to the caller as before, which goes on without the answer.
 */
export function logRejectedClientRequests({ server }: McpServer, log: McpLog): void {
  const send = server.request.bind(server);
  const logged = new Set<string>();
  server.request = async (request, resultSchema, options) => {
    try {
      return await send(request, resultSchema, options);
    } catch (error) {
      if (!logged.has(request.method)) {
        logged.add(request.method);
        log(
          `endpoint-studio mcp: the client turned down ${request.method} (said once; the server goes on without it): ${messageOf(error)}`,
        );
      }
      throw error;
    }
  };
}

/** Protocol errors (an answer to a request never sent, a line that is not JSON-RPC): the SDK skips the message. */
export function logProtocolErrors({ server }: McpServer, log: McpLog): void {
  server.onerror = (error) => {
    log(`endpoint-studio mcp: ignored a message from the client: ${error.message}`);
  };
}
