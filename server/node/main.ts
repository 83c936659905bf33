/** Entry point of dist/server.js, the language server process the extension starts over node IPC. */
import { runLanguageServer } from './run';

runLanguageServer();
