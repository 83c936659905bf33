/** `/v2/network-volumes`: persistent storage that endpoints mount by id. */
import { collectionCalls, segment, type CallOptions, type HttpCore } from './http';
import type { CreateNetworkVolumeRequest, NetworkVolume, UpdateNetworkVolumeRequest } from './types';

export type NetworkVolumesApi = ReturnType<typeof networkVolumesApi>;

export function networkVolumesApi(http: HttpCore) {
  return {
    ...collectionCalls<NetworkVolume>(http, 'networkVolumes', '/v2/network-volumes'),

    /** Billed storage: never repeated after a lost answer; list to check. */
    create(body: CreateNetworkVolumeRequest, options: CallOptions = {}): Promise<NetworkVolume> {
      return http.request<NetworkVolume>({ method: 'POST', path: '/v2/network-volumes', body, ...options });
    },

    /** Size can only grow. */
    update(id: string, body: UpdateNetworkVolumeRequest, options: CallOptions = {}): Promise<NetworkVolume> {
      return http.request<NetworkVolume>({ method: 'PATCH', path: `/v2/network-volumes/${segment(id)}`, body, ...options });
    },
  };
}
