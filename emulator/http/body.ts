/** Reads a JSON request body defensively: hostile input becomes a problem, never a crash. */
import type { IncomingMessage } from 'node:http';
import { ProblemError } from './problems';

/** Far above any real endpoint spec; keeps a hostile client from filling memory. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * How much of an oversized body is read and thrown away before its 413 is sent. A client still
 * sending when the server answers and closes sees a broken pipe (Node's fetch: EPIPE or
 * ECONNRESET), never the answer, so the rest of the body is read first. Past this much the 413 goes
 * at once and the connection closes, so no client can keep the server reading for ever.
 */
export const MAX_DISCARDED_BYTES = 16 * 1024 * 1024;

function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const mediaType = header.split(';')[0].trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[\w.-]+\+json$/.test(mediaType);
}

function tooLarge(detail: string, closeConnection: boolean): ProblemError {
  return new ProblemError(413, detail, undefined, closeConnection ? { Connection: 'close' } : {});
}

function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    const declaredTooLarge = Number.isFinite(declared) && declared > limit;
    const declaredDetail = `request body is ${declared} bytes; the limit is ${limit} bytes`;
    if (declaredTooLarge && declared > limit + MAX_DISCARDED_BYTES) {
      reject(tooLarge(declaredDetail, true));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    /** Set once the body is known to be too large; the rest is then read and dropped until it ends. */
    let oversized: string | undefined = declaredTooLarge ? declaredDetail : undefined;
    const settle = (outcome: () => void): void => {
      if (done) return;
      done = true;
      outcome();
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit + MAX_DISCARDED_BYTES) {
        settle(() => {
          reject(tooLarge(oversized ?? `request body exceeds the limit of ${limit} bytes`, true));
        });
        return;
      }
      if (oversized === undefined && size > limit) {
        oversized = `request body exceeds the limit of ${limit} bytes`;
        chunks.length = 0;
      }
      if (oversized === undefined) chunks.push(chunk);
    });
    req.on('end', () => {
      settle(() => {
        if (oversized !== undefined) reject(tooLarge(oversized, false));
        else resolve(Buffer.concat(chunks));
      });
    });
    req.on('error', (error) => {
      settle(() => {
        reject(new ProblemError(400, `could not read the request body: ${error.message}`));
      });
    });
  });
}

/**
 * The parsed JSON body. `required: false` lets an empty body through as `undefined` (job
 * operations like cancel take no body); any body that is sent must still be JSON.
 */
export async function readJsonBody(req: IncomingMessage, options: { required: boolean } = { required: true }): Promise<unknown> {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) {
    req.resume();
    if (options.required) throw new ProblemError(400, 'a JSON request body is required');
    return undefined;
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    req.resume();
    throw new ProblemError(
      415,
      `request bodies are JSON: send Content-Type: application/json (got ${req.headers['content-type'] ? JSON.stringify(req.headers['content-type']) : 'none'})`,
    );
  }
  const raw = await readRaw(req, MAX_BODY_BYTES);
  const text = raw.toString('utf8');
  if (text.trim() === '') {
    if (options.required) throw new ProblemError(400, 'a JSON request body is required');
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ProblemError(400, `request body is not valid JSON: ${(error as Error).message}`, ['$: malformed JSON']);
  }
}
