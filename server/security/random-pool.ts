import { randomFillSync } from "node:crypto";

/*
 * Per-request randomness (CSP nonces) from a pool filled 4 KiB at a time: one system call per 256 nonces instead of
 * one per request. Each byte is handed out once.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

export function pooledRandomBytes(size: number): Buffer {
  if (size > POOL_BYTES) throw new RangeError(`At most ${POOL_BYTES} bytes at a time`);
  if (offset + size > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + size)); // a copy: the pool is refilled in place
  offset += size;
  return bytes;
}
