/**
 * The getting-started walkthrough (`contributes.walkthroughs` in the manifest). It opens by itself once, the
 * first time the extension activates for this user, so a new user lands on the steps instead of an empty
 * sidebar (beside the spec they opened, never over it); after that only from the Command Palette. Most steps
 * complete on the command that does them; the ones no single command stands for (a quick fix applied, a deploy
 * that succeeded) complete on context keys set here and in the deploy feature when the thing has happened.
 */
import * as vscode from 'vscode';
import type { Middleware } from 'vscode-languageclient/node';

/** `<publisher>.<name>#<walkthrough id>`, as `workbench.action.openWalkthrough` takes it. */
const WALKTHROUGH_ID = 'endpointStudio.gettingStarted';
/** Remembered per user (and synced), so the walkthrough opens by itself once, not in every window. */
const SHOWN_KEY = 'endpointStudio.walkthrough.shown';
/** VS Code's own switch for walkthroughs opening by themselves; a user who turned it off is not overruled. */
const OPEN_ON_INSTALL_SETTING = 'workbench.welcomePage.walkthroughs.openOnInstall';

/** The commands that give the keyboard to the editor group of view column 1, 2, ... 8. */
const FOCUS_GROUP_COMMANDS = ['First', 'Second', 'Third', 'Fourth', 'Fifth', 'Sixth', 'Seventh', 'Eighth'].map(
  (nth) => `workbench.action.focus${nth}EditorGroup`,
);
/**
 * How long after activation the walkthrough opens. The extension host has the open spec's problems when
 * activation ends, but the editor draws them later, seconds later on one slow core; laid out beside the spec
 * before that, the walkthrough's page takes the editor's time first (measured on one core: the first squiggle
 * drawn 2–4 s after the walkthrough instead of before it).
 */
const WALKTHROUGH_DELAY_MS = 2000;
/** How long after the walkthrough opened beside an editor its page taking the focus is undone. */
const FOCUS_BACK_WINDOW_MS = 5000;

export const OPEN_WALKTHROUGH_COMMAND = 'endpointStudio.walkthrough.open';
/** Attached to every quick fix the language server offers; VS Code runs it after applying the fix's edit. */
const QUICK_FIX_APPLIED_COMMAND = 'endpointStudio.walkthrough.quickFixApplied';
/** Context keys the walkthrough's steps complete on. */
export const QUICK_FIX_APPLIED_CONTEXT = 'endpointStudio.quickFixApplied';
export const DEPLOYED_CONTEXT = 'endpointStudio.deployed';
export const JOB_SUBMITTED_CONTEXT = 'endpointStudio.jobSubmitted';
export const LOGS_OPENED_CONTEXT = 'endpointStudio.logsOpened';

export function registerWalkthrough(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(OPEN_WALKTHROUGH_COMMAND, () => openWalkthrough(context, false)),
    vscode.commands.registerCommand(QUICK_FIX_APPLIED_COMMAND, async (title: unknown) => {
      log.info(`quick fix applied: ${String(title)}`);
      await vscode.commands.executeCommand('setContext', QUICK_FIX_APPLIED_CONTEXT, true);
    }),
  );
}

/**
 * Opens the walkthrough, a while after activation, if this is the extension's first activation for this user.
 * Activation ends once the spec that activated it (the usual way) has its problems, so that spec is never
 * covered: the walkthrough opens beside whatever editor is open then, the keyboard staying there, and in the
 * editor area only when nothing is open in it. The returned Disposable cancels an opening still to come.
 */
export function openWalkthroughOnFirstActivation(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): vscode.Disposable {
  context.globalState.setKeysForSync([SHOWN_KEY]);
  if (context.globalState.get<boolean>(SHOWN_KEY) || !vscode.workspace.getConfiguration().get<boolean>(OPEN_ON_INSTALL_SETTING, true))
    return new vscode.Disposable(() => undefined);
  const timer = setTimeout(() => {
    openWalkthroughNow(context, log);
  }, WALKTHROUGH_DELAY_MS);
  return new vscode.Disposable(() => {
    clearTimeout(timer);
  });
}

function openWalkthroughNow(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  void context.globalState.update(SHOWN_KEY, true);
  const active = vscode.window.tabGroups.activeTabGroup;
  const beside = active.activeTab !== undefined;
  log.info(`opening the getting-started walkthrough (first activation) ${beside ? 'beside the open editor' : 'in the empty editor area'}`);
  if (beside) giveFocusBack(active.viewColumn);
  openWalkthrough(context, beside).then(undefined, (error: unknown) => {
    log.warn(`the walkthrough could not be opened: ${String(error)}`);
  });
}

/**
 * The walkthrough's page gives its first step the focus once it is laid out, which makes its group the active
 * one even when it was opened without the focus: the keyboard goes back to the group the user was typing in,
 * once, when that happens soon after the walkthrough opened.
 */
function giveFocusBack(column: vscode.ViewColumn): void {
  const command = FOCUS_GROUP_COMMANDS.at(column - 1);
  if (command === undefined) return;
  const stop = (): void => {
    clearTimeout(timer);
    listener.dispose();
  };
  const timer = setTimeout(stop, FOCUS_BACK_WINDOW_MS);
  const listener = vscode.window.tabGroups.onDidChangeTabGroups(() => {
    const now = vscode.window.tabGroups.activeTabGroup;
    // The walkthrough is an editor of VS Code's own, which the API shows as a tab without an input.
    if (now.viewColumn === column || now.activeTab === undefined || now.activeTab.input !== undefined) return;
    stop();
    void vscode.commands.executeCommand(command);
  });
}

/** `toSide`: in the group beside the active one (made if need be), the focus staying where it was. */
function openWalkthrough(context: vscode.ExtensionContext, toSide: boolean): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#${WALKTHROUGH_ID}`, toSide);
}

/** Marks that a deploy went through, for the walkthrough's deploy step. */
export function noteDeployed(): void {
  void vscode.commands.executeCommand('setContext', DEPLOYED_CONTEXT, true);
}

/**
 * Marks that a job was sent. Its step cannot complete on the run commands alone: a command run from a
 * CodeLens with arguments reaches the extension without passing the workbench's command service.
 */
export function noteJobSubmitted(): void {
  void vscode.commands.executeCommand('setContext', JOB_SUBMITTED_CONTEXT, true);
}

/** Marks that a log stream was opened, from wherever (a failed job's CodeLens links to its worker's logs too). */
export function noteLogsOpened(): void {
  void vscode.commands.executeCommand('setContext', LOGS_OPENED_CONTEXT, true);
}

/**
 * Language-client middleware: gives each quick fix without a command of its own the command above, so
 * applying one is seen. The edit itself is untouched and still applied first.
 */
export const noteAppliedQuickFixes: Middleware['provideCodeActions'] = async (document, range, context, token, next) => {
  const actions = await next(document, range, context, token);
  for (const action of actions ?? []) {
    if (action instanceof vscode.CodeAction && action.command === undefined && action.edit !== undefined) {
      action.command = { title: action.title, command: QUICK_FIX_APPLIED_COMMAND, arguments: [action.title] };
    }
  }
  return actions;
};
