/**
 * Entry point of dist/server.js: loads the language server bundle (dist/server-main.js) through a V8 code cache,
 * then starts it. The editor forks it before it knows the profile (core/protocol/serverStart.ts): the bundle is
 * then loaded at once, and the server starts when the editor has sent the profile's variables.
 */
import { join } from 'node:path';
import { ENVIRONMENT_FROM_PARENT, readEnvironmentMessage } from '../../core/protocol/serverStart';
import { loadWithCodeCache } from '../../core/util/codeCache';
import type { runLanguageServer } from './run';

// The server lives as long as the editor: the cache is written once start-up and first checks have run.
const server = loadWithCodeCache(join(__dirname, 'server-main.js'), { name: 'server', saveAfter: 4000 }) as {
  runLanguageServer: typeof runLanguageServer;
};

if (process.argv.includes(ENVIRONMENT_FROM_PARENT) && process.send) {
  let started = false;
  process.once('message', (message) => {
    const variables = readEnvironmentMessage(message);
    if (!variables) process.stderr.write('the editor sent no profile: the server starts without one\n');
    Object.assign(process.env, variables);
    started = true;
    server.runLanguageServer();
    // The channel has served its one purpose (the LSP runs on stdio). Not closed from within its own message
    // handler, which Node does not survive.
    setImmediate(() => {
      process.disconnect();
    });
  });
  // The editor went away before it sent the profile: there is nothing to serve.
  process.once('disconnect', () => {
    if (!started) process.exit(0);
  });
} else {
  server.runLanguageServer();
}
