/**
 * `.endpoint-studio/environments.yaml`: per environment, the profile the editor deploys it with, the variable
 * holding its key in CI, and whether it is protected. The file is the workspace's, so it can name profiles and
 * variables only (its schema, schemas/environments.schema.json, admits nothing else): a cloned repository can
 * never hold a key or point a profile's key at another host through it.
 */
import { join } from 'node:path';
import * as compiled from '../endpointSpec/generated/validators';
import { locatePath } from '../endpointSpec/locate';
import { ownValue } from '../endpointSpec/ownData';
import { parseSpecText } from '../endpointSpec/parse';
import { formatFieldPath, pointerTokens, type JsonPath, type TextSpan } from '../endpointSpec/tree';
import { DISK_FILE_VIEW } from './overlays';

export const ENVIRONMENTS_FILE = join('.endpoint-studio', 'environments.yaml');

interface EnvironmentSettings {
  readonly profile?: string;
  readonly keyVariable?: string;
  readonly protected?: boolean;
}

export interface EnvironmentsConfig {
  readonly environments: Readonly<Record<string, EnvironmentSettings>>;
}

export interface EnvironmentsProblem {
  readonly message: string;
  readonly span: TextSpan;
}

export interface EnvironmentsFile {
  /** The settings, or none when the file is missing or broken (then every environment has the defaults). */
  readonly config: EnvironmentsConfig;
  readonly problems: readonly EnvironmentsProblem[];
}

const NO_ENVIRONMENTS: EnvironmentsConfig = { environments: {} };
const validate = compiled.environments;

/** The file's text checked against its schema; a broken file configures nothing. */
export function parseEnvironments(text: string): EnvironmentsFile {
  const document = parseSpecText(text, 'yaml').at(0);
  const syntax = document?.syntaxProblems.filter((p) => p.severity === 'error') ?? [];
  if (!document || syntax.length > 0) return { config: NO_ENVIRONMENTS, problems: syntax.map((p) => ({ message: p.message, span: p })) };
  if (validate(document.data)) return { config: document.data as EnvironmentsConfig, problems: [] };
  const problems = (validate.errors ?? []).map((error) => {
    const path: JsonPath = pointerTokens(error.instancePath);
    const extra = (error.params as { additionalProperty?: string }).additionalProperty;
    const at = extra === undefined ? path : [...path, extra];
    const message =
      extra === undefined
        ? `${formatFieldPath(path)} ${error.message ?? 'is not valid'}`
        : `${formatFieldPath(at)} is not allowed here: this file names profiles and key variables, never a key or a service URL`;
    return { message, span: locatePath(document.root, at, extra === undefined ? 'value' : 'key', document.span) };
  });
  return { config: NO_ENVIRONMENTS, problems };
}

/** The workspace's environments file, read from `root`; a missing file is no environments and no problem. */
export function readEnvironments(root: string): EnvironmentsFile {
  const text = DISK_FILE_VIEW.read(join(root, ENVIRONMENTS_FILE));
  return text === undefined ? { config: NO_ENVIRONMENTS, problems: [] } : parseEnvironments(text);
}

/** `prod` → `ENDPOINT_STUDIO_API_KEY_PROD`: where the command line reads an environment's key unless the file says. */
export function keyVariableOf(environment: string, config: EnvironmentsConfig): string {
  return (
    ownValue(config.environments, environment)?.keyVariable ?? `ENDPOINT_STUDIO_API_KEY_${environment.toUpperCase().replace(/-/g, '_')}`
  );
}

export function isProtected(environment: string, config: EnvironmentsConfig): boolean {
  return ownValue(config.environments, environment)?.protected === true;
}

export function profileOf(environment: string, config: EnvironmentsConfig): string | undefined {
  return ownValue(config.environments, environment)?.profile;
}
