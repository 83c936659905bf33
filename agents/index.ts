/**
 * The agent tools, one catalogue for every front-end: `endpoint-studio mcp` serves them over the
 * Model Context Protocol and the extension registers them as language-model tools. Each front-end
 * only supplies an `AgentContext` (client, write permission, workspace) and runs `runTool`.
 */
import { deploySpecTool, planDeployTool } from './deployTools';
import { planRollbackTool, rollbackEndpointTool, watchRolloutTool } from './lifecycleTools';
import { planPromotionTool } from './promotionTools';
import { billingSummary, getJobTool, readWorkerLogsTool, runJobTool } from './runtimeTools';
import { getEndpoint, listEndpoints, searchCatalog } from './serviceTools';
import { estimateCost, validateSpec } from './specTools';
import type { AgentTool } from './tool';

export const AGENT_TOOLS: readonly AgentTool[] = [
  validateSpec,
  estimateCost,
  searchCatalog,
  planDeployTool,
  deploySpecTool,
  watchRolloutTool,
  planRollbackTool,
  rollbackEndpointTool,
  planPromotionTool,
  listEndpoints,
  getEndpoint,
  readWorkerLogsTool,
  runJobTool,
  getJobTool,
  billingSummary,
];

export function agentTool(name: string): AgentTool | undefined {
  return AGENT_TOOLS.find((tool) => tool.name === name);
}

export { PlanTokenStore } from './planTokens';
export type { AgentContext } from './context';
export { inputJsonSchema, runTool, type AgentTool, type ToolResult } from './tool';
