/** Identifiers and randomness. With a seed both are deterministic, so tests can predict them. */
import { randomBytes } from 'node:crypto';

export type Random = () => number;

/** mulberry32: tiny, fast and good enough to make seeded runs reproducible. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function cryptoRandom(): number {
  return randomBytes(4).readUInt32BE(0) / 4294967296;
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
