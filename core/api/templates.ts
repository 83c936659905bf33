/** `/v2/templates`: the caller's own templates (public ones are in the catalog). */
import { collectionCalls, segment, type CallOptions, type HttpCore } from './http';
import type { CreateTemplateRequest, Template, UpdateTemplateRequest } from './types';

export type TemplatesApi = ReturnType<typeof templatesApi>;

export function templatesApi(http: HttpCore) {
  return {
    ...collectionCalls<Template>(http, 'templates', '/v2/templates'),

    /** Not repeated after a lost answer (it could make a second template); list to check. */
    create(body: CreateTemplateRequest, options: CallOptions = {}): Promise<Template> {
      return http.request<Template>({ method: 'POST', path: '/v2/templates', body, ...options });
    },

    update(id: string, body: UpdateTemplateRequest, options: CallOptions = {}): Promise<Template> {
      return http.request<Template>({ method: 'PATCH', path: `/v2/templates/${segment(id)}`, body, ...options });
    },
  };
}
