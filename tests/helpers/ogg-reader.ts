/**
 * An Ogg reader for the listen tests, written apart from the muxer (api/listen): pages with their CRC
 * checked bit by bit (no table), the packets each page completes, and the granule position.
 */
export interface OggPage {
  flags: number;
  granule: bigint;
  serial: number;
  sequence: number;
  crcOk: boolean;
  packets: Uint8Array[];
  /** Set by the caller that reads a live stream: when the page's last byte arrived. */
  receivedAtMs?: number;
}

function crcBitwise(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
    crc >>>= 0;
  }
  return crc >>> 0;
}

/** Reads whole pages from `bytes`; `rest` is an incomplete page at the end (a stream cut mid-page). */
export function readOggPages(bytes: Uint8Array): { pages: OggPage[]; rest: number } {
  const pages: OggPage[] = [];
  let offset = 0;
  let pending: number[] = [];
  while (offset + 27 <= bytes.length) {
    if (String.fromCharCode(...bytes.subarray(offset, offset + 4)) !== 'OggS')
      throw new Error(`no Ogg capture pattern at byte ${offset}`);
    const segments = bytes[offset + 26]!;
    const lacing = bytes.subarray(offset + 27, offset + 27 + segments);
    const bodyLength = lacing.reduce((n, l) => n + l, 0);
    const end = offset + 27 + segments + bodyLength;
    if (end > bytes.length) break;
    // A copy: a Buffer's slice is a view into a pool that DataView would read from its start.
    const page = Uint8Array.from(bytes.subarray(offset, end));
    const view = new DataView(page.buffer);
    const storedCrc = view.getUint32(22, true);
    view.setUint32(22, 0, true);
    const packets: Uint8Array[] = [];
    let at = 27 + segments;
    for (const l of lacing) {
      for (let i = 0; i < l; i++) pending.push(page[at + i]!);
      at += l;
      if (l < 255) {
        packets.push(Uint8Array.from(pending));
        pending = [];
      }
    }
    pages.push({
      flags: page[5]!,
      granule: view.getBigUint64(6, true),
      serial: view.getUint32(14, true),
      sequence: view.getUint32(18, true),
      crcOk: crcBitwise(page) === storedCrc,
      packets,
    });
    offset = end;
  }
  return { pages, rest: bytes.length - offset };
}

/** A live answer read for a while: its status, type, bytes, and the byte count as each chunk arrived. */
export interface LiveRead {
  status: number;
  contentType: string | null;
  bytes: Uint8Array;
  arrivals: { bytes: number; atMs: number }[];
}

/**
 * GETs `url` and reads its (endless) body for `ms` after `during` resolves, then aborts. Arrival times
 * count from the request.
 */
export async function readLive(
  url: string,
  headers: Record<string, string>,
  ms: number,
  during?: () => Promise<void>,
): Promise<LiveRead> {
  const startedAtMs = performance.now();
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const chunks: Uint8Array[] = [];
  const arrivals: LiveRead['arrivals'] = [];
  let total = 0;
  const reader = response.body?.getReader();
  const reading = (async () => {
    for (;;) {
      const { value, done } = (await reader?.read().catch(() => undefined)) ?? { done: true };
      if (done || !value) return;
      chunks.push(value);
      total += value.length;
      arrivals.push({ bytes: total, atMs: performance.now() - startedAtMs });
    }
  })();
  await during?.();
  await new Promise((r) => setTimeout(r, ms));
  abort.abort();
  await reading;
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    bytes: Buffer.concat(chunks),
    arrivals,
  };
}

/** Whether `response` is a listen-along stream, which never ends: read a bounded part of it, if any. */
export const isEndlessStream = (response: Response): boolean =>
  response.headers.get('content-type')?.startsWith('audio/ogg') ?? false;
