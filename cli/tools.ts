/**
 * The commands whose dependencies dwarf the rest of the CLI: `mcp` (the MCP SDK and zod) and `emulator`.
 * The build bundles them apart, into dist/cli-tools.js, which dist/cli-main.js requires only when one of
 * them runs: the V8 code cache saves compiling a bundle, not reading it, so `validate`, started once per CI
 * job and per pre-commit hook, would otherwise read and load three times the code it runs.
 */
export { MCP_HELP, runMcp } from './mcp';
export { runEmulatorCli } from './emulator';
