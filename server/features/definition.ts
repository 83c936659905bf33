/** Go to Definition on an overlay's `extends` opens its base. */
import type { Connection, Location } from 'vscode-languageserver';
import { pathToFileURL } from 'node:url';
import { extendsEntry } from '../../core/endpointSpec/overlay';
import { containsOffset } from '../../core/endpointSpec/tree';
import type { SpecDocuments } from '../specDocuments';

export function registerDefinition(connection: Connection, specs: SpecDocuments): void {
  connection.onDefinition((params): Location | null => {
    const document = specs.spec(params.textDocument.uri);
    if (!document) return null;
    const { basePath } = specs.linksOf(document);
    const entry = extendsEntry(specs.analysisOf(document).documents[0]);
    const offset = document.offsetAt(params.position);
    if (!basePath || !entry || !(containsOffset(entry.keySpan, offset) || containsOffset(entry.valueSpan, offset))) return null;
    const start = { line: 0, character: 0 };
    return { uri: pathToFileURL(basePath).href, range: { start, end: start } };
  });
}
