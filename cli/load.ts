/** Entry point of dist/cli.js: the command line bundle (dist/cli-main.js) run through a V8 code cache. */
import { join } from 'node:path';
import { loadWithCodeCache } from '../core/util/codeCache';

loadWithCodeCache(join(__dirname, 'cli-main.js'), { name: 'cli', saveAfter: 'exit' });
