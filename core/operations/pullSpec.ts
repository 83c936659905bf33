/**
 * Pull a live endpoint's configuration as spec text, the same from the editor (into a spec document)
 * and the CLI (to stdout): the endpoint read fresh, written in the spec's own vocabulary.
 */
import type { ApiClient, Endpoint } from '../api';
import { liveAsSpec, type Spec } from '../deploy/effective';
import { serializeSpec } from '../endpointSpec/serialize';
import type { SpecFormat } from '../endpointSpec/tree';
import { serviceFailure } from './planDeploy';

export interface PullSpecInput {
  readonly client: ApiClient;
  readonly endpointId: string;
  readonly format: SpecFormat;
  /** Head the text with where it came from (the CLI's output); a spec edited in place is left without. */
  readonly withHeader?: boolean;
  readonly now?: Date;
}

export type PullSpecResult =
  | { readonly ok: true; readonly endpoint: Endpoint; readonly spec: Spec; readonly text: string }
  | { readonly ok: false; readonly message: string; readonly notFound: boolean };

export async function pullSpec(input: PullSpecInput): Promise<PullSpecResult> {
  const { client } = input;
  try {
    const endpoint = await client.serverless.get(input.endpointId);
    const spec = liveAsSpec(endpoint);
    const notes = input.withHeader ? headerNotes(endpoint, input.now ?? new Date()) : [];
    return { ok: true, endpoint, spec, text: serializeSpec(spec, input.format, notes) };
  } catch (error) {
    return serviceFailure(client, error);
  }
}

function headerNotes(endpoint: Endpoint, now: Date): string[] {
  const templateId = (endpoint as unknown as Spec).templateId;
  const notes = [`endpoint ${endpoint.id}, read ${now.toISOString()}`];
  if (typeof templateId === 'string') notes.push(`created from template ${templateId}; its settings are written out below`);
  return notes;
}
