/**
 * Wraps Opus packets in an Ogg stream (RFC 3533, RFC 7845) without touching them: the identification
 * header (OpusHead), the comment header (OpusTags), then audio pages whose granule position counts
 * 48 kHz samples. One muxer per listener, since each stream starts its own page numbers and granules.
 */
import { oggCrc } from './ogg-crc';

/** What the daemon sends: 20 ms frames, 48 kHz stereo (daemon/audio/pcm-format.ts). */
const SAMPLES_PER_FRAME = 960;
const CHANNELS = 2;
const SAMPLE_RATE_HZ = 48_000;
/** The encoder's look-ahead, which a decoder drops from the start (libopus at 48 kHz). */
const PRE_SKIP_SAMPLES = 312;
const HEADER_BYTES = 27;
const MAX_SEGMENTS = 255;
const BEGIN_OF_STREAM = 0x02;
const VENDOR = 'ts3-music-bot';

export class OggOpusMuxer {
  private pageSequence = 0;
  private granule = 0n;

  constructor(private readonly serial: number) {}

  /** The two header pages every stream begins with. */
  headers(): Uint8Array {
    const head = new Uint8Array(19);
    const view = new DataView(head.buffer);
    head.set(new TextEncoder().encode('OpusHead'), 0);
    head[8] = 1; // version
    head[9] = CHANNELS;
    view.setUint16(10, PRE_SKIP_SAMPLES, true);
    view.setUint32(12, SAMPLE_RATE_HZ, true);
    view.setInt16(16, 0, true); // output gain
    head[18] = 0; // channel mapping family: mono or stereo
    const vendor = new TextEncoder().encode(VENDOR);
    const tags = new Uint8Array(8 + 4 + vendor.length + 4);
    tags.set(new TextEncoder().encode('OpusTags'), 0);
    new DataView(tags.buffer).setUint32(8, vendor.length, true);
    tags.set(vendor, 12);
    // No user comments (the count after the vendor string stays 0).
    return Buffer.concat([this.page([head], BEGIN_OF_STREAM, 0n), this.page([tags], 0, 0n)]);
  }

  /**
   * Audio pages for `packets` (each one 20 ms frame), written into one buffer. A page holds as many
   * packets as its 255 lacing values allow; a packet never spans pages, which keeps the granule of
   * every page exact.
   */
  audio(packets: readonly Uint8Array[]): Uint8Array {
    const pages: Uint8Array[][] = [[]];
    let segments = 0;
    for (const packet of packets) {
      const needed = lacingLength(packet);
      let page = pages.at(-1) as Uint8Array[];
      if (segments + needed > MAX_SEGMENTS && page.length) {
        page = [];
        pages.push(page);
        segments = 0;
      }
      page.push(packet);
      segments += needed;
    }
    const out = new Uint8Array(pages.reduce((n, page) => n + pageLength(page), 0));
    let offset = 0;
    for (const page of pages) {
      if (!page.length) continue;
      this.granule += BigInt(page.length * SAMPLES_PER_FRAME);
      offset += this.writePage(out, offset, page, 0, this.granule);
    }
    return out;
  }

  private page(packets: readonly Uint8Array[], flags: number, granule: bigint): Uint8Array {
    const out = new Uint8Array(pageLength(packets));
    this.writePage(out, 0, packets, flags, granule);
    return out;
  }

  /** Writes one page at `at` in `out`; returns its length. */
  private writePage(
    out: Uint8Array,
    at: number,
    packets: readonly Uint8Array[],
    flags: number,
    granule: bigint,
  ): number {
    const length = pageLength(packets);
    const page = out.subarray(at, at + length);
    const view = new DataView(out.buffer, out.byteOffset + at, length);
    page.set([0x4f, 0x67, 0x67, 0x53], 0); // "OggS"
    page[4] = 0; // version
    page[5] = flags;
    view.setBigUint64(6, granule, true);
    view.setUint32(14, this.serial, true);
    view.setUint32(18, this.pageSequence++, true);
    let lacing = HEADER_BYTES;
    for (const packet of packets) {
      for (let left = packet.length; ; left -= 255) {
        page[lacing++] = Math.min(left, 255);
        if (left < 255) break;
      }
    }
    page[26] = lacing - HEADER_BYTES;
    let offset = lacing;
    for (const packet of packets) {
      page.set(packet, offset);
      offset += packet.length;
    }
    view.setUint32(22, oggCrc(page), true);
    return length;
  }
}

/** Lacing values of one packet: a 255 per full 255 bytes, then the rest (0 when it divides evenly). */
const lacingLength = (packet: Uint8Array) => Math.floor(packet.length / 255) + 1;

const pageLength = (packets: readonly Uint8Array[]) =>
  packets.reduce((n, p) => n + lacingLength(p) + p.length, HEADER_BYTES);
