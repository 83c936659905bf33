/**
 * When dist/client.js began to run. extension.ts imports this module before anything else, so it is evaluated
 * first and the activation times the extension logs count loading the rest of the bundle (the language client
 * library included). What the editor does before the bundle's first line, reading and compiling the file, is
 * not in them.
 */
export const LOAD_STARTED = performance.now();
