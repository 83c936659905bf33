/**
 * One service URL, two accounts: staging and production, each an emulator with its own key, and a router in
 * front sending each request to the emulator whose key it carries (any other key gets the first one's 401).
 * Where an endpoint was made then shows which key its deploy carried.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient } from '../../core/api';
import { startEmulator } from '../../emulator';

export const STAGING_KEY = 'es_test_STAGING_key_41c9e2';
export const PROD_KEY = 'es_test_PROD_key_9b07d3';

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;

export interface TwoAccounts {
  readonly url: string;
  readonly staging: Emulator;
  readonly prod: Emulator;
  close(): Promise<void>;
}

export async function twoAccounts(): Promise<TwoAccounts> {
  const options = { port: 0, jobsPort: 0, timeScale: 50, seed: 5 };
  const staging = await startEmulator({ ...options, apiKey: STAGING_KEY });
  const prod = await startEmulator({ ...options, apiKey: PROD_KEY });
  const server: Server = createServer((req, res) => {
    const target = new URL(req.headers.authorization === `Bearer ${PROD_KEY}` ? prod.restUrl : staging.restUrl);
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    staging,
    prod,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => {
        server.close(() => {
          done();
        });
      });
      await Promise.all([staging.close(), prod.close()]);
    },
  };
}

/** The names of the endpoints an account holds, sorted. */
export async function endpointNames(emu: Emulator, apiKey: string): Promise<string[]> {
  return (await createApiClient({ apiUrl: emu.restUrl, apiKey }).serverless.list()).map((e) => e.name).sort();
}
