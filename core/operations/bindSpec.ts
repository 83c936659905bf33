/**
 * Bind a spec document to an existing endpoint without deploying: the way to claim an endpoint made
 * elsewhere (the console, a demo, another checkout) so the next deploy updates it instead of
 * creating a namesake. The endpoint is read first, so a binding never names one that does not exist.
 */
import { ApiError, type ApiClient, type Endpoint } from '../api';
import { driftBetween, type Change } from '../deploy/diff';
import type { Spec } from '../deploy/effective';
import { saveBinding, type SpecDocumentRef } from './specBindings';

export interface BindSpecInput {
  readonly client: ApiClient;
  readonly document: SpecDocumentRef;
  readonly endpointId: string;
  /** The document's data, to say how the endpoint differs from it. */
  readonly spec?: Spec;
}

export type BindSpecResult =
  | {
      readonly ok: true;
      readonly endpoint: Endpoint;
      /** Where the live endpoint differs from the spec (`before` live, `after` spec): what a deploy would change. */
      readonly drift: readonly Change[];
      readonly path: string;
    }
  | { readonly ok: false; readonly message: string; readonly notFound: boolean };

export async function bindSpec(input: BindSpecInput): Promise<BindSpecResult> {
  const { client, endpointId } = input;
  let endpoint: Endpoint;
  try {
    endpoint = await client.serverless.get(endpointId);
  } catch (error) {
    const notFound = error instanceof ApiError && error.notFound;
    const message = notFound ? `no endpoint ${endpointId}` : client.redact(error instanceof Error ? error.message : String(error));
    return { ok: false, message, notFound };
  }
  const saved = saveBinding(input.document, endpoint);
  if (!saved.saved) return { ok: false, message: saved.error, notFound: false };
  const drift = input.spec ? driftBetween(input.spec, endpoint) : [];
  return { ok: true, endpoint, drift, path: saved.path };
}
