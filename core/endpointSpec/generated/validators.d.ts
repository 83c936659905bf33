// Types of the generated standalone validators (see scripts/generate-validators.mjs).
import type { ValidateFunction } from 'ajv/dist/2020';

export declare const create: ValidateFunction;
export declare const update: ValidateFunction;
export declare const environments: ValidateFunction;
export declare const policy: ValidateFunction;
