/** The `music_a` source resolving a song to an audio URL, against an msw stand-in for NetEase's weapi. */
import { describe, expect, it } from 'vitest';
import { NeteaseClient } from '../../shared/sources/netease/netease-client';
import { type NeteaseLogin, parseNeteaseCookie } from '../../shared/sources/netease/netease-login';
import { NeteaseSource } from '../../shared/sources/netease/netease-source';
import { neteaseFixture, useNeteaseApi } from '../helpers/netease-api';

const api = useNeteaseApi();
const COOKIE = 'MUSIC_U=shared_music_u; __csrf=sharedcsrf';
const URL_PATH = '/weapi/song/enhance/player/url/v1';
const FULL_URL = 'http://m801.music.126.net/20261122120000/fixturehash/jdymusic/obj/fixture/paper-boats.mp3';
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
  it('resolves a song to its URL with the Referer and User-Agent NetEase wants', async () => {
    login = undefined;
    const result = await source.resolveStream(SONG);
    expect(api.requests.map((r) => [r.path, r.cookie])).toEqual([[URL_PATH, null]]);
    expect(result).toEqual({
      ok: true,
      value: {
        input: {
          kind: 'url',
          url: FULL_URL,
          headers: { referer: 'https://music.163.com/', userAgent: expect.stringContaining('Mozilla/5.0') },
        },
      },
    });
  });

  it('sends the login cookie with the request and with the audio', async () => {
    login = parseNeteaseCookie(COOKIE);
    const result = await source.resolveStream(SONG);
    login = undefined;
    expect(api.requests[0]!.cookie).toBe(COOKIE);
    expect(result.ok && result.value.input).toMatchObject({ kind: 'url', headers: { cookie: COOKIE } });
  });

  it('plays a trial clip as a preview of its length', async () => {
    const trialUrl = 'http://m701.music.126.net/20261122120000/fixturehash/trial.mp3';
    api.answer(URL_PATH, urlAnswer({ url: trialUrl, fee: 1, freeTrialInfo: { start: 60, end: 90 } }));
    const result = await source.resolveStream({ ...SONG, vip: true });
    expect(result).toMatchObject({ ok: true, value: { input: { url: trialUrl }, previewSeconds: 30 } });
  });

  it('refuses a VIP song without a URL with a clear reason', async () => {
    api.answer(URL_PATH, urlAnswer({ url: null, fee: 1, code: 404 }));
    expect(await source.resolveStream(SONG)).toEqual({
      ok: false,
      error: 'it needs a NetEase Cloud Music VIP login',
    });
    login = parseNeteaseCookie(COOKIE);
    const withLogin = await source.resolveStream(SONG);
    login = undefined;
    expect(withLogin).toEqual({
      ok: false,
      error: 'it needs a NetEase Cloud Music VIP account; the stored login cannot play it',
    });
  });

  it('says a free song without a URL is restricted, and an unknown id has no song', async () => {
    api.answer(URL_PATH, urlAnswer({ url: null, fee: 0, code: 404 }));
    expect(await source.resolveStream(SONG)).toEqual({
      ok: false,
      error: 'NetEase Cloud Music gave no audio for it (region or copyright restriction)',
    });
    expect(await source.resolveStream({ ...SONG, id: 'x1' })).toEqual({
      ok: false,
      error: 'NetEase Cloud Music has no song x1',
    });
    expect(api.requests).toHaveLength(1);
  });

  it('passes a refusal through as the reason', async () => {
    api.answer(URL_PATH, { code: -462, message: '绑定手机号' });
    expect(await source.resolveStream(SONG)).toEqual({
      ok: false,
      error: `NetEase Cloud Music refused ${URL_PATH} (code -462: 绑定手机号)`,
    });
  });
});
