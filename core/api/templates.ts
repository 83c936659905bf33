/** `/v2/templates`: the caller's own templates (public ones are in the catalog). */
import { segment, type CallOptions, type HttpCore } from './http';
import type { CreateTemplateRequest, Template, UpdateTemplateRequest } from './types';

export class TemplatesApi {
  constructor(private readonly http: HttpCore) {}

  async list(options: CallOptions = {}): Promise<Template[]> {
    return this.http.list<Template>('templates', { method: 'GET', path: '/v2/templates', ...options });
  }

  get(id: string, options: CallOptions = {}): Promise<Template> {
    return this.http.request<Template>({ method: 'GET', path: `/v2/templates/${segment(id)}`, ...options });
  }

  /** Not repeated after a lost answer (it could make a second template); list to check. */
  create(body: CreateTemplateRequest, options: CallOptions = {}): Promise<Template> {
    return this.http.request<Template>({ method: 'POST', path: '/v2/templates', body, idempotent: false, ...options });
  }

  update(id: string, body: UpdateTemplateRequest, options: CallOptions = {}): Promise<Template> {
    return this.http.request<Template>({ method: 'PATCH', path: `/v2/templates/${segment(id)}`, body, idempotent: true, ...options });
  }

  async delete(id: string, options: CallOptions = {}): Promise<void> {
    await this.http.request<undefined>({ method: 'DELETE', path: `/v2/templates/${segment(id)}`, idempotent: true, ...options });
  }
}
