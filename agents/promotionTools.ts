/**
 * `plan_promotion`: what promoting one environment's verified release into another's overlay would write, for an
 * agent to show before anyone runs `endpoint-studio promote` or the editor's Promote to Environment. It reads the
 * spec files and the bindings only: nothing is written, nothing is sent, no key is needed. The rules (only a
 * recorded release, never one whose smoke job failed; name is never promoted) are core/operations/promote.ts's.
 */
import { relative } from 'node:path';
import { z } from 'zod';
import { renderValue } from '../core/deploy/render';
import { ENVIRONMENT_NAME, planPromotion, verificationLine, type Promotion } from '../core/operations';
import { readSpecAt, ToolFailure, type AgentContext } from './context';
import { jsonValue, openObject } from './schemas';
import { defineTool, type ToolResult } from './tool';

const environmentName = z.string().regex(ENVIRONMENT_NAME, 'an environment name: letters, digits, - and _');

const input = z.object({
  path: z.string().min(1).describe('A base spec file, or an overlay of either environment (relative to the workspace or absolute).'),
  from: environmentName.describe('The environment whose last deploy is promoted (e.g. staging).'),
  to: environmentName.describe('The environment whose overlay would get the values (e.g. prod).'),
  fields: z
    .array(z.string().min(1))
    .optional()
    .describe('Dotted spec paths to promote (image, env.MODEL_ID); default ["image"]. name is never promoted.'),
});

const valueShape = z.object({ field: z.string(), value: jsonValue(), current: jsonValue().optional(), changes: z.boolean() });

export const planPromotionTool = defineTool({
  name: 'plan_promotion',
  title: 'Plan a promotion',
  description:
    "Show what promoting an environment's last verified deploy into another environment's overlay would write (by default its image; fields names others, like env.MODEL_ID), without writing or sending anything. Only the release the source environment's last deploy recorded can be promoted, never one whose smoke job failed; the result says what was verified (the release, and whether a smoke job passed or none ran) or why it is refused. To apply it, the user runs `endpoint-studio promote --from <from> --to <to> <path>` or the editor's Promote to Environment, then deploys the target environment with plan_deploy and deploy_spec, which go through its guard.",
  writes: false,
  input,
  output: openObject({
    from: z.string(),
    to: z.string(),
    promotable: z.boolean(),
    text: z.string(),
    target: z.string().optional(),
    values: z.array(valueShape).optional(),
  }),
  run(request, context): Promise<ToolResult> {
    const file = readSpecAt(context, request.path);
    const fields = request.fields ?? [];
    const promotion = planPromotion({
      from: request.from,
      to: request.to,
      files: [file.path],
      fields,
      shown: (path) => named(context, path),
    }).at(0);
    if (!promotion) throw new ToolFailure(`nothing to promote in ${request.path}`);
    const text = promotionText(promotion, context);
    return Promise.resolve({ text, structured: { from: request.from, to: request.to, text, ...structured(promotion, context) } });
  },
});

const named = (context: AgentContext, path: string): string => relative(context.workspaceRoot, path) || path;

function structured(promotion: Promotion, context: AgentContext): Record<string, unknown> {
  const source = promotion.source ? { source: { ...promotion.source, path: named(context, promotion.source.path) } } : {};
  if (promotion.kind === 'refused') return { promotable: false, code: promotion.code, reason: promotion.reason, ...source };
  return {
    promotable: true,
    action: promotion.kind,
    ...source,
    target: named(context, promotion.target.path),
    protected: promotion.target.protected,
    values: promotion.values.map(({ field, value, current, changes }) => ({
      field,
      value,
      ...(current !== undefined ? { current } : {}),
      changes,
    })),
    ...(promotion.kind === 'write' ? { written: promotion.text } : {}),
  };
}

function promotionText(promotion: Promotion, context: AgentContext): string {
  if (promotion.kind === 'refused') return `not promotable: ${promotion.reason}`;
  const { source, target } = promotion;
  const into = named(context, target.path);
  const fields = promotion.values.map((v) =>
    v.changes
      ? `${v.field}: ${v.current === undefined ? '(none)' : renderValue(v.current)} → ${renderValue(v.value)}`
      : `${v.field}: ${renderValue(v.value)} (already so in ${target.environment})`,
  );
  const what =
    promotion.kind === 'unchanged'
      ? `nothing to write: ${into} deploys these values already`
      : `would write into ${into} (nothing written yet): ${fields.join('; ')}`;
  const guard = target.protected
    ? `${target.environment} is protected: its deploy asks for its name typed`
    : `then deploy ${target.environment}`;
  return [`verified: ${verificationLine(source)}`, what, `${guard}; promotion itself deploys nothing`].join('\n');
}
