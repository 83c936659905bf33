/**
 * Keeps the API key out of everything a person or a log could read. A server may echo a header
 * back in an error, a proxy may put it in an HTML page, a network error may quote a request: all
 * text that reaches an error, a log entry or a URL passes through here first.
 */

export const REDACTED = '[redacted]';

export type Redactor = (text: string) => string;

/** Tokens shorter than this are not redacted verbatim: replacing every `a` would garble text. */
const MIN_SECRET_LENGTH = 4;

export function createRedactor(secrets: readonly string[]): Redactor {
  const literal = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  return (text: string): string => {
    let out = text;
    for (const secret of literal) {
      out = out.split(secret).join(REDACTED);
      // A URL-encoded copy (in a query string or a form body) is still the key.
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret) out = out.split(encoded).join(REDACTED);
    }
    // Whatever the key, an Authorization value or a key-ish query parameter never survives.
    // ("bearer token" in prose, as in "invalid bearer token", is left readable.)
    out = out.replace(/(Bearer\s+)(?!token\b)[^\s"',;]+/gi, `$1${REDACTED}`);
    out = out.replace(/([?&](?:api_key|apikey|key|token)=)[^&#\s"']+/gi, `$1${REDACTED}`);
    return out;
  };
}
