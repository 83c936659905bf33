/** `/v2/registries`: credentials for pulling private images, referenced by an endpoint's `registry`. */
import { segment, type CallOptions, type HttpCore } from './http';
import type { CreateRegistryRequest, Registry } from './types';

export class RegistriesApi {
  constructor(private readonly http: HttpCore) {}

  async list(options: CallOptions = {}): Promise<Registry[]> {
    return this.http.list<Registry>('registries', { method: 'GET', path: '/v2/registries', ...options });
  }

  get(id: string, options: CallOptions = {}): Promise<Registry> {
    return this.http.request<Registry>({ method: 'GET', path: `/v2/registries/${segment(id)}`, ...options });
  }

  /**
   * The password travels only in this request's body; the service never returns it, and the
   * client never puts a request body into an error or a log.
   */
  create(body: CreateRegistryRequest, options: CallOptions = {}): Promise<Registry> {
    return this.http.request<Registry>({
      method: 'POST',
      path: '/v2/registries',
      body,
      idempotent: false,
      secrets: [body.password],
      ...options,
    });
  }

  async delete(id: string, options: CallOptions = {}): Promise<void> {
    await this.http.request<undefined>({ method: 'DELETE', path: `/v2/registries/${segment(id)}`, idempotent: true, ...options });
  }
}
