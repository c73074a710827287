/**
 * The `music_a` source resolving a song to an audio URL, against an msw stand-in for NetEase that reads
 * the Android app's guarded form (xeapi) the way NetEase does.
 */
import { describe, expect, it } from 'vitest';
import { useAudioHosts } from '../../../tests/helpers/audio-request';
import { neteaseFixture, useNeteaseApi } from '../../../tests/helpers/netease-api';
import { FIXTURE_MUSIC_A, sealedAppAnswer } from '../../../tests/helpers/netease-protocol';
import { MAX_ANSWER_BYTES } from '../http/fetch-json';
import { NeteaseClient, RISKY_NETWORK } from './netease-client';
import { parseNeteaseCookie } from './netease-login';
import type { NeteaseLogin } from './netease-login-shape';
import { NeteaseSource } from './netease-source';

const api = useNeteaseApi();
const audioHosts = useAudioHosts(/^https?:\/\/m\d+\.music\.126\.net\/.*/);
const COOKIE = 'MUSIC_U=shared_music_u; __csrf=sharedcsrf';
const URL_PATH = '/xeapi/song/enhance/player/url/v1';
/** The fixture answers `http://m801.music.126.net/…`; the source plays it over https. */
const FULL_URL = 'https://m801.music.126.net/20261122120000/fixturehash/jdymusic/obj/fixture/paper-boats.mp3';
let login: NeteaseLogin | undefined;
const source = new NeteaseSource(new NeteaseClient(async () => login));
const SONG = { id: '1901371647', platform: 'music_a' } as const;

/** The song-url fixture with these fields changed on its one entry. */
function urlAnswer(fields: Record<string, unknown>) {
  const answer = neteaseFixture('song-url') as { data: Record<string, unknown>[] };
  Object.assign(answer.data[0]!, fields);
  return answer;
}

