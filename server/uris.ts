/**
 * The URIs the language server reads and serves: the path on disk behind a `file:` URI, and the scheme of the
 * read-only template texts it opens. Both the session (which declares the scheme and reads workspace folders)
 * and the features use them, so they live below both and neither has to import the other for them.
 */
import { fileURLToPath } from 'node:url';

/** The URI scheme of a template's text; the server declares it in its capabilities. */
export const TEMPLATE_SCHEME = 'endpoint-studio-template';

export function templateUri(id: string): string {
  return `${TEMPLATE_SCHEME}:/${encodeURIComponent(id)}.yaml`;
}

/** The template id a `templateUri` names; undefined for any other URI. */
export function templateIdOf(uri: string): string | undefined {
  const match = new RegExp(`^${TEMPLATE_SCHEME}:/([^/]*)\\.yaml$`).exec(uri);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

/** The file a `file:` URI names; undefined for another scheme or a URI that names no file. */
export function filePathOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
