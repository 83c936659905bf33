/**
 * Marks, beside the lines of a diff's spec side, the values its spec does not write: what the service, the spec's
 * template or a default filled in. They are decorations rather than text, so such a line reads the same on both
 * sides and the diff shows only what a deploy changes.
 */
import * as vscode from 'vscode';
import { filledNote, type FilledLine } from '../../core/deploy/diffSides';

const WHY: Record<FilledLine['by'], string> = {
  service: 'The spec leaves this out, so the service chose it; a deploy keeps it.',
  template: 'The spec leaves this to its template; the service took it from there, and a deploy keeps it.',
  default: 'The spec leaves this out, so a deploy sets the default.',
};

export class FilledMarks implements vscode.Disposable {
  private readonly byDocument = new Map<string, readonly vscode.DecorationOptions[]>();
  private readonly decoration = vscode.window.createTextEditorDecorationType({
    after: { color: new vscode.ThemeColor('editorCodeLens.foreground'), fontStyle: 'italic', margin: '0 0 0 2em' },
  });
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.window.onDidChangeVisibleTextEditors((editors) => {
        this.show(editors);
      }),
      vscode.workspace.onDidCloseTextDocument((document) => this.byDocument.delete(document.uri.toString())),
    ];
  }

  /** The marks of a virtual document, shown in every editor of it now and later. */
  set(uri: vscode.Uri, lines: readonly FilledLine[], templateId?: string): void {
    this.byDocument.set(
      uri.toString(),
      lines.map(({ line, end, by }) => ({
        range: new vscode.Range(line, 0, line, end),
        hoverMessage: WHY[by],
        renderOptions: { after: { contentText: filledNote(by, templateId) } },
      })),
    );
    this.show(vscode.window.visibleTextEditors);
  }

  private show(editors: readonly vscode.TextEditor[]): void {
    for (const editor of editors) {
      const marks = this.byDocument.get(editor.document.uri.toString());
      if (marks) editor.setDecorations(this.decoration, marks);
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.decoration.dispose();
    this.byDocument.clear();
  }
}
