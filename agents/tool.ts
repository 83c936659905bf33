/**
 * The shape of one agent tool and the one way every front-end runs it: the input checked against
 * the tool's schema, writes refused unless allowed, failures turned into a tool error the model
 * can act on (never a stack trace), and the key removed from everything that goes back.
 */
import { z } from 'zod';
import { ToolFailure, type AgentContext } from './context';

/** What a tool hands back: data for programs, text for the model and for people. */
export interface ToolResult {
  readonly structured: Record<string, unknown>;
  readonly text: string;
  readonly isError?: boolean;
}

export interface AgentTool<Input extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  /** What the model reads to decide when to call it and how. */
  readonly description: string;
  /** A tool that changes the service (a deploy, a job): refused unless writes are allowed. */
  readonly writes: boolean;
  readonly input: Input;
  readonly output: z.ZodObject;
  run(input: z.infer<Input>, context: AgentContext): Promise<ToolResult>;
}

/** Keeps the input type of each tool's handler tied to its own schema. */
export function defineTool<Input extends z.ZodObject>(tool: AgentTool<Input>): AgentTool {
  return tool;
}

function failureResult(message: string, details: Record<string, unknown> = {}): ToolResult {
  return { isError: true, text: message, structured: { error: { message, ...details } } };
}

/** Runs a tool on raw arguments from a model. Always resolves: a failure is a result with `isError`. */
export async function runTool(tool: AgentTool, args: unknown, context: AgentContext): Promise<ToolResult> {
  const redact = (text: string): string => (context.client ? context.client.redact(text) : text);
  if (tool.writes && !context.writesAllowed)
    return failureResult(`${tool.name} changes the service and writes are not allowed here: ${context.enableWrites}`, {
      writesAllowed: false,
    });
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) return failureResult(`invalid input for ${tool.name}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
  let result: ToolResult;
  try {
    result = await tool.run(parsed.data, context);
  } catch (error) {
    result =
      error instanceof ToolFailure
        ? failureResult(error.message, error.details)
        : failureResult(`${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Every result passes through the client's redaction, however it was made.
  return { ...result, text: redact(result.text), structured: redactDeep(result.structured, redact) as Record<string, unknown> };
}

function redactDeep(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactDeep(item, redact)]));
  return value;
}

/** The JSON Schema of a tool's input, as the editor's manifest and the MCP listing declare it. */
export function inputJsonSchema(tool: AgentTool): Record<string, unknown> {
  const { $schema: _schema, ...schema } = z.toJSONSchema(tool.input, { io: 'input' });
  return schema;
}
