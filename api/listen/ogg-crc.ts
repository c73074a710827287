/**
 * The CRC-32 of Ogg pages (RFC 3533): polynomial 0x04c11db7, not reflected, initial value 0, no final
 * XOR. Computed over the whole page with its CRC field zeroed.
 */
const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ (TABLE[((crc >>> 24) ^ byte) & 0xff] as number)) >>> 0;
  return crc;
}
