/**
 * Audio quality per platform (SPEC "restored at startup"): the daemon reads the stored qualities when it
 * starts and asks each source at its platform's quality; a change announced on `settings.changed`
 * applies from the next song on. A recording source stands in for the platform's adapter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_EVENTS } from '../../shared/bus/subjects';
import type { Quality } from '../../shared/domain/constants';
import type { Song } from '../../shared/domain/schemas';
import { QUALITY_SETTING, readQualityMap, writeQuality } from '../../shared/settings/quality';
import { LocalSource } from '../../shared/sources/local/local-source';
import type { MusicSource, StreamRequest } from '../../shared/sources/music-source';
import { SourceRegistry } from '../../shared/sources/source-registry';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { DaemonHarness } from './harness';

describe('audio quality in the daemon', () => {
  let server: Ts3TestServer;
  let h: DaemonHarness;
  let bot: string;
  const asked: (Quality | undefined)[] = [];
  const song: Song = {
    id: 'qq-1',
    name: 'QQ song',
    artist: 'tests',
    album: '',
    duration: 2,
    coverUrl: '',
    platform: 'music_b',
  };

  beforeAll(async () => {
    server = await Ts3TestServer.start();
    h = await DaemonHarness.create(server);
    const tone = await h.toneSong('tone', [{ frequencyHz: 440, seconds: 2 }]);
    const local = new LocalSource(h.db, h.dataDir);
    const recording: MusicSource = {
      platform: 'music_b',
      resolveStream: (request: StreamRequest) => {
        asked.push(request.quality);
        return local.resolveStream({ id: tone.id, platform: 'local' });
      },
    };
    // Stored before the daemon starts: it must be read at start-up.
    await writeQuality(h.db, readQualityMap({ music_b: 'lossless' }));
    await h.startDaemon(new SourceRegistry([local, recording]));
    bot = await h.addBot(server.port, { name: 'Quality' });
    await h.command(bot, 'start');
  });

  afterAll(async () => {
    await h?.close();
    await server?.close();
  });

  it('asks the source at the stored quality, and at a new one once it is announced', async () => {
    expect(await h.command(bot, 'playSong', { song, requestedBy: 'alice' })).toMatchObject({ ok: true });
    await writeQuality(h.db, readQualityMap({ music_b: 'standard' }));
    h.bus.publish(SETTINGS_EVENTS, { keys: [QUALITY_SETTING] });
    await new Promise((r) => setTimeout(r, 100));
    expect(await h.command(bot, 'playSong', { song, requestedBy: 'alice' })).toMatchObject({ ok: true });
    expect(asked).toEqual(['lossless', 'standard']);
  });
});
