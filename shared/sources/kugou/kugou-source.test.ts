/**
 * The `music_c` source at play time against an msw stand-in for Kugou Music's app API: the song's file
 * at the asked quality or the nearest lower one it has, the tracker request and its key, and the
 * refusals a listener reads.
 */
import { describe, expect, it } from 'vitest';
import { FFMPEG_USER_AGENT, useAudioHosts } from '../../../tests/helpers/audio-request';
import { useKugouApi } from '../../../tests/helpers/kugou-api';
import { KugouClient } from './kugou-client';
import { type KugouLogin, parseKugouCookie } from './kugou-login';
import { trackerKey } from './kugou-signing';
import { KugouSource, kugouQualityFor } from './kugou-source';

const api = useKugouApi();
const audioHosts = useAudioHosts(/^https?:\/\/webfs\.[\w.]+\.kugou\.com\/.*/);
let login: KugouLogin | undefined;
const source = new KugouSource(new KugouClient(async () => login));
const HARBOUR = 'A1B2C3D4E5F60718293A4B5C6D7E8F90';
const VELVET = 'D1B2C3D4E5F60718293A4B5C6D7E8F93';
const COOKIE = 'token=fixturetoken0001; userid=123456789; KUGOU_API_MID=4242';
const AUDIO = 'https://webfs.tx.kugou.com/fixture/b1b2c3d4e5f60718293a4b5c6d7e8f91.mp3';
const trackerAsked = () => api.to('/v5/url')[0]!.query;

describe('Kugou quality mapping', () => {
  it('maps each quality to the one Kugou serves, or the nearest lower', () => {
    expect(kugouQualityFor('standard')).toBe('standard');
    expect(kugouQualityFor('higher')).toBe('standard');
    expect(kugouQualityFor('exhigh')).toBe('exhigh');
    expect(kugouQualityFor('lossless')).toBe('lossless');
    expect(kugouQualityFor('hires')).toBe('hires');
    expect(kugouQualityFor('master')).toBe('hires');
  });
});

describe('Kugou stream resolution', () => {
  it("asks the tracker for the asked quality's file, with the app's key", async () => {
    login = undefined;
    const result = await source.resolveStream({ id: HARBOUR, platform: 'music_c', quality: 'exhigh' });
    expect(result).toEqual({ ok: true, value: { input: { kind: 'url', url: AUDIO } } });
    const asked = trackerAsked();
    expect(asked).toMatchObject({
      hash: 'b1b2c3d4e5f60718293a4b5c6d7e8f91',
      quality: '320',
      cmd: '26',
      behavior: 'play',
    });
    expect(asked.key).toBe(trackerKey(asked.hash!, asked.mid!, '0'));
    expect(api.to('/v5/url')[0]!.router).toBe('trackercdn.kugou.com');
  });

  it('serves 128, 320 and flac as their own files', async () => {
    for (const [quality, file] of [
      ['standard', '128'],
      ['lossless', 'flac'],
    ] as const) {
      await source.resolveStream({ id: HARBOUR, platform: 'music_c', quality });
      expect(api.to('/v5/url').at(-1)!.query.quality).toBe(file);
    }
  });

  it('falls back to the nearest lower file the song has (its hi-res file is not available)', async () => {
    await source.resolveStream({ id: HARBOUR, platform: 'music_c', quality: 'hires' });
    expect(trackerAsked()).toMatchObject({ quality: 'flac', hash: 'c1b2c3d4e5f60718293a4b5c6d7e8f92' });
  });

  it("uses the source's default quality when the request has none", async () => {
    await new KugouSource(new KugouClient(async () => undefined), 'lossless').resolveStream({
      id: HARBOUR,
      platform: 'music_c',
    });
    expect(trackerAsked().quality).toBe('flac');
  });

  it("signs the key with the login's account and device", async () => {
    login = parseKugouCookie(COOKIE);
    await source.resolveStream({ id: HARBOUR, platform: 'music_c', quality: 'exhigh' });
    const asked = trackerAsked();
    expect(asked).toMatchObject({ token: 'fixturetoken0001', userid: '123456789', mid: '4242' });
    expect(asked.key).toBe(trackerKey('b1b2c3d4e5f60718293a4b5c6d7e8f91', '4242', '123456789'));
    // A pasted cookie has no registered device fingerprint: the tracker gets a fresh 24-character one.
    expect(asked.dfid).toMatch(/^[0-9A-Z]{24}$/);
    expect(api.to('/v5/url')[0]!.dfid).toBe(asked.dfid);
    login = undefined;
  });

  it('sends the login to the API only: the audio host gets no cookie or token, only the player’s agent', async () => {
    login = parseKugouCookie(COOKIE);
    const result = await source.resolveStream({ id: HARBOUR, platform: 'music_c', quality: 'exhigh' });
    login = undefined;
    expect(trackerAsked()).toMatchObject({ token: 'fixturetoken0001' });
    // The relay's request itself: the tracker's URL is signed, and the CDN is asked as ffmpeg asks it.
    expect(await audioHosts.play(result)).toEqual({
      url: AUDIO,
      headers: { 'accept-encoding': 'identity', 'user-agent': FFMPEG_USER_AGENT },
    });
  });
});

describe('Kugou refusals', () => {
  it('refuses a VIP song without a login before asking the tracker', async () => {
    login = undefined;
    expect(await source.resolveStream({ id: VELVET, platform: 'music_c' })).toEqual({
      ok: false,
      error: 'Fixture Velvet is a VIP song on Kugou Music; log in with a Kugou Music VIP account to play it',
    });
    expect(api.to('/v5/url')).toHaveLength(0);
  });

  it('says a logged-in account cannot play a VIP song the tracker refuses', async () => {
    login = parseKugouCookie(COOKIE);
    api.answer('/v5/url', { status: 2, error: '本次请求需要验证', errcode: 20028 });
    expect(await source.resolveStream({ id: VELVET, platform: 'music_c' })).toEqual({
      ok: false,
      error:
        'Fixture Velvet needs a Kugou Music VIP account, and the stored login is not one; log in with a VIP account',
    });
    login = undefined;
  });

  it('names a song without copyright, one without audio, and an unknown song', async () => {
    api.answer('/v5/url', { status: 3 });
    expect(await source.resolveStream({ id: HARBOUR, platform: 'music_c' })).toEqual({
      ok: false,
      error:
        'Kugou Music has no copyright to play Fixture Harbour; no login changes that, try another platform',
    });
    api.answer('/v5/url', { status: 1, url: [] });
    expect(await source.resolveStream({ id: HARBOUR, platform: 'music_c' })).toEqual({
      ok: false,
      error: 'Kugou Music gives no audio for Fixture Harbour without a login; log in to Kugou Music',
    });
    expect(
      await source.resolveStream({ id: '00000000000000000000000000000000', platform: 'music_c' }),
    ).toEqual({
      ok: false,
      error: 'Kugou Music has no such song (00000000000000000000000000000000)',
    });
  });

  it('plays a backup URL when the tracker gives only that', async () => {
    api.answer('/v5/url', { status: 1, url: [], backupUrl: ['https://backup.kugou.test/a.mp3'] });
    expect(await source.resolveStream({ id: HARBOUR, platform: 'music_c' })).toEqual({
      ok: true,
      value: { input: { kind: 'url', url: 'https://backup.kugou.test/a.mp3' } },
    });
  });
});
