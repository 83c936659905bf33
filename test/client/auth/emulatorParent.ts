/**
 * A stand-in for the extension host in the emulator-cleanup test: starts the emulator the way "Use
 * Local Emulator" does, prints its address as one JSON line, and waits to be killed.
 */
import { EmulatorProcess } from '../../../client/auth/emulatorProcess';

const [cliPath] = process.argv.slice(2);
new EmulatorProcess(cliPath, () => undefined).start().then(
  (address) => {
    process.stdout.write(`${JSON.stringify(address)}\n`);
    setInterval(() => undefined, 60_000);
  },
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
