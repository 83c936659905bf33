/**
 * The emulator's seeded catalog and the caller's account (own templates, volumes, registries) as
 * the shared rule engine's `Catalog`, so the emulator enforces the very rules the editor shows. Its
 * stock is the free capacity the catalog answers with.
 */
import { Catalog } from '../../core/endpointSpec/catalog/catalog';
import type { EmulatorContext } from '../context';
import { CPU_FLAVORS, DATA_CENTERS, GPU_TYPES, PUBLIC_TEMPLATES, availabilityLevel } from './seed';

export function catalogOf(ctx: EmulatorContext): Catalog {
  return new Catalog({
    gpuTypes: GPU_TYPES.map((t) => ({
      id: t.id,
      name: t.name,
      pool: t.pool,
      memory: t.memory,
      cudaVersions: t.cudaVersions,
      price: t.price,
      dataCenters: DATA_CENTERS.map((dc) => ({ id: dc.id, availability: availabilityLevel(ctx.sim.stock.freeGpus(dc.id, t.id)) })),
    })),
    cpuFlavors: CPU_FLAVORS,
    dataCenters: DATA_CENTERS,
    templates: [...ctx.state.templates, ...PUBLIC_TEMPLATES],
    networkVolumes: ctx.state.networkVolumes,
    registries: ctx.state.registries,
  });
}
