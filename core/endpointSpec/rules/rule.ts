import { isRecord } from '../ownData';
import type { Severity, SpecProblem } from '../problem';
import type { SpecMode } from '../schemas';
import type { JsonPath } from '../tree';

export interface RuleFinding {
  readonly path: JsonPath;
  readonly target: 'key' | 'value';
  readonly message: string;
  readonly suggestion?: string;
  readonly related?: readonly string[];
}

/**
 * A cross-field rule: one concern, one stable code. It reads the spec as plain data and must
 * tolerate any shape (the schema reports wrong types; a rule just finds nothing to say).
 */
export interface SpecRule {
  readonly code: string;
  readonly severity: Severity;
  /** What the service answers when it rejects this (errors only). */
  readonly status?: 400 | 422;
  /** The modes the rule applies to; an update body lacks context that some rules need. */
  readonly modes: readonly SpecMode[];
  /** One line for docs and `--list-rules`. */
  readonly description: string;
  check(spec: Record<string, unknown>): RuleFinding[];
}

type ProblemSource = Pick<SpecRule, 'code' | 'severity'> & { status?: 400 | 404 | 422 };

/** Appends the rule's findings to `problems` as problems, and answers `problems`. */
export function addFindings(problems: SpecProblem[], rule: ProblemSource, findings: readonly RuleFinding[]): SpecProblem[] {
  for (let i = 0; i < findings.length; i++)
    problems.push({ ...findings[i], code: rule.code, severity: rule.severity, ...(rule.status ? { status: rule.status } : {}) });
  return problems;
}

export function record(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}

export function has(object: Record<string, unknown> | undefined, key: string): boolean {
  return object !== undefined && Object.prototype.hasOwnProperty.call(object, key) && object[key] !== undefined;
}

export function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

export const BOTH_MODES: readonly SpecMode[] = ['create', 'update'];
export const CREATE_ONLY: readonly SpecMode[] = ['create'];
