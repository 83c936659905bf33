/**
 * package.json as the editor and the Marketplace read it: every `%key%` string replaced by its text in
 * package.nls.json. The manifest keeps its user-facing texts there so they can be translated; whatever
 * reads those texts outside the editor (the settings reference, tests) reads them through this.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const NLS_REFERENCE = /^%([^%\s]+)%$/;

/** The manifest's texts by key (package.nls.json). */
export function manifestTexts(root: string): Record<string, string> {
  return JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
}

/** Replaces every `%key%` string inside `value`; a key with no text is an error, not a silent `%key%`. */
export function localize(value: unknown, texts: Readonly<Record<string, string>>): unknown {
  if (typeof value === 'string') {
    const key = NLS_REFERENCE.exec(value)?.[1];
    if (key === undefined) return value;
    if (!Object.hasOwn(texts, key)) throw new Error(`package.json refers to %${key}%, which package.nls.json does not define`);
    return texts[key];
  }
  if (Array.isArray(value)) return value.map((item) => localize(item, texts));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, localize(item, texts)]));
  }
  return value;
}

/** The `%key%` references in `value`, in document order. */
export function nlsReferences(value: unknown): string[] {
  if (typeof value === 'string') {
    const key = NLS_REFERENCE.exec(value)?.[1];
    return key === undefined ? [] : [key];
  }
  if (Array.isArray(value)) return value.flatMap(nlsReferences);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(nlsReferences);
  return [];
}

/** package.json with its texts in place. */
export function readLocalizedManifest(root: string): unknown {
  return localize(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')), manifestTexts(root));
}
