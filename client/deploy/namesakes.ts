/**
 * The editor's question when an unbound spec would create an endpoint whose name is already taken:
 * update that endpoint and bind the spec to it, create another on purpose, or stop. One namesake is
 * a modal with the plan; several are a quick pick, one entry per endpoint.
 */
import * as vscode from 'vscode';
import type { EndpointSummary } from '../../core/operations';

export type NamesakeChoice = { readonly action: 'adopt'; readonly endpointId: string } | { readonly action: 'create' };

const CREATE_ANOTHER = 'Create another';
const adoptLabel = (endpointId: string): string => `Update ${endpointId} and bind`;

/** The choice made; undefined when cancelled. `summary` is the rendered plan, which carries the namesake note. */
export async function chooseForNamesakes(
  name: string,
  namesakes: readonly EndpointSummary[],
  summary: string,
): Promise<NamesakeChoice | undefined> {
  if (namesakes.length === 1) {
    const [only] = namesakes;
    const adopt = adoptLabel(only.id);
    const answer = await vscode.window.showWarningMessage(
      `An endpoint named "${name}" already exists (${only.id}) and this spec is not bound to it.`,
      {
        modal: true,
        detail: `${summary}\n${adopt}: the spec describes that endpoint from now on, and it is updated to match.\n${CREATE_ANOTHER}: a second endpoint named "${name}" is created.`,
      },
      adopt,
      CREATE_ANOTHER,
    );
    if (answer === adopt) return { action: 'adopt', endpointId: only.id };
    return answer === CREATE_ANOTHER ? { action: 'create' } : undefined;
  }
  const items: (vscode.QuickPickItem & { choice: NamesakeChoice })[] = [
    ...namesakes.map((e) => ({
      label: adoptLabel(e.id),
      description: e.name,
      detail: 'bind the spec to this endpoint and update it to match',
      choice: { action: 'adopt', endpointId: e.id } as const,
    })),
    { label: CREATE_ANOTHER, detail: `a further endpoint named "${name}"`, choice: { action: 'create' } as const },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: `${namesakes.length} endpoints named "${name}" already exist and this spec is not bound to any of them`,
    placeHolder: 'Update one of them and bind the spec, or create another',
    ignoreFocusOut: true,
  });
  return picked?.choice;
}
