import { describe, expect, it } from 'vitest';
import type { Quality } from '../domain/constants';
import { ok } from '../result';
import { readQualityMap } from '../settings/quality';
import type { MusicSource, StreamRequest } from './music-source';
import { SourceRegistry } from './source-registry';

describe('SourceRegistry', () => {
  const asked: (Quality | undefined)[] = [];
  const source: MusicSource = {
    platform: 'music_b',
    resolveStream: async (song: StreamRequest) => {
      asked.push(song.quality);
      return ok({ input: { kind: 'url', url: 'http://127.0.0.1/a.mp3' } });
    },
  };

  it("asks each source at the platform's configured quality; a request's own quality wins", async () => {
    const registry = new SourceRegistry([source]);
    await registry.resolveStream({ id: '1', platform: 'music_b' });
    registry.setQuality(readQualityMap({ music_b: 'lossless' }));
    await registry.resolveStream({ id: '1', platform: 'music_b' });
    await registry.resolveStream({ id: '1', platform: 'music_b', quality: 'standard' });
    expect(asked).toEqual([undefined, 'lossless', 'standard']);
  });

  it('answers a readable error for a platform it has no source for', async () => {
    expect(await new SourceRegistry([source]).resolveStream({ id: '1', platform: 'music_c' })).toEqual({
      ok: false,
      error: 'source music_c is not available yet',
    });
  });

  it('reads a stored quality a platform cannot serve as its default', () => {
    const map = readQualityMap({ music_a: 'direct', library_a: 'standard', local: 'lossless', video_b: 42 });
    expect([map.music_a, map.library_a, map.local, map.video_b]).toEqual([
      'exhigh',
      'standard',
      'direct',
      'exhigh',
    ]);
  });
});
