/**
 * The MCP server the extension offers to the editor (VS Code 1.101 and later): the editor discovers our server
 * definition provider, starts the process it describes (`dist/cli.js mcp` on the workspace) and lists its tools
 * as language-model tools of source "Endpoint Studio"; one of them answers through `vscode.lm.invokeTool`, that
 * is through the MCP server process, not the extension's own in-process tools. Skipped before VS Code 1.101,
 * which has no MCP server definition providers.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { TOOL_PREFIX } from '../../client/agents/confirm';
import { eventually, EXTENSION_ID } from './helpers';

interface LmTool {
  readonly name: string;
  readonly tags: readonly string[];
  readonly source?: { readonly label?: string } | null;
}

interface LmApi {
  readonly tools: readonly LmTool[];
  readonly registerMcpServerDefinitionProvider?: unknown;
  readonly invokeTool: (
    name: string,
    options: { input: object; toolInvocationToken: undefined },
  ) => Thenable<{
    readonly content: readonly { readonly value?: unknown }[];
  }>;
}

const lm = (vscode as unknown as { lm?: LmApi }).lm;
const SERVER_LABEL = 'Endpoint Studio';
const DISCOVERY_TIMEOUT_MS = 60_000;
/** The tools the MCP server serves: those the manifest declares as language-model tools, without our prefix. */
let toolNames: string[] = [];

/**
 * The language-model tools the editor lists for our MCP server, by tool name (the editor prefixes them, and tags
 * them `mcp`; the extension's own tools, endpointStudio_<tool>, have the same source label but are not these).
 */
function mcpTools(): Map<string, string> {
  const tools = new Map<string, string>();
  for (const tool of lm?.tools ?? []) {
    if (tool.source?.label !== SERVER_LABEL || !tool.tags.includes('mcp') || tool.name.startsWith(TOOL_PREFIX)) continue;
    const name = toolNames.find((n) => tool.name.endsWith(`_${n}`));
    if (name) tools.set(name, tool.name);
  }
  return tools;
}

/** The command lines of the running `<extension>/dist/cli.js mcp` processes (this machine's /proc). */
function mcpProcesses(extensionPath: string): string[][] {
  const found: string[][] = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // ended while listed
    }
    if (args.includes(`${extensionPath}/dist/cli.js`) && args.includes('mcp')) found.push(args);
  }
  return found;
}

suite('Endpoint Studio MCP server in the editor', () => {
  let extensionPath = '';

  suiteSetup(async function () {
    // 1.100 has the function as a proposed API that refuses the call (the extension logs that and goes on).
    const [major = 0, minor = 0] = vscode.version.split('.').map(Number);
    if (!lm?.registerMcpServerDefinitionProvider || major * 1000 + minor < 1101) this.skip();
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    await eventually(() => extension.isActive, 'the extension to activate');
    extensionPath = extension.extensionPath;
    const manifest = extension.packageJSON as { contributes: { languageModelTools: { name: string }[] } };
    toolNames = manifest.contributes.languageModelTools.map((t) => t.name.slice(TOOL_PREFIX.length));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  test('the editor starts the server our provider defines and lists its 15 tools', async () => {
    // The editor asks extensions' providers for their servers when MCP servers are listed (a chat request
    // does the same): list them as a user would, then start every known server and wait for its tools.
    void vscode.commands.executeCommand('workbench.mcp.listServer');
    const deadline = Date.now() + DISCOVERY_TIMEOUT_MS;
    while (mcpTools().size < toolNames.length) {
      if (Date.now() > deadline) throw new Error(`the editor listed ${[...mcpTools().keys()].join(', ') || 'no tools'} of our MCP server`);
      await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.deepEqual([...mcpTools().keys()].sort(), [...toolNames].sort());
    assert.equal(toolNames.length, 15);
    // The process the editor started is the one our definition describes: the CLI's MCP server on this
    // workspace, writes allowed as the workspace is trusted.
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    const started = mcpProcesses(extensionPath);
    assert.ok(
      started.some(
        (args) => args.includes('--workspace') && args.includes(root) && args.includes('--allow-writes') === vscode.workspace.isTrusted,
      ),
      `no MCP server process of ours on ${root}: ${JSON.stringify(started)}`,
    );
  });

  test('a tool of the MCP server answers through vscode.lm.invokeTool', async () => {
    const validate = mcpTools().get('validate_spec');
    assert.ok(lm && validate, "our MCP server's validate_spec is not listed (the test before says why)");
    const result = await lm.invokeTool(validate, { input: { path: 'broken-worker.endpoint.yaml' }, toolInvocationToken: undefined });
    const text = result.content.map((part) => (typeof part.value === 'string' ? part.value : JSON.stringify(part.value))).join('\n');
    assert.match(text, /unknown-property/);
    assert.match(text, /idelTimeout|idleTimeout/);
  });
});
