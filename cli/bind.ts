/**
 * `endpoint-studio bind`: record that a spec document describes an existing endpoint, without deploying, so the
 * next deploy updates it; then say how the endpoint differs from the spec. Recording the binding and working out
 * the drift is the operations layer's (`bindSpec`). Its flags are those of deployCommandLine.ts.
 * Exit codes: 0 bound, 1 spec with errors, unreadable bindings or API problem, 2 usage error, unreadable file,
 * no such document or no key.
 */
import type { Spec } from '../core/deploy/effective';
import { renderChange } from '../core/deploy/render';
import { bindSpec, readSpecBindings } from '../core/operations';
import { readDeployLine, type DeployCommandShape } from './deployCommandLine';
import { serviceClient, type ServiceIo } from './service';
import { readCheckedSpec } from './target';

const BIND = {
  command: 'bind',
  flags: ['document'],
  operands: {
    count: 2,
    missing: 'a spec file and an endpoint id are needed',
    extra: 'one spec and one endpoint id, please',
  },
} as const satisfies DeployCommandShape;

export async function runBind(args: string[], io: ServiceIo): Promise<number> {
  const line = readDeployLine(BIND, args, io);
  if (typeof line === 'number') return line;
  const [file = '', endpointId = ''] = line.operands;
  const documentIndex = line.document ?? 0;
  const read = await readCheckedSpec(file, 'bind', io);
  if (read === undefined) return 2;
  const document = read.checked.documents.at(documentIndex);
  if (!document?.isSpec) {
    io.err(`endpoint-studio bind: ${file} has no spec document ${documentIndex}`);
    return 2;
  }
  const client = serviceClient('bind', io, { announceRateLimits: true });
  if (typeof client === 'number') return client;
  const bindings = readSpecBindings(file);
  if (!bindings.ok) {
    io.err(`endpoint-studio bind: ${bindings.error}`);
    return 1;
  }
  const ref = { ...bindings.location, documentIndex };
  if (document.body === undefined) {
    io.err(`endpoint-studio bind: ${file} has errors (its base cannot be merged); run endpoint-studio validate ${file}`);
    return 1;
  }
  const bound = await bindSpec({ client, document: ref, endpointId, spec: document.body as Spec });
  if (!bound.ok) {
    io.err(`endpoint-studio bind: ${bound.message}`);
    return 1;
  }
  const previous = bindings.binding(documentIndex);
  const replaced = previous && previous.endpointId !== endpointId ? ` (was ${previous.endpointId})` : '';
  io.out(
    `bound ${ref.key} (document ${documentIndex}) to endpoint ${bound.endpoint.id} ${JSON.stringify(bound.endpoint.name)}${replaced}\n`,
  );
  if (bound.drift.length === 0) io.out('the endpoint matches the spec\n');
  else {
    io.out(
      `the endpoint differs from the spec in ${bound.drift.length} field(s) (before = live, after = spec); deploy makes the update:\n`,
    );
    for (const change of bound.drift) io.out(`  ${renderChange(change)}\n`);
  }
  return 0;
}
