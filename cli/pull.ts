/**
 * `endpoint-studio pull`: a live endpoint's configuration printed as a spec, headed by where it came from. Reading
 * it fresh and writing it in the spec's vocabulary is the operations layer's (`pullSpec`); this module only prints.
 * Its flags are those of deployCommandLine.ts.
 * Exit codes: 0 printed, 1 API problem, 2 usage error or no key.
 */
import { pullSpec } from '../core/operations';
import { formatOf, readDeployLine, type DeployCommandShape } from './deployCommandLine';
import { serviceClient, type ServiceIo } from './service';

const PULL = {
  command: 'pull',
  // --catalog is taken and ignored, as it always has been.
  flags: ['format', 'catalog'],
  formats: ['yaml', 'json'],
  operands: { count: 1, missing: 'an endpoint id is needed', extra: 'one at a time, please' },
  refuses: { flags: ['document', 'yes'], problem: '--document and --yes are for plan and deploy' },
} as const satisfies DeployCommandShape<'yaml' | 'json'>;

export async function runPull(args: string[], io: ServiceIo): Promise<number> {
  const line = readDeployLine(PULL, args, io);
  if (typeof line === 'number') return line;
  const client = serviceClient('pull', io, { announceRateLimits: true });
  if (typeof client === 'number') return client;
  const [endpointId = ''] = line.operands;
  const pulled = await pullSpec({ client, endpointId, format: formatOf(PULL, line), withHeader: true });
  if (!pulled.ok) {
    io.err(`endpoint-studio pull: ${pulled.message}`);
    return 1;
  }
  io.out(`${pulled.text}\n`);
  return 0;
}