describe('NetEase source', () => {
  it('asks for the URL in the app form, anonymously as a registered device', async () => {
    login = undefined;
    const result = await source.resolveStream(SONG);
    expect(api.requests.map((r) => [r.form, r.path, r.musicU, r.musicA])).toEqual([
      ['app', URL_PATH, undefined, FIXTURE_MUSIC_A],
    ]);
    expect(api.requests[0]!.payload).toEqual({ ids: '[1901371647]', level: 'exhigh', encodeType: 'flac' });
    // The device registered once, with the id every call names.
    expect(api.registrations).toHaveLength(1);
    expect(api.requests[0]!.deviceId).toBe(api.registrations[0]!.deviceId);
    expect(result).toEqual({
      ok: true,
      value: {
        input: {
          kind: 'url',
          url: FULL_URL,
          headers: { referer: 'https://music.163.com/', userAgent: expect.stringContaining('Mozilla/5.0') },
        },
        // The fixture's `gain` -5.8731 dB to -18 LUFS, `peak` 1 (full scale).
        loudness: { integratedLufs: -12.13, peakDb: 0, source: 'platform' },
      },
    });
  });

  it("reads the file's loudness from its gain and linear peak, where NetEase has analysed it", async () => {
    api.answer(URL_PATH, urlAnswer({ gain: 4.25, peak: 0.5 }));
    const quiet = await source.resolveStream(SONG);
    expect(quiet.ok && quiet.value.loudness).toEqual({
      integratedLufs: -22.25,
      peakDb: -6.02,
      source: 'platform',
    });
    // An AAC file's peak passes full scale (its decoded overs).
    api.answer(URL_PATH, urlAnswer({ gain: -9.1107, peak: 1.2562 }));
    const loud = await source.resolveStream(SONG);
    expect(loud.ok && loud.value.loudness).toEqual({
      integratedLufs: -8.89,
      peakDb: 1.98,
      source: 'platform',
    });
  });

  it('gives no loudness for a file NetEase has not analysed, so the bot measures it', async () => {
    for (const figures of [
      { gain: 0, peak: 0 },
      { gain: 0, peak: 1.0606, closedGain: 0, closedPeak: 0 },
      { gain: null, peak: null },
      { gain: undefined, peak: undefined },
    ]) {
      api.answer(URL_PATH, urlAnswer(figures));
      const result = await source.resolveStream(SONG);
      expect(result.ok).toBe(true);
      expect(result.ok && 'loudness' in result.value).toBe(false);
    }
  });

  it('keeps a gain without a peak, and leaves out a peak of 0', async () => {
    api.answer(URL_PATH, urlAnswer({ gain: -3, peak: 0 }));
    const result = await source.resolveStream(SONG);
    expect(result.ok && result.value.loudness).toEqual({ integratedLufs: -15, source: 'platform' });
  });

  it('sends the login to the API only: the audio host gets https, the Referer and a User-Agent', async () => {
    login = parseNeteaseCookie(COOKIE);
    const result = await source.resolveStream(SONG);
    login = undefined;
    expect(api.requests[0]).toMatchObject({ musicU: 'shared_music_u', musicA: undefined });
    // The relay's request itself: the URL is signed already, so MUSIC_U stays with NetEase's API hosts.
    expect(await audioHosts.play(result)).toEqual({
      url: FULL_URL,
      headers: {
        'accept-encoding': 'identity',
        referer: 'https://music.163.com/',
        'user-agent': expect.stringContaining('Mozilla/5.0'),
      },
    });
  });

  it('plays a trial clip as a preview of its length', async () => {
    const trialPath = 'm701.music.126.net/20261122120000/fixturehash/trial.mp3';
    api.answer(
      URL_PATH,
      urlAnswer({ url: `http://${trialPath}`, fee: 1, freeTrialInfo: { start: 60, end: 90 } }),
    );
    const result = await source.resolveStream({ ...SONG, vip: true });
    expect(result).toMatchObject({
      ok: true,
      value: { input: { url: `https://${trialPath}` }, previewSeconds: 30 },
    });
  });

  it('refuses a VIP song without a URL with a clear reason', async () => {
    api.answer(URL_PATH, urlAnswer({ url: null, fee: 1, code: 404 }));
    expect(await source.resolveStream(SONG)).toEqual({
      ok: false,
      error:
        'it is a VIP song on NetEase Cloud Music; log in with a NetEase Cloud Music VIP account to play it',
    });
    login = parseNeteaseCookie(COOKIE);
    const withLogin = await source.resolveStream(SONG);
    login = undefined;
    expect(withLogin).toEqual({
      ok: false,
      error:
        'it needs a NetEase Cloud Music VIP account, and the stored login is not one; log in with a VIP account',
    });
  });

  it('says a free song without a URL is restricted, and an unknown id has no song', async () => {
    api.answer(URL_PATH, urlAnswer({ url: null, fee: 0, code: 404 }));
    expect(await source.resolveStream(SONG)).toEqual({
      ok: false,
      error:
        'NetEase Cloud Music gave no audio for it without a login (copyright or region restriction); log in to NetEase Cloud Music, or try another platform',
    });
    expect(await source.resolveStream({ ...SONG, id: 'x1' })).toEqual({
      ok: false,
      error: 'NetEase Cloud Music has no such song (x1)',
    });
    expect(api.requests).toHaveLength(1);
  });

  it('passes a refusal through as the reason, and says what -460 means in plain words', async () => {
    api.answer(URL_PATH, { code: -462, message: '绑定手机号' });
    expect(await source.resolveStream(SONG)).toEqual({
      ok: false,
      error: `NetEase Cloud Music refused ${URL_PATH} (code -462: 绑定手机号)`,
    });
    api.answer(URL_PATH, { code: -460, message: '检测到您的网络环境存在风险，请稍后再试' });
    expect(await source.resolveStream(SONG)).toEqual({ ok: false, error: RISKY_NETWORK });
    expect(RISKY_NETWORK).toMatch(/risky network \(code -460\).*log in .* QR code, or try again later/);
  });

  it('never throws on a malformed session key, and ignores it: the next call is sealed as before', async () => {
    const sealedWith = (sskey: string) => () =>
      sealedAppAnswer(neteaseFixture('song-url'), { 'x-encr-ssid': 'session-1', 'x-encr-sskey': sskey });
    for (const sskey of ['short', 'k'.repeat(17)]) {
      api.answer(URL_PATH, sealedWith(sskey));
      expect((await source.resolveStream(SONG)).ok).toBe(true);
      // Sealed under a key of that length, this request would throw out of resolveStream.
      expect((await source.resolveStream(SONG)).ok).toBe(true);
    }
  });

  it('reads an answer only up to the bound, however it is sent', async () => {
    const chunk = new Uint8Array(1024 * 1024);
    api.answer(URL_PATH, () => {
      let sent = 0;
      // No content-length, and more than the bound: the source must stop reading by itself.
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          sent += chunk.byteLength;
          if (sent > 64 * chunk.byteLength) controller.close();
          else controller.enqueue(chunk);
        },
      });
      return new Response(endless);
    });
    expect(await source.resolveStream(SONG)).toEqual({
      ok: false,
      error: `NetEase Cloud Music sent an answer larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB; it was not read`,
    });
  });
});
