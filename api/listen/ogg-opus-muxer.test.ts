import { describe, expect, it } from 'vitest';
import { readOggPages } from '../../tests/helpers/ogg-reader';
import { OggOpusMuxer } from './ogg-opus-muxer';

const packet = (length: number, fill: number) => new Uint8Array(length).fill(fill);

describe('OggOpusMuxer', () => {
  it('keeps packets whole across lacing edges and page limits, with exact granules', () => {
    const muxer = new OggOpusMuxer(7);
    // 0, 255 and 510 bytes end in a 0 lacing value; 150 × 300 bytes need more than 255 lacing values.
    const packets = [packet(0, 1), packet(255, 2), packet(510, 3), packet(600, 4)];
    for (let i = 0; i < 150; i++) packets.push(packet(300, i));
    const bytes = new Uint8Array([...muxer.headers(), ...muxer.audio(packets)]);
    const { pages, rest } = readOggPages(bytes);
    expect(rest).toBe(0);
    expect(pages.every((p) => p.crcOk && p.serial === 7)).toBe(true);
    expect(pages.map((p) => p.sequence)).toEqual(pages.map((_, i) => i));
    const audio = pages.slice(2);
    expect(audio.length).toBeGreaterThan(1);
    expect(audio.flatMap((p) => p.packets)).toEqual(packets);
    let count = 0;
    for (const page of audio) {
      count += page.packets.length;
      expect(page.granule).toBe(BigInt(count * 960));
    }
  });
});
