/** Entry point of dist/server-main.js, the language server bundle, which dist/server.js loads and starts. */
export { runLanguageServer } from './run';
