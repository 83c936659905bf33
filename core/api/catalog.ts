/**
 * `/v2/catalog`: GPU types, CPU flavors, data centers and public templates. By default the
 * client asks for what the editor needs to check a spec: serverless stock per GPU type (with its
 * CUDA versions) and GPU stock per data center.
 */
import { callOptions, segment, type CallOptions, type HttpCore } from './http';
import type { CpuType, DataCenter, GpuType, Template } from './types';

export interface GpuCatalogQuery extends CallOptions {
  /** Default true: adds `include=AVAILABILITY`. */
  availability?: boolean;
}

export interface CpuCatalogQuery extends CallOptions {
  /** Default false. */
  availability?: boolean;
}

export interface DataCenterQuery extends CallOptions {
  /** Default `['GPU_AVAILABILITY']`; pass `[]` for the bare list. */
  include?: ('GPU_AVAILABILITY' | 'CPU_AVAILABILITY')[];
}

/**
 * Availability in the serverless context (the service's own default is POD). `product` is only valid with
 * include=AVAILABILITY, so it goes only with it.
 */
const AVAILABILITY_QUERY = { include: ['AVAILABILITY'], product: ['SERVERLESS'] };

const gpuQuery = (q: GpuCatalogQuery): Record<string, string[]> => (q.availability === false ? {} : AVAILABILITY_QUERY);

const cpuQuery = (q: CpuCatalogQuery): Record<string, string[]> => (q.availability ? AVAILABILITY_QUERY : {});

function dataCenterQuery(q: DataCenterQuery): Record<string, readonly string[] | undefined> {
  const include = q.include ?? ['GPU_AVAILABILITY'];
  return { include: include.length > 0 ? include : undefined };
}

export class CatalogApi {
  constructor(private readonly http: HttpCore) {}

  async gpus(query: GpuCatalogQuery = {}): Promise<GpuType[]> {
    return this.http.list<GpuType>('gpus', { method: 'GET', path: '/v2/catalog/gpus', query: gpuQuery(query), ...callOptions(query) });
  }

  gpu(id: string, query: GpuCatalogQuery = {}): Promise<GpuType> {
    return this.http.request<GpuType>({
      method: 'GET',
      path: `/v2/catalog/gpus/${segment(id)}`,
      query: gpuQuery(query),
      ...callOptions(query),
    });
  }

  async cpus(query: CpuCatalogQuery = {}): Promise<CpuType[]> {
    return this.http.list<CpuType>('cpus', { method: 'GET', path: '/v2/catalog/cpus', query: cpuQuery(query), ...callOptions(query) });
  }

  cpu(id: string, query: CpuCatalogQuery = {}): Promise<CpuType> {
    return this.http.request<CpuType>({
      method: 'GET',
      path: `/v2/catalog/cpus/${segment(id)}`,
      query: cpuQuery(query),
      ...callOptions(query),
    });
  }

  async dataCenters(query: DataCenterQuery = {}): Promise<DataCenter[]> {
    return this.http.list<DataCenter>('dataCenters', {
      method: 'GET',
      path: '/v2/catalog/datacenters',
      query: dataCenterQuery(query),
      ...callOptions(query),
    });
  }

  dataCenter(id: string, query: DataCenterQuery = {}): Promise<DataCenter> {
    return this.http.request<DataCenter>({
      method: 'GET',
      path: `/v2/catalog/datacenters/${segment(id)}`,
      query: dataCenterQuery(query),
      ...callOptions(query),
    });
  }

  /** Public catalog templates (the caller's own are in `templates`). */
  async templates(options: CallOptions = {}): Promise<Template[]> {
    return this.http.list<Template>('templates', { method: 'GET', path: '/v2/catalog/templates', ...options });
  }
}
