/** `/v2/network-volumes`: persistent storage that endpoints mount by id. */
import { segment, type CallOptions, type HttpCore } from './http';
import type { CreateNetworkVolumeRequest, NetworkVolume, UpdateNetworkVolumeRequest } from './types';

export class NetworkVolumesApi {
  constructor(private readonly http: HttpCore) {}

  async list(options: CallOptions = {}): Promise<NetworkVolume[]> {
    return this.http.list<NetworkVolume>('networkVolumes', { method: 'GET', path: '/v2/network-volumes', ...options });
  }

  get(id: string, options: CallOptions = {}): Promise<NetworkVolume> {
    return this.http.request<NetworkVolume>({ method: 'GET', path: `/v2/network-volumes/${segment(id)}`, ...options });
  }

  /** Billed storage: never repeated after a lost answer; list to check. */
  create(body: CreateNetworkVolumeRequest, options: CallOptions = {}): Promise<NetworkVolume> {
    return this.http.request<NetworkVolume>({ method: 'POST', path: '/v2/network-volumes', body, idempotent: false, ...options });
  }

  /** Size can only grow. */
  update(id: string, body: UpdateNetworkVolumeRequest, options: CallOptions = {}): Promise<NetworkVolume> {
    return this.http.request<NetworkVolume>({
      method: 'PATCH',
      path: `/v2/network-volumes/${segment(id)}`,
      body,
      idempotent: true,
      ...options,
    });
  }

  async delete(id: string, options: CallOptions = {}): Promise<void> {
    await this.http.request<undefined>({ method: 'DELETE', path: `/v2/network-volumes/${segment(id)}`, idempotent: true, ...options });
  }
}
