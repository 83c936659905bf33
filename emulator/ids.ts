/**
 * Identifiers and randomness. With a seed (core/util/seededRandom.ts) both are deterministic, so tests can
 * predict them.
 */
import { randomBytes } from 'node:crypto';
import type { Random } from '../core/util/seededRandom';

/** Random bytes are drawn a pool at a time: one system call per id character made thousands of workers slow to create. */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

export function cryptoRandom(): number {
  if (offset + 4 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const value = pool.readUInt32BE(offset) / 4294967296;
  offset += 4;
  return value;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export class IdFactory {
  constructor(private readonly random: Random) {}

  /** The service's endpoint and worker ids are 14 lowercase letters and digits. */
  short(length = 14): string {
    let out = '';
    for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(this.random() * ALPHABET.length)];
    return out;
  }

  /** Job ids look like UUIDs with a region suffix, as the job API's do. */
  job(): string {
    const hex = (n: number): string => {
      let out = '';
      for (let i = 0; i < n; i++) out += Math.floor(this.random() * 16).toString(16);
      return out;
    };
    return `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}-e1`;
  }
}
