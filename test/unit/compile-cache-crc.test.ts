// The compile cache checks its entries with zlib's CRC-32 where Node has it, and with a table of
// its own where it does not: both must give the same values, or entries written by one would be
// refused by the other.
import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { nativeCrc32, tableCrc32 } from '../../src/cli/compile-cache.js';

describe('compile cache checksum', () => {
  it("the table CRC-32 equals zlib's, with and without a seed", () => {
    const crc32 = (zlib as unknown as { crc32: (d: Buffer, v?: number) => number }).crc32;
    // Not 0 bytes: zlib answers 0 for empty data whatever the seed; an entry's data is never empty.
    for (const size of [1, 3, 4, 7, 1000, 65_537]) {
      const data = randomBytes(size);
      expect(tableCrc32(data, 0)).toBe(crc32(data, 0) >>> 0);
      const seed = crc32(Buffer.from('/some/module.js\u00000'));
      expect(tableCrc32(data, seed)).toBe(crc32(data, seed) >>> 0);
    }
    expect(tableCrc32(Buffer.from('123456789'), 0)).toBe(0xcbf43926); // the standard check value
  });

  it("the native CRC-32 the cache uses (zlib's binding, without node:zlib) equals zlib's", () => {
    const crc32 = (zlib as unknown as { crc32: (d: Buffer, v?: number) => number }).crc32;
    const native = nativeCrc32();
    expect(native).not.toBeNull();
    for (const size of [1, 9, 65_537]) {
      const data = randomBytes(size);
      const seed = crc32(Buffer.from('/some/module.js\u00000'));
      expect(native!(data, seed) >>> 0).toBe(crc32(data, seed) >>> 0);
    }
  });
});
