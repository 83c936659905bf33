/**
 * Which files are endpoint specs, and whether one is JSON or YAML. The language server, the editor
 * features and the CLI must all agree on this, so the naming rule lives here once. The extension
 * manifest (package.json) repeats the glob and the regex as data; a unit test keeps it in step.
 */
import type { SpecFormat } from '../endpointSpec/tree';

/** The extensions a spec file may have after `.endpoint`, YAML ones first. */
const SPEC_FILE_EXTENSIONS = ['yaml', 'yml', 'json'] as const;

/** `.endpoint.yaml`, `.endpoint.yml`, `.endpoint.json`: the endings that make a file a spec. */
export const SPEC_FILE_SUFFIXES: readonly string[] = SPEC_FILE_EXTENSIONS.map((extension) => `.endpoint.${extension}`);

/** Every spec file under a folder, for a file search; a search should ignore case, as SPEC_FILE_PATTERN does. */
export const SPEC_FILE_GLOB = '**/*.endpoint.{yaml,yml,json}';
/** The YAML specs only. */
export const YAML_SPEC_FILE_GLOB = '**/*.endpoint.{yaml,yml}';
/** The JSON specs only. */
export const JSON_SPEC_FILE_GLOB = '**/*.endpoint.json';

/**
 * Matches a spec file's path or URI. Only the suffix is tested, so a URI never needs percent-decoding
 * (decoding a malformed one would throw). Case-insensitive, like the file systems specs are kept on.
 */
export const SPEC_FILE_PATTERN = /\.endpoint\.(ya?ml|json)$/i;

/**
 * The editor's view of spec documents: each glob with the language the extension contributes for those
 * files. A language of their own (highlighted as YAML or JSON) is what lets the editor start the extension
 * when a spec is opened, and only then: `onLanguage:yaml` would start it for every YAML file.
 */
export const SPEC_DOCUMENT_PATTERNS = [
  { language: 'endpoint-yaml', format: 'yaml', pattern: YAML_SPEC_FILE_GLOB },
  { language: 'endpoint-json', format: 'json', pattern: JSON_SPEC_FILE_GLOB },
] as const;

/**
 * The spec files on disk by name alone, as an editor document selector: they normally have the spec languages, but
 * a user's `files.associations` may give them plain `yaml` or `json`, and they are specs all the same.
 */
export const SPEC_FILE_DOCUMENTS = SPEC_DOCUMENT_PATTERNS.map(({ pattern }) => ({ scheme: 'file', pattern }));

/**
 * The team policy (`.endpoint-studio/policy.yaml`): a document the language server serves beside the specs, and a
 * file it watches, since the specs' checks read it.
 */
export const POLICY_FILE_GLOB = '**/.endpoint-studio/policy.yaml';

/** Matches the team policy's path or URI, by its last two segments. */
const POLICY_FILE_PATTERN = /(?:^|[\\/])\.endpoint-studio[\\/]policy\.yaml$/;

export function isPolicyFile(pathOrUri: string): boolean {
  return POLICY_FILE_PATTERN.test(pathOrUri);
}

const JSON_FILE = /\.json$/i;

export function isSpecFile(pathOrUri: string): boolean {
  return SPEC_FILE_PATTERN.test(pathOrUri);
}

/** A spec file's name cut before its suffix, both as written; undefined for a file that is not a spec. */
export interface SpecFileNameParts {
  /** `specs/sdxl.prod` for `specs/sdxl.prod.endpoint.YAML`. */
  readonly stem: string;
  /** `.endpoint.YAML`. */
  readonly suffix: string;
}

export function splitSpecFileName(pathOrUri: string): SpecFileNameParts | undefined {
  const match = SPEC_FILE_PATTERN.exec(pathOrUri);
  return match ? { stem: pathOrUri.slice(0, match.index), suffix: match[0] } : undefined;
}

/**
 * JSON when the name ends in `.json` or the editor says the document is JSON; YAML otherwise, since
 * YAML is the default spec format and also reads any JSON that slipped through.
 */
export function specFormatOf(pathOrUri: string, languageId?: string): SpecFormat {
  return languageId === 'json' || languageId === 'endpoint-json' || JSON_FILE.test(pathOrUri) ? 'json' : 'yaml';
}

/** The file name a new spec gets: `<stem>.endpoint.yaml` (or `.json`). */
export function specFileName(stem: string, format: SpecFormat = 'yaml'): string {
  return `${stem}.endpoint.${format}`;
}
