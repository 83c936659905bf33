/**
 * Format Document and Format Selection for specs (so format on save works). The style is the language
 * service's; the one choice, the contract's key order, is the resource's `endpointStudio.format` setting,
 * asked of the client for the document at hand when it offers workspace/configuration.
 */
import type { Connection, FormattingOptions, Range, TextEdit } from 'vscode-languageserver';
import { SETTINGS_SECTION } from '../../core/protocol';
import { formatting } from '../languageService/format';
import type { ServerSession } from '../session';
import { rangeAt, type SpecDocuments } from '../specDocuments';

/** The settings read for formatting, under `endpointStudio`. */
const FORMAT_SECTION = `${SETTINGS_SECTION}.format`;

/** An editor that does not answer soon formats with the defaults rather than leaving the save waiting. */
const SETTINGS_TIMEOUT_MS = 1000;

export function registerFormatting(connection: Connection, specs: SpecDocuments, session: ServerSession): void {
  const format = async (uri: string, options: FormattingOptions, range?: Range): Promise<TextEdit[]> => {
    const document = specs.spec(uri);
    if (!document) return [];
    const contractKeyOrder = await keyOrderSetting(connection, session, uri);
    // The text may have changed while the setting was read: format what is there now.
    const current = specs.spec(uri) ?? document;
    const start = range ? current.offsetAt(range.start) : 0;
    const { edits } = formatting(current.getText(), specs.formatOf(current), specs.analysisOf(current).documents, {
      tabSize: options.tabSize,
      insertSpaces: options.insertSpaces,
      insertFinalNewline: options.insertFinalNewline,
      contractKeyOrder,
      ...(range ? { range: { offset: start, length: current.offsetAt(range.end) - start } } : {}),
    });
    return edits.map((edit) => ({ range: rangeAt(current, edit.offset, edit.length), newText: edit.newText }));
  };
  connection.onDocumentFormatting((params) => format(params.textDocument.uri, params.options));
  connection.onDocumentRangeFormatting((params) => format(params.textDocument.uri, params.options, params.range));
}

async function keyOrderSetting(connection: Connection, session: ServerSession, uri: string): Promise<boolean> {
  const section: unknown = await Promise.race([
    session.requests.ask('workspace/configuration', () =>
      connection.workspace.getConfiguration({ scopeUri: uri, section: FORMAT_SECTION }),
    ),
    new Promise((resolve) => setTimeout(resolve, SETTINGS_TIMEOUT_MS)),
  ]);
  return typeof section === 'object' && section !== null && (section as Record<string, unknown>).contractOrder === true;
}
