/**
 * Preloaded (`node --require`) into our server by the benchmark to show which files and folders it touches while
 * a person types: every read, listing and stat through `fs` writes one line `bench-fs <call> <path>` to stderr,
 * which the benchmark's client counts window by window. Wrapping the module's functions is enough: the bundle
 * calls them through the `fs` module object at each call, and nothing else in the process writes such lines.
 */
'use strict';
const fs = require('node:fs');
const process = require('node:process');

const CALLS = ['readFileSync', 'readdirSync', 'statSync', 'lstatSync', 'existsSync', 'openSync', 'readFile', 'readdir', 'stat', 'lstat'];
const PROMISE_CALLS = ['readFile', 'readdir', 'stat', 'lstat', 'open'];

function report(call, path) {
  process.stderr.write(`bench-fs ${call} ${String(path)}\n`);
}

for (const call of CALLS) {
  const original = fs[call];
  fs[call] = function (path, ...rest) {
    report(call, path);
    return original.call(this, path, ...rest);
  };
}
for (const call of PROMISE_CALLS) {
  const original = fs.promises[call];
  fs.promises[call] = function (path, ...rest) {
    report(`promises.${call}`, path);
    return original.call(this, path, ...rest);
  };
}
