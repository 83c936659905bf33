/**
 * The explorer's contributions as the extension host sees them: the container and its views, every
 * command a view or menu names is registered and titled for the palette, and the welcome views only
 * point at commands that exist.
 */
import * as assert from 'node:assert/strict';
import { suite, suiteSetup, test } from 'mocha';
import * as vscode from 'vscode';
import { eventually, EXTENSION_ID } from './helpers';

interface Contributes {
  commands: Array<{ command: string; title: string; category?: string; icon?: string }>;
  viewsContainers: { activitybar: Array<{ id: string; title: string; icon: string }> };
  views: Record<string, Array<{ id: string; name: string }>>;
  viewsWelcome: Array<{ view: string; contents: string; when?: string }>;
  menus: Record<string, Array<{ command: string; when?: string; group?: string }>>;
}

/** Commands of the workbench itself that the welcome views may link to. */
const WORKBENCH_COMMANDS = ['workbench.trust.manage'];

suite('Endpoint Studio explorer', () => {
  let contributes: Contributes;

  suiteSetup(async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    await eventually(() => extension.isActive, 'the extension to activate');
    contributes = (extension.packageJSON as { contributes: Contributes }).contributes;
  });

  test('contributes the activity bar container with the Endpoints, Catalog and Billing views', () => {
    const container = contributes.viewsContainers.activitybar.find((c) => c.id === 'endpointStudio');
    assert.ok(container, 'the endpointStudio container is missing');
    assert.equal(container.title, 'Endpoint Studio');
    assert.deepEqual(
      contributes.views.endpointStudio.map((v) => `${v.id}:${v.name}`),
      ['endpointStudio.endpoints:Endpoints', 'endpointStudio.catalog:Catalog', 'endpointStudio.billing:Billing'],
    );
  });

  test('registers every explorer command, each titled and categorised for the palette', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const explorerCommands = contributes.commands.filter((c) => /^endpointStudio\.(endpoints|catalogView)\./.test(c.command));
    assert.ok(explorerCommands.length >= 10, `only ${explorerCommands.length} explorer commands are contributed`);
    for (const command of explorerCommands) {
      assert.ok(registered.has(command.command), `${command.command} is contributed but not registered`);
      assert.equal(command.category, 'Endpoint Studio', `${command.command} has no category`);
    }
  });

  test('menus name only contributed commands, and buttons in view titles and rows have icons', () => {
    const byId = new Map(contributes.commands.map((c) => [c.command, c]));
    for (const [menu, entries] of Object.entries(contributes.menus)) {
      for (const entry of entries) {
        const command = byId.get(entry.command);
        assert.ok(command, `${menu} names ${entry.command}, which is not contributed`);
        const isButton =
          menu === 'view/title' ? entry.group?.startsWith('navigation') : menu === 'view/item/context' && entry.group?.startsWith('inline');
        if (isButton) assert.ok(command.icon, `${entry.command} shows as a button in ${menu} but has no icon`);
      }
    }
  });

  test('welcome views link only to commands that exist', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const linked = contributes.viewsWelcome.flatMap((w) => [...w.contents.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]));
    for (const id of [
      'endpointStudio.auth.signIn',
      'endpointStudio.emulator.use',
      'endpointStudio.spec.new',
      'endpointStudio.endpoints.refresh',
    ]) {
      assert.ok(linked.includes(id), `no welcome view links to ${id}`);
    }
    for (const id of linked)
      assert.ok(registered.has(id) || WORKBENCH_COMMANDS.includes(id), `a welcome view links to ${id}, which is not registered`);
  });

  test('refreshing either view is safe whatever the sign-in state', async () => {
    // A command that throws rejects executeCommand: "safe" is that neither does.
    for (const command of ['endpointStudio.endpoints.refresh', 'endpointStudio.catalogView.refresh'])
      await assert.doesNotReject(async () => {
        await vscode.commands.executeCommand(command);
      }, command);
  });
});
