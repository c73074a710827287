/**
 * An uploaded file is what the voice server hears: a 4 s 440 Hz FLAC made by ffmpeg goes up over a real
 * socket to the upload route, the answered song is played on a connected bot, and the TS3 test server's
 * decoded Opus is measured for its length and its tone.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FRAME_SECONDS, SAMPLES_PER_CHANNEL_PER_FRAME } from '../../daemon/audio/pcm-format';
import { SongSchema } from '../../shared/domain/schemas';
import { FFMPEG, makeTempDir, type TempDir } from '../../testkit/audio-signals';
import { frequencyOf, heard, rms, samplesOfPackets } from '../daemon/heard';
import { startVoiceApp, type VoiceApp } from '../helpers/voice-app';

const SECONDS = 4;
const FREQUENCY_HZ = 440;
const TITLE = 'Upload Tone';
/** Left-channel RMS above which a 20 ms frame carries the tone (the sine at volume 50 is about 0.09). */
const AUDIBLE_RMS = 0.01;
/** Opus Music (stereo, 48 kHz) in TeamSpeak's codec enum: what a music bot speaks. */
const OPUS_MUSIC_CODEC = 5;

let app: VoiceApp;
let media: TempDir;

beforeAll(async () => {
  media = makeTempDir('upload-playback-');
  app = await startVoiceApp({ name: 'Uploads', nickname: 'Upload Bot' });
}, 30_000);

afterAll(async () => {
  await app?.close();
  media?.remove();
});

/** A FLAC (exact length, no encoder padding) of the tone, with a Vorbis-comment title. */
function toneFlac(): Buffer {
  const path = media.file('tone.flac');
  const run = spawnSync(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `sine=frequency=${FREQUENCY_HZ}:sample_rate=48000:duration=${SECONDS}`],
    ...['-metadata', `title=${TITLE}`, path],
  ]);
  if (run.status !== 0) throw new Error(`ffmpeg could not render ${path}: ${run.stderr.toString()}`);
  return readFileSync(path);
}

describe('an uploaded file played on a connected bot', () => {
  it('reaches the voice server as decodable Opus of the file’s length and tone', async () => {
    const { admin, botId, server, t } = app;
    const baseUrl = await t.listen();
    const uploaded = await fetch(`${baseUrl}/api/music/local/upload`, {
      method: 'POST',
      headers: { 'content-type': 'audio/flac', 'x-filename': 'tone.flac', cookie: admin.jar.header()! },
      body: Uint8Array.from(toneFlac()),
    });
    expect(uploaded.status).toBe(200);
    const { song } = z.object({ song: SongSchema }).parse(await uploaded.json());
    expect(song).toMatchObject({ platform: 'local', name: TITLE });
    expect(Math.abs(song.duration - SECONDS)).toBeLessThanOrEqual(0.1);

    const bot = { params: { path: { botId } } };
    const started = await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } });
    expect(started.data).toMatchObject({ connected: true });
    const played = await admin.api.POST('/api/player/{botId}/play-song', { ...bot, body: { song } });
    expect(played.response.status).toBe(200);
    const status = async () => (await admin.api.GET('/api/player/{botId}/queue', bot)).data?.status;
    await expect.poll(async () => (await status())?.playing, { timeout: 5000, interval: 50 }).toBe(true);
    await expect
      .poll(async () => (await status())?.playing, { timeout: SECONDS * 1000 + 6000, interval: 100 })
      .toBe(false);

    const clientId = server.clientByName('Upload Bot')?.id ?? -1;
    // The end-of-voice packet closes the burst: after it nothing more of this song is on its way.
    await expect
      .poll(() => server.voiceStats(clientId)?.endPackets ?? 0, { timeout: 2000 })
      .toBeGreaterThan(0);
    const stats = server.voiceStats(clientId)!;
    expect(stats.decodeErrors).toBe(0);
    expect(stats.codec).toBe(OPUS_MUSIC_CODEC);
    // Every packet counts, the silence frames that close the track included.
    expect(Math.abs(stats.packets * FRAME_SECONDS - SECONDS)).toBeLessThanOrEqual(0.3);
    expect(Math.abs(stats.decodedSeconds - SECONDS)).toBeLessThanOrEqual(0.3);

    // The frames that carry the tone are the file itself, give or take a few frames at its ends.
    const sound = heard(server, clientId);
    const audibleFrames = Array.from({ length: stats.packets }, (_, i) =>
      rms(samplesOfPackets(sound, i, i + 1)),
    ).filter((level) => level > AUDIBLE_RMS).length;
    expect(Math.abs(audibleFrames * FRAME_SECONDS - SECONDS)).toBeLessThanOrEqual(0.1);
    expect(sound.mono.length).toBe(stats.packets * SAMPLES_PER_CHANNEL_PER_FRAME);
    expect(Math.abs(frequencyOf(sound.mono) - FREQUENCY_HZ)).toBeLessThanOrEqual(3);
  }, 30_000);
});
