/**
 * A small catalog with stock and prices, for the stock check's tests: some pools without stock anywhere, some
 * with stock in one data center only, one unpriced, one read without stock, and CPU flavors alike.
 */
import { Catalog, type CatalogData, type CatalogGpuType } from '../../core/endpointSpec/catalog/catalog';

type Level = 'NONE' | 'LOW' | 'MEDIUM' | 'HIGH';
const gpu = (id: string, pool: string, memory: number, secure: number, stock?: Record<string, Level>): CatalogGpuType => ({
  id,
  name: id.replace('NVIDIA ', ''),
  pool,
  memory,
  price: { secure, community: 0 },
  ...(stock ? { dataCenters: Object.entries(stock).map(([dc, availability]) => ({ id: dc, availability })) } : {}),
});

/** Catalog data with stock: ADA_48_PRO and TURING_16 have none, MYSTERY_16 was read without stock. */
export const STOCK_CATALOG_DATA: CatalogData = {
  gpuTypes: [
    gpu('NVIDIA L40S', 'ADA_48_PRO', 48, 0.86, { 'US-TX-3': 'NONE', 'EU-RO-1': 'NONE' }),
    gpu('NVIDIA RTX 6000 Ada', 'ADA_48_PRO', 48, 0.77, {}),
    gpu('NVIDIA RTX A6000', 'AMPERE_48', 48, 0.76, { 'US-TX-3': 'HIGH' }),
    gpu('NVIDIA A40', 'AMPERE_48', 48, 0.4, { 'EU-RO-1': 'LOW' }),
    gpu('NVIDIA GeForce RTX 4090', 'ADA_24', 24, 0.69, { 'US-TX-3': 'MEDIUM' }),
    gpu('NVIDIA L4', 'ADA_24', 24, 0.43, { 'US-TX-3': 'NONE' }),
    gpu('NVIDIA RTX A5000', 'AMPERE_24', 24, 0, { 'US-TX-3': 'HIGH' }),
    gpu('NVIDIA A100 80GB PCIe', 'AMPERE_80', 80, 1.64, { 'EU-RO-1': 'HIGH' }),
    gpu('NVIDIA H100 PCIe', 'ADA_80_PRO', 80, 2.39, { 'US-TX-3': 'LOW' }),
    gpu('NVIDIA Mystery', 'MYSTERY_16', 16, 0.2),
    { ...gpu('NVIDIA T4', 'TURING_16', 16, 0.2), availability: 'NONE' },
  ],
  cpuFlavors: [
    { id: 'cpu3c', name: 'Compute', vcpu: { min: 2, max: 8 }, ramGbPerVcpu: 2, price: { serverlessPerVcpu: 0.03 }, dataCenters: [] },
    {
      id: 'cpu3g',
      name: 'General',
      vcpu: { min: 2, max: 32 },
      ramGbPerVcpu: 4,
      price: { serverlessPerVcpu: 0.04 },
      dataCenters: [{ id: 'US-TX-3', availability: 'HIGH' }],
    },
    {
      id: 'cpu5g',
      name: 'General 5',
      vcpu: { min: 4, max: 64 },
      ramGbPerVcpu: 4,
      price: { serverlessPerVcpu: 0.06 },
      dataCenters: [{ id: 'EU-RO-1', availability: 'LOW' }],
    },
    { id: 'cpu3m', name: 'Memory', vcpu: { min: 2, max: 16 }, ramGbPerVcpu: 8, price: { serverlessPerVcpu: 0.06 } },
  ],
  dataCenters: [
    { id: 'US-TX-3', name: 'Texas 3' },
    { id: 'EU-RO-1', name: 'Romania 1' },
  ],
  templates: [],
};

export const STOCK_CATALOG = new Catalog(STOCK_CATALOG_DATA);
