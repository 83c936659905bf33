/**
 * Template resolution at create time (rules 2-5). Whether the template exists and is a serverless
 * one is checked before, by the shared rule engine; the errors here only guard a direct call.
 */
import { record } from '../../core/endpointSpec/rules/rule';
import type { TemplateRecord } from '../catalog/seed';
import { ProblemError, errorEntry } from '../http/problems';
import { resolveArgs } from './endpointModel';

type Body = Record<string, unknown>;

/**
 * Resolves `templateId` into the body: body fields win, `env` merges per key (body wins), the
 * pod-only flags are ignored, and the template's CUDA set seeds a GPU create that names no
 * CUDA constraint of its own. Unknown template: 404; pod template: 422.
 */
export function resolveTemplate(body: Body, findTemplate: (id: string) => TemplateRecord | undefined): Body {
  if (typeof body.templateId !== 'string') return body;
  const template = findTemplate(body.templateId);
  if (!template) {
    throw new ProblemError(404, `template ${body.templateId} not found`, [
      errorEntry(['templateId'], `no template ${JSON.stringify(body.templateId)} among your templates or the public catalog`),
    ]);
  }
  if (!template.serverless) {
    throw new ProblemError(422, `template ${template.id} is not a serverless template`, [
      errorEntry(['templateId'], `${JSON.stringify(template.name)} is a pod template; choose a serverless template`),
    ]);
  }
  const resolved: Body = { ...body };
  resolved.image = typeof body.image === 'string' ? body.image : template.image;
  resolved.args = resolveArgs(template.args, body);
  delete resolved.entrypoint;
  delete resolved.cmd;
  resolved.disk = body.disk ?? template.disk;
  resolved.ports = body.ports ?? template.ports;
  resolved.registry = body.registry !== undefined ? body.registry : template.registry;
  resolved.env = { ...template.env, ...(record(body.env) ?? {}) };
  const gpu = record(body.gpu);
  if (gpu && gpu.allowedCudaVersions === undefined && gpu.minCudaVersion === undefined && template.allowedCudaVersions) {
    resolved.gpu = { ...gpu, allowedCudaVersions: [...template.allowedCudaVersions] };
  }
  return resolved;
}
