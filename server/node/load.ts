/** Entry point of dist/server.js: the language server bundle (dist/server-main.js) run through a V8 code cache. */
import { join } from 'node:path';
import { runWithCodeCache } from '../../core/util/codeCache';

// The server lives as long as the editor: the cache is written once start-up and first checks have run.
runWithCodeCache(join(__dirname, 'server-main.js'), { name: 'server', saveAfter: 4000 });
