/**
 * What the editor asks about a spec file before it deploys, diffs or compares it, answered from the workspace's
 * one owner of spec files (core/workspace/specWorkspace.ts), so the editor never parses or checks a spec itself:
 * each document's body as a deploy sends it (an overlay merged into its base), where it lies in the text, and the
 * file's place among its environments (an overlay's base and environment, a base's overlays). A closed file is
 * read from disk by the owner; an open one is answered at its current version, unsaved edits included.
 */
import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver';
import { locatePath } from '../../core/endpointSpec/locate';
import { isRecord } from '../../core/endpointSpec/ownData';
import type { JsonPathSegment, SpecDocument, TextSpan } from '../../core/endpointSpec/tree';
import {
  isSpecFile,
  LOCATE_PATHS_REQUEST,
  onRequestWith,
  SPEC_FILE_REQUEST,
  type LocatedPaths,
  type SpecDocumentFacts,
  type SpecFileFacts,
  type SpecOverlayFacts,
} from '../../core/protocol';
import { brokenPolicyMessage } from '../../core/operations/policyGate';
import type { SpecFileCheck } from '../../core/workspace/specWorkspace';
import type { SpecDocuments } from '../specDocuments';

export function registerSpecFacts(connection: Connection, specs: SpecDocuments, logError: (what: string, error: unknown) => void): void {
  onRequestWith(connection, SPEC_FILE_REQUEST, (params) => {
    const { uri, documentIndex } = specFileParams(params);
    return guarded(logError, () => specFileFacts(specs, uri, documentIndex));
  });
  onRequestWith(connection, LOCATE_PATHS_REQUEST, (params) => {
    const { uri, documentIndex, paths } = locateParams(params);
    return guarded(logError, () => locatedPaths(specs, uri, documentIndex, paths));
  });
}

function specFileFacts(specs: SpecDocuments, uri: string, documentIndex: number | undefined): SpecFileFacts {
  const at = isSpecFile(uri) ? specs.fileAt(uri) : undefined;
  if (!at) return { version: specs.spec(uri)?.version ?? null, documents: [], environments: [] };
  const { check, environments } = at.file;
  const documents = check.documents
    .map((document, index) => documentFacts(check, document, index))
    .filter((facts) => documentIndex === undefined || facts.index === documentIndex);
  return {
    version: at.version,
    documents,
    environments: environments.map(({ path, environment, patch, merged }) => ({
      path,
      environment,
      patch,
      ...(merged ? { body: merged } : {}),
    })),
    ...(check.overlay ? { overlay: overlayFacts(check, check.overlay) } : {}),
    // A deploy is refused under a broken policy even where a comment silenced its error on the spec's line.
    ...(check.policy && !check.policy.policy ? { brokenPolicy: brokenPolicyMessage(check.policy) } : {}),
  };
}

function documentFacts(check: SpecFileCheck, document: SpecDocument, index: number): SpecDocumentFacts {
  // An overlay deploys its base with it merged in; any other document deploys its own data.
  const data = check.overlay ? check.overlay.merged : document.data;
  const body = isRecord(data) ? data : undefined;
  const { root } = document;
  const errors = check.diagnostics
    .filter((d) => d.severity === 'error' && d.documentIndex === index)
    .map(({ code, message }) => ({ code, message }));
  return {
    index,
    isSpec: root?.kind === 'object',
    ...(body ? { body } : {}),
    span: spanOf(document.span),
    ...(root ? { root: spanOf(root) } : {}),
    ...(errors.length > 0 ? { errors } : {}),
  };
}

function overlayFacts(check: SpecFileCheck, overlay: NonNullable<SpecFileCheck['overlay']>): SpecOverlayFacts {
  const firstError = check.diagnostics.find((diagnostic) => diagnostic.severity === 'error')?.message;
  return {
    replacedArrays: [...overlay.replacedArrays],
    ...(overlay.environment !== undefined ? { environment: overlay.environment } : {}),
    ...(overlay.basePath !== undefined ? { basePath: overlay.basePath } : {}),
    ...(firstError !== undefined ? { firstError } : {}),
  };
}

function locatedPaths(specs: SpecDocuments, uri: string, documentIndex: number, paths: readonly JsonPathSegment[][]): LocatedPaths {
  const at = isSpecFile(uri) ? specs.fileAt(uri) : undefined;
  const document = at?.file.check.documents.at(documentIndex);
  if (!at || !document) return { version: at?.version ?? null, spans: [] };
  return { version: at.version, spans: paths.map((path) => spanOf(locatePath(document.root, path, 'value', document.span))) };
}

/** Only the two numbers: a tree node is a span too, and must not take its children onto the wire. */
const spanOf = ({ offset, length }: TextSpan): TextSpan => ({ offset, length });

/** A bug in the engine answers this request with an error; the server keeps serving. */
function guarded<R>(logError: (what: string, error: unknown) => void, answer: () => R): R {
  try {
    return answer();
  } catch (error) {
    logError('a spec file request failed', error);
    throw new ResponseError(ErrorCodes.InternalError, 'the spec could not be read (internal error; see the Endpoint Studio output)');
  }
}

function specFileParams(params: unknown): { uri: string; documentIndex?: number } {
  const uri = field(params, 'uri');
  const documentIndex = field(params, 'documentIndex');
  if (typeof uri !== 'string') throw invalid('uri must be a string');
  if (documentIndex !== undefined && !isIndex(documentIndex)) throw invalid('documentIndex must be a whole number');
  return { uri, ...(documentIndex !== undefined ? { documentIndex } : {}) };
}

function locateParams(params: unknown): { uri: string; documentIndex: number; paths: JsonPathSegment[][] } {
  const { uri } = specFileParams(params);
  const documentIndex = field(params, 'documentIndex');
  const paths = field(params, 'paths');
  if (!isIndex(documentIndex)) throw invalid('documentIndex must be a whole number');
  if (!Array.isArray(paths) || !paths.every(isJsonPath)) throw invalid('paths must be lists of property names and array indexes');
  return { uri, documentIndex, paths };
}

const field = (params: unknown, name: string): unknown =>
  typeof params === 'object' && params !== null ? (params as Record<string, unknown>)[name] : undefined;

const isIndex = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

const isJsonPath = (value: unknown): value is JsonPathSegment[] =>
  Array.isArray(value) && value.every((segment) => typeof segment === 'string' || isIndex(segment));

const invalid = (message: string): ResponseError => new ResponseError(ErrorCodes.InvalidParams, message);
