/**
 * Document links (`templateId` to its template, `image` to its registry page) and the read-only text a
 * template link opens, served over `workspace/textDocumentContent` to editors that offer it (LSP 3.18).
 */
import type { Connection, DocumentLink } from 'vscode-languageserver';
import { documentLinks, templateText } from '../languageService/links';
import type { ServerSession } from '../session';
import { rangeAt, type SpecDocuments } from '../specDocuments';
import { templateIdOf, templateUri } from '../uris';
import type { ServerCatalog } from './catalogStatus';

export function registerLinks(connection: Connection, specs: SpecDocuments, catalog: ServerCatalog, session: ServerSession): void {
  connection.onDocumentLinks((params) => {
    const document = specs.spec(params.textDocument.uri);
    if (!document) return [];
    const opensTemplates = session.capabilities.workspace?.textDocumentContent !== undefined;
    const links = documentLinks(specs.analysisOf(document).documents, {
      documentUri: document.uri,
      catalog: catalog.catalog,
      templateUri: opensTemplates ? templateUri : undefined,
    });
    return links.map((link): DocumentLink => ({
      range: rangeAt(document, link.span.offset, link.span.length),
      target: link.target,
      tooltip: link.tooltip,
    }));
  });
  connection.workspace.textDocumentContent.on((params) => {
    const id = templateIdOf(params.uri);
    return { text: id === undefined ? '' : templateText(catalog.catalog, id) };
  });
}
