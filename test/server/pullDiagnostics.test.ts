/**
 * Diagnostics the way VS Code asks for them: the server is started with the capabilities the real
 * vscode-languageclient declares, and a client that pulls as the library does (a pull after every change,
 * one pull in flight per document, the one in flight cancelled by the next change and asked again once it
 * returns) types into a spec. Each keystroke gives the value a new problem message, so an answer shows
 * which text it was computed for.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node';
import { LSPErrorCodes, type Diagnostic, type DocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { diagnosticText, LspClient } from '../support/lspClient';
import { vscodeClientCapabilities } from '../support/vscodeClientCapabilities';

const URI = 'file:///workspace/typing.endpoint.yaml';

/** The spec after the `n`-th keystroke: a queueDelay below the minimum, different each time. */
function specAfter(n: number): string {
  return `name: demo\ntype: QUEUE\nimage: myorg/worker:1.0.0\ngpu:\n  pools: [ADA_24]\nscaling:\n  type: QUEUE_DELAY\n  queueDelay: 0.0${String(n).padStart(2, '0')}1\n`;
}

/** Which keystroke's text an answer was computed for, read from its out-of-range message. */
function keystrokeOf(items: Diagnostic[]): number {
  const match = /got: 0\.0(\d\d)1/.exec(items.map(diagnosticText).join('\n'));
  assert.ok(match, `an answer names the value it checked: ${JSON.stringify(items.map(diagnosticText))}`);
  return Number(match[1]);
}

interface Answer {
  readonly asked: number;
  readonly computedFor?: number;
  readonly cancelled: boolean;
}

/** Pulls as vscode-languageclient's DiagnosticRequestor does, recording each answer. */
class PullingEditor {
  readonly answers: Answer[] = [];
  private inFlight?: { source: CancellationTokenSource; done: Promise<void> };
  private askAgain = false;
  private keystroke = 0;

  constructor(private readonly client: LspClient) {}

  /** A keystroke: its change, then the pull (or the cancellation of the pull in flight), written at once. */
  type(): void {
    this.keystroke++;
    void this.client.change(URI, specAfter(this.keystroke));
    this.pull();
  }

  /** Waits until no pull is in flight or asked for. */
  async settled(): Promise<void> {
    while (this.inFlight) await this.inFlight.done;
  }

  private pull(): void {
    if (this.inFlight) {
      this.inFlight.source.cancel();
      this.askAgain = true;
      return;
    }
    const source = new CancellationTokenSource();
    const asked = this.keystroke;
    const request = this.client.connection.sendRequest<DocumentDiagnosticReport>(
      'textDocument/diagnostic',
      { textDocument: { uri: URI } },
      source.token,
    );
    const done = request.then(
      (report) => {
        this.answers.push({ asked, computedFor: report.kind === 'full' ? keystrokeOf(report.items) : undefined, cancelled: false });
      },
      (error: unknown) => {
        assert.ok(
          error instanceof ResponseError && error.code === LSPErrorCodes.RequestCancelled,
          `a pull fails only as cancelled: ${String(error)}`,
        );
        this.answers.push({ asked, cancelled: true });
      },
    );
    this.inFlight = {
      source,
      done: done.then(() => {
        this.inFlight = undefined;
        if (this.askAgain) {
          this.askAgain = false;
          this.pull();
        }
      }),
    };
  }
}

describe("pull diagnostics with vscode-languageclient's capabilities", () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ capabilities: vscodeClientCapabilities() });
    assert.ok(client.initializeResult?.capabilities.diagnosticProvider, 'the server offers pull diagnostics to VS Code');
    await client.open(URI, specAfter(0));
  });
  after(async () => {
    await client.stop();
  });

  it('a burst of keystrokes is checked once, for the latest text', async () => {
    const editor = new PullingEditor(client);
    const keys = 30;
    // Written at once: the rest of the burst reaches the server while it answers the first pull, or before.
    for (let i = 0; i < keys; i++) editor.type();
    await editor.settled();
    const [first, last, ...more] = editor.answers;
    assert.deepEqual(more, [], `30 keystrokes, two pulls: ${JSON.stringify(editor.answers)}`);
    assert.ok(
      first.cancelled || first.computedFor === 1,
      `the first pull is cancelled, or answered for its own text: ${JSON.stringify(first)}`,
    );
    assert.deepEqual(last, { asked: keys, computedFor: keys, cancelled: false }, 'the pull asked again is answered for the last keystroke');
    assert.ok(client.alive);
  });

  it('typing with pauses gets an answer for each keystroke', async () => {
    const editor = new PullingEditor(client);
    for (let i = 0; i < 8; i++) {
      editor.type();
      await editor.settled();
    }
    assert.ok(editor.answers.every((a) => !a.cancelled && a.computedFor !== undefined && a.computedFor >= a.asked));
    assert.equal(editor.answers.length, 8);
  });
});
