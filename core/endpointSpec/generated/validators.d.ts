// Types of the generated standalone validators (see scripts/generate-validators.mjs).
import type { ValidateFunction } from 'ajv/dist/2020';

export declare const create: ValidateFunction;
export declare const update: ValidateFunction;
/** Per mode, each top-level field's own validator: its errors' paths start inside the field. */
export declare const fields: Record<'create' | 'update', Readonly<Partial<Record<string, ValidateFunction>>>>;
