/**
 * The workspace's owner of spec files, through a file view that counts what it is asked: once warm, a keystroke
 * in a base reads only that base and lists no folder, an overlay's change drops exactly what read it, and a
 * created or deleted overlay is seen once its folder is listed again.
 */
import assert from 'node:assert/strict';
import { basename, dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { SpecWorkspace, type FileView } from '../../../core/workspace/specWorkspace';

const ROOT = '/space';
const BASE =
  'name: sdxl\ntype: QUEUE\nimage: myorg/sdxl:1.0.0\ngpu:\n  pools: [ADA_24]\nworkers:\n  min: 0\n  max: 2\nscaling:\n  type: QUEUE_DELAY\n  queueDelay: 4\n';
const overlay = (name: string, extra = '') => `extends: ./sdxl.endpoint.yaml\nname: ${name}\n${extra}`;

/** An in-memory folder whose reads and listings are counted. */
function memoryView(files: Record<string, string>): FileView & { reads: string[]; lists: string[]; files: Record<string, string> } {
  const view = {
    files,
    reads: [] as string[],
    lists: [] as string[],
    read(path: string) {
      view.reads.push(basename(path));
      return view.files[path];
    },
    list(folder: string) {
      view.lists.push(folder);
      return Object.keys(view.files)
        .filter((path) => dirname(path) === folder)
        .map((path) => basename(path));
    },
  };
  return view;
}

const at = (name: string) => join(ROOT, name);

function folderOf(overlays: number, others = 0) {
  const files: Record<string, string> = { [at('sdxl.endpoint.yaml')]: BASE };
  for (let i = 0; i < overlays; i++) files[at(`sdxl.env${i}.endpoint.yaml`)] = overlay(`sdxl-${i}`, 'workers:\n  max: 3\n');
  for (let i = 0; i < others; i++) {
    files[at(`other${i}.endpoint.yaml`)] = BASE.replace('sdxl', `other${i}`);
    files[at(`other${i}.prod.endpoint.yaml`)] = overlay(`other${i}-prod`).replace('sdxl', `other${i}`);
  }
  const view = memoryView(files);
  return { view, workspace: new SpecWorkspace(view, { roots: () => [ROOT], context: () => ({}) }) };
}

describe('the workspace owner', () => {
  it('once warm, reads only the edited base per keystroke and lists nothing', () => {
    const { view, workspace } = folderOf(2, 50);
    assert.equal(workspace.file(at('sdxl.endpoint.yaml')).environments.length, 2);
    view.reads.length = 0;
    view.lists.length = 0;
    for (let key = 0; key < 10; key++) {
      view.files[at('sdxl.endpoint.yaml')] = BASE.replace('max: 2', `max: 2${key}`);
      workspace.changed(at('sdxl.endpoint.yaml'));
      const file = workspace.file(at('sdxl.endpoint.yaml'));
      assert.equal(file.environments.length, 2);
      assert.deepEqual(file.environments[0]?.merged?.workers, { min: 0, max: 3 });
    }
    assert.deepEqual(view.lists, []);
    assert.deepEqual(
      view.reads,
      Array.from({ length: 10 }, () => 'sdxl.endpoint.yaml'),
    );
  });

  it("an overlay's change drops its base's analysis and its own, and nothing else", () => {
    const { view, workspace } = folderOf(2, 1);
    workspace.file(at('sdxl.endpoint.yaml'));
    workspace.file(at('sdxl.env0.endpoint.yaml'));
    workspace.file(at('other0.endpoint.yaml'));
    view.files[at('sdxl.env0.endpoint.yaml')] = overlay('sdxl-0', 'workers:\n  min: 5\n');
    const dropped = workspace.changed(at('sdxl.env0.endpoint.yaml'));
    assert.deepEqual(dropped.sort(), [at('sdxl.endpoint.yaml')]);
    const base = workspace.file(at('sdxl.endpoint.yaml'));
    assert.deepEqual(
      base.diagnostics.map((d) => d.message.split(':')[0]),
      ['in env0'],
    );
  });

  it('sees an overlay created or deleted once told, by listing its folder again', () => {
    const { view, workspace } = folderOf(1);
    assert.equal(workspace.file(at('sdxl.endpoint.yaml')).environments.length, 1);
    view.files[at('sdxl.prod.endpoint.yaml')] = overlay('sdxl-prod');
    assert.equal(workspace.file(at('sdxl.endpoint.yaml')).environments.length, 1, 'kept until told');
    const dropped = workspace.createdOrDeleted(at('sdxl.prod.endpoint.yaml'));
    assert.ok(dropped.includes(at('sdxl.endpoint.yaml')));
    assert.deepEqual(
      workspace.file(at('sdxl.endpoint.yaml')).environments.map((e) => e.environment),
      ['env0', 'prod'],
    );
    Reflect.deleteProperty(view.files, at('sdxl.env0.endpoint.yaml'));
    workspace.createdOrDeleted(at('sdxl.env0.endpoint.yaml'));
    assert.deepEqual(
      workspace.file(at('sdxl.endpoint.yaml')).environments.map((e) => e.environment),
      ['prod'],
    );
  });

  it('parses each text once: checking a base and its overlays reads every file once, and looks for the policy once', () => {
    const { view, workspace } = folderOf(2);
    workspace.file(at('sdxl.endpoint.yaml'));
    workspace.file(at('sdxl.env0.endpoint.yaml'));
    workspace.file(at('sdxl.env1.endpoint.yaml'));
    assert.deepEqual([...view.reads].sort(), ['policy.yaml', 'sdxl.endpoint.yaml', 'sdxl.env0.endpoint.yaml', 'sdxl.env1.endpoint.yaml']);
    assert.equal(workspace.baseOf(at('sdxl.env1.endpoint.yaml')), at('sdxl.endpoint.yaml'));
  });

  it("lists a base's overlays with their environments, reading each file of a folder once for all its bases", () => {
    const { view, workspace } = folderOf(2, 3);
    assert.deepEqual(
      workspace.overlaysOf(at('sdxl.endpoint.yaml')).map((o) => [basename(o.path), o.environment]),
      [
        ['sdxl.env0.endpoint.yaml', 'env0'],
        ['sdxl.env1.endpoint.yaml', 'env1'],
      ],
    );
    for (let i = 0; i < 3; i++)
      assert.deepEqual(
        workspace.overlaysOf(at(`other${String(i)}.endpoint.yaml`)).map((o) => o.environment),
        ['prod'],
      );
    assert.equal(view.lists.length, 1);
    assert.equal(view.reads.length, new Set(view.reads).size, `read twice: ${view.reads.join(', ')}`);
  });
});
