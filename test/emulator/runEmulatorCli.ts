/**
 * `endpoint-studio emulator` from source, in a process of its own: for tests that must signal the
 * emulator or restart it from its state file, as a user's shell does.
 */
import { runEmulatorCli } from '../../cli/emulator';

void runEmulatorCli(process.argv.slice(2)).then((code) => {
  process.exit(code);
});
