/**
 * Which catalog price a worker-hour is charged at, in one place for every cost figure (the cost hover and
 * hints, the plan's cost line, the stock warning's alternatives): a GPU at the secure-cloud price per
 * GPU-hour, a vCPU at the serverless price per vCPU-hour, the prices the service's serverless billing uses.
 */
import type { CatalogCpuFlavor, CatalogGpuType } from './catalog';

/** Per GPU-hour; undefined when unpriced (a type not offered on secure cloud has price 0 there, not a free GPU). */
export function gpuHourPrice(type: CatalogGpuType): number | undefined {
  const price = type.price?.secure;
  return price !== undefined && price > 0 ? price : undefined;
}

/** Per vCPU-hour of a serverless worker; undefined when unpriced. */
export function vcpuHourPrice(flavor: CatalogCpuFlavor): number | undefined {
  const price = flavor.price?.serverlessPerVcpu;
  return price !== undefined && price > 0 ? price : undefined;
}
