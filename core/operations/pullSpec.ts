/**
 * Pull a live endpoint's configuration as spec text, the same from the editor (into a spec document)
 * and the CLI (to stdout): the endpoint read fresh, written in the spec's own vocabulary.
 */
import { ApiError, type ApiClient, type CallOptions, type Endpoint } from '../api';
import { liveAsSpec, type Spec } from '../deploy/effective';
import { serializeSpec } from '../endpointSpec/serialize';
import type { SpecFormat } from '../endpointSpec/tree';

export interface PullSpecInput {
  readonly client: ApiClient;
  readonly endpointId: string;
  readonly format: SpecFormat;
  /** Head the text with where it came from (the CLI's output); a spec edited in place is left without. */
  readonly withHeader?: boolean;
  readonly now?: Date;
  readonly call?: CallOptions;
}

export type PullSpecResult =
  | { readonly ok: true; readonly endpoint: Endpoint; readonly spec: Spec; readonly text: string }
  | { readonly ok: false; readonly message: string; readonly notFound: boolean };

export async function pullSpec(input: PullSpecInput): Promise<PullSpecResult> {
  const { client } = input;
  try {
    const endpoint = await client.serverless.get(input.endpointId, input.call ?? {});
    return {
      ok: true,
      endpoint,
      ...specTextOf(endpoint, input.format, input.withHeader ? headerNotes(endpoint, input.now ?? new Date()) : []),
    };
  } catch (error) {
    return {
      ok: false,
      message: client.redact(error instanceof Error ? error.message : String(error)),
      notFound: error instanceof ApiError && error.notFound,
    };
  }
}

/** The endpoint as spec text, for a caller that already holds it. */
export function specTextOf(endpoint: Endpoint, format: SpecFormat, notes: readonly string[] = []): { spec: Spec; text: string } {
  const spec = liveAsSpec(endpoint);
  return { spec, text: serializeSpec(spec, format, [...notes]) };
}

function headerNotes(endpoint: Endpoint, now: Date): string[] {
  const templateId = (endpoint as unknown as Spec).templateId;
  const notes = [`endpoint ${endpoint.id}, read ${now.toISOString()}`];
  if (typeof templateId === 'string') notes.push(`created from template ${templateId}; its settings are written out below`);
  return notes;
}
