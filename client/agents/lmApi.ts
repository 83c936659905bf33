/**
 * The slice of the language-model and MCP APIs the agent tools use. The extension supports editors
 * from 1.91, whose typings have neither (tools came in 1.95, MCP server providers in 1.101), so the
 * shapes are declared here and every entry point is looked up at run time: an older editor simply
 * gets no agent tools.
 */
import * as vscode from 'vscode';
import type { AgentToolPreparation } from './confirm';

interface LanguageModelTool<T> {
  invoke(options: { readonly input: T }, token: vscode.CancellationToken): Promise<unknown>;
  prepareInvocation?(options: { readonly input: T }, token: vscode.CancellationToken): AgentToolPreparation;
}

export interface McpStdioServerDefinition {
  readonly label: string;
  command: string;
  args: string[];
  env: Record<string, string | number | null>;
  cwd?: vscode.Uri;
}

interface McpServerDefinitionProvider<T extends McpStdioServerDefinition> {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): T[];
  resolveMcpServerDefinition?(server: T, token: vscode.CancellationToken): Promise<T | undefined>;
}

interface LmNamespace {
  registerTool?<T>(name: string, tool: LanguageModelTool<T>): vscode.Disposable;
  registerMcpServerDefinitionProvider?<T extends McpStdioServerDefinition>(
    id: string,
    provider: McpServerDefinitionProvider<T>,
  ): vscode.Disposable;
}

type TextPartClass = new (value: string) => unknown;
type ToolResultClass = new (content: unknown[]) => unknown;
type McpStdioClass = new (
  label: string,
  command: string,
  args?: string[],
  env?: Record<string, string | number | null>,
  version?: string,
) => McpStdioServerDefinition;

interface EditorApi {
  readonly lm?: LmNamespace;
  readonly LanguageModelTextPart?: TextPartClass;
  readonly LanguageModelToolResult?: ToolResultClass;
  readonly McpStdioServerDefinition?: McpStdioClass;
}

const editor = vscode as unknown as EditorApi;

/** What registering tools needs, or undefined in an editor without language-model tools. */
export interface ToolApi {
  registerTool<T>(name: string, tool: LanguageModelTool<T>): vscode.Disposable;
  /** A tool result holding these text parts. */
  result(texts: readonly string[]): unknown;
}

export function toolApi(): ToolApi | undefined {
  const lm = editor.lm;
  const { LanguageModelTextPart: TextPart, LanguageModelToolResult: ToolResult } = editor;
  if (!lm?.registerTool || !TextPart || !ToolResult) return undefined;
  return {
    registerTool: lm.registerTool.bind(lm),
    result: (texts) => new ToolResult(texts.map((text) => new TextPart(text))),
  };
}

export interface McpApi {
  registerProvider(id: string, provider: McpServerDefinitionProvider<McpStdioServerDefinition>): vscode.Disposable;
  stdioServer(label: string, command: string, args: string[], env: Record<string, string>, version: string): McpStdioServerDefinition;
}

export function mcpApi(): McpApi | undefined {
  const lm = editor.lm;
  const Definition = editor.McpStdioServerDefinition;
  if (!lm?.registerMcpServerDefinitionProvider || !Definition) return undefined;
  return {
    registerProvider: lm.registerMcpServerDefinitionProvider.bind(lm),
    stdioServer: (label, command, args, env, version) => new Definition(label, command, args, env, version),
  };
}
