/**
 * `endpoint-studio catalog export`: the service's catalog as the snapshot file `validate --catalog`
 * and `migrate --catalog` read, with when it was read and a format version, so a CI job without a
 * key can pin it (and a pull request shows how the catalog moved when it is exported again).
 * Exit codes: 0 written, 1 the service could not be read, 2 usage error, no key or unwritable file.
 */
import { CATALOG_REQUEST_TIMEOUT_MS, catalogSnapshot, fetchCatalogData } from '../core/catalog';
import { writeFileAtomic } from '../core/util/atomicWrite';
import { readCommandLine, usageError } from './args';
import { serviceClient, type ServiceIo } from './service';

export const CATALOG_HELP = `Usage: endpoint-studio catalog export [--output FILE]

Reads the service's catalog (GPU types with their pools, stock and CUDA versions, CPU flavors,
data centers, templates, network volumes, registries) and prints it as a snapshot, or writes
it to FILE. validate --catalog FILE and migrate --catalog FILE check against it offline.
The service is $ENDPOINT_STUDIO_API_URL with the key in $ENDPOINT_STUDIO_API_KEY.

Exit status: 0 written, 1 the service could not be read, 2 usage error, no key or unwritable file.`;

const COMMAND_LINE = {
  command: 'catalog',
  usage: CATALOG_HELP,
  options: { output: { type: 'string', short: 'o' } },
  allowPositionals: true,
} as const;

export async function runCatalog(args: string[], io: ServiceIo): Promise<number> {
  const line = readCommandLine(COMMAND_LINE, args, io);
  if (typeof line === 'number') return line;
  const [subcommand, ...extra] = line.positionals;
  if (subcommand !== 'export')
    return usageError(COMMAND_LINE, io, subcommand ? `unknown subcommand: ${subcommand}` : 'export is the one subcommand');
  if (extra.length > 0) return usageError(COMMAND_LINE, io, `unexpected argument: ${extra[0]}`);
  const { output } = line.values;
  if (output === '') return usageError(COMMAND_LINE, io, '--output takes a file');

  const client = serviceClient('catalog', io, { announceRateLimits: true });
  if (typeof client === 'number') return client;
  let text: string;
  try {
    const data = await fetchCatalogData(client, { timeoutMs: CATALOG_REQUEST_TIMEOUT_MS });
    text = `${JSON.stringify(catalogSnapshot(data, new Date().toISOString(), client.apiUrl), null, 2)}\n`;
  } catch (error) {
    io.err(`endpoint-studio catalog: cannot read the catalog: ${client.redact(error instanceof Error ? error.message : String(error))}`);
    return 1;
  }
  if (output === undefined) {
    io.out(text);
    return 0;
  }
  try {
    await writeFileAtomic(output, text);
  } catch (error) {
    io.err(`endpoint-studio catalog: cannot write ${output}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  io.err(`endpoint-studio catalog: wrote ${output}`);
  return 0;
}
