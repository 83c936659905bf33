/** `/v2/registries`: credentials for pulling private images, referenced by an endpoint's `registry`. */
import { collectionCalls, type CallOptions, type HttpCore } from './http';
import type { CreateRegistryRequest, Registry } from './types';

export type RegistriesApi = ReturnType<typeof registriesApi>;

export function registriesApi(http: HttpCore) {
  return {
    ...collectionCalls<Registry>(http, 'registries', '/v2/registries'),

    /**
     * The password travels only in this request's body; the service never returns it, and the
     * client never puts a request body into an error or a log.
     */
    create(body: CreateRegistryRequest, options: CallOptions = {}): Promise<Registry> {
      return http.request<Registry>({ method: 'POST', path: '/v2/registries', body, secrets: [body.password], ...options });
    },
  };
}
