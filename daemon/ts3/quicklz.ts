/**
 * QuickLZ level-1 decompression (ReSpeak/quicklz Format.md). Servers compress large commands (initserver,
 * channel lists); all header fields are little-endian, unlike the rest of the protocol.
 */
import { err, ok, type Result } from '../../shared/result';

/** Refuse to inflate beyond this (tsclientlib allows 2 MiB, TS3AudioBot 1 MiB). */
export const MAX_DECOMPRESSED_BYTES = 1 << 20;
const HASH_ENTRIES = 4096;
/** The last bytes are always literals (the compressor stops matching 10 bytes before the end). */
const TAIL_LITERALS = 10;

interface Header {
  headerBytes: number;
  compressed: boolean;
  totalSize: number;
  plainSize: number;
}

function readHeader(data: Uint8Array): Result<Header> {
  const flags = data[0];
  if (flags === undefined) return err('QuickLZ data is empty');
  if (((flags >> 2) & 0x03) !== 1) return err('QuickLZ level is not 1');
  const long = (flags & 0x02) !== 0;
  const headerBytes = long ? 9 : 3;
  if (data.length < headerBytes) return err('QuickLZ header truncated');
  const view = Buffer.from(data.buffer, data.byteOffset, data.length);
  return ok({
    headerBytes,
    compressed: (flags & 0x01) !== 0,
    totalSize: long ? view.readUInt32LE(1) : view[1]!,
    plainSize: long ? view.readUInt32LE(5) : view[2]!,
  });
}

export function decompress(data: Uint8Array): Result<Buffer> {
  const header = readHeader(data);
  if (!header.ok) return header;
  const { headerBytes, compressed, totalSize, plainSize } = header.value;
  if (totalSize !== data.length) return err('QuickLZ size does not match the data');
  if (plainSize > MAX_DECOMPRESSED_BYTES) return err('QuickLZ output too large');
  if (!compressed) {
    if (data.length - headerBytes !== plainSize) return err('stored QuickLZ block has the wrong size');
    return ok(Buffer.from(data.subarray(headerBytes)));
  }
  const out = Buffer.alloc(plainSize);
  const table = new Int32Array(HASH_ENTRIES);
  const hashAt = (i: number) => {
    const v = out[i]! | (out[i + 1]! << 8) | (out[i + 2]! << 16);
    return ((v >>> 12) ^ v) & 0xfff;
  };
  let src = headerBytes;
  let dst = 0;
  let nextHashed = 0;
  let control = 1;
  const tailStart = Math.max(plainSize, TAIL_LITERALS) - TAIL_LITERALS;
  const truncated = err('QuickLZ data truncated');
  while (dst < plainSize) {
    if (control === 1) {
      if (src + 4 > data.length) return truncated;
      control = (data[src]! | (data[src + 1]! << 8) | (data[src + 2]! << 16) | (data[src + 3]! << 24)) >>> 0;
      src += 4;
    }
    if (control & 1) {
      control >>>= 1;
      if (src + 2 > data.length) return truncated;
      const b0 = data[src++]!;
      const b1 = data[src++]!;
      const hash = (b0 >> 4) | (b1 << 4);
      let length = b0 & 0x0f;
      if (length !== 0) length += 2;
      else {
        if (src >= data.length) return truncated;
        length = data[src++]!;
      }
      const from = table[hash]!;
      if (from >= dst || dst + length > plainSize) return err('QuickLZ back-reference out of range');
      for (let i = 0; i < length; i++) out[dst + i] = out[from + i]!;
      const start = dst;
      dst += length;
      for (; nextHashed <= start; nextHashed++) table[hashAt(nextHashed)] = nextHashed;
      nextHashed = dst;
    } else if (dst >= tailStart) {
      while (dst < plainSize) {
        if (control === 1) {
          src += 4;
          control = 0x80000000;
        }
        if (src >= data.length) return truncated;
        out[dst++] = data[src++]!;
        control >>>= 1;
      }
    } else {
      if (src >= data.length) return truncated;
      out[dst++] = data[src++]!;
      control >>>= 1;
      const end = Math.max(dst - 2, 0);
      for (; nextHashed < end; nextHashed++) table[hashAt(nextHashed)] = nextHashed;
    }
  }
  return ok(out);
}
