/**
 * What the CLI's command tests share: an io that captures stdout and stderr, with the environment of a
 * signed-in run against an emulator (or none), so each command runs in-process as the binary would run it.
 */
import type { DeployIo } from '../../cli/deploy';
import { TEST_KEY, type Emulator } from '../core/api/support';

export interface CapturedIo extends DeployIo {
  stdout: string;
  stderr: string;
}

export interface CaptureOptions {
  /** Added over the emulator's URL and key (a blank key, a wrong one, no URL). */
  readonly env?: Record<string, string>;
  readonly confirm?: DeployIo['confirm'];
}

export function captureIo(emu: Emulator | undefined, options: CaptureOptions = {}): CapturedIo {
  const io: CapturedIo = {
    stdout: '',
    stderr: '',
    out: (text) => {
      io.stdout += text;
    },
    err: (text) => {
      io.stderr += text.endsWith('\n') ? text : `${text}\n`;
    },
    env: { ...(emu ? { ENDPOINT_STUDIO_API_URL: emu.restUrl, ENDPOINT_STUDIO_API_KEY: TEST_KEY } : {}), ...options.env },
    ...(options.confirm ? { confirm: options.confirm } : {}),
  };
  return io;
}
