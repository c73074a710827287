/** The `music_b` source resolving a song to an audio URL, against an msw stand-in for `musicu.fcg`. */
import { describe, expect, it } from 'vitest';
import { MusicuClient } from '../../shared/sources/qq-music/musicu-client';
import { parseQqCookie, type QqLogin } from '../../shared/sources/qq-music/qq-music-login';
import { QqMusicSource, qqQualityFor } from '../../shared/sources/qq-music/qq-music-source';
import { qqFixture, useQqMusicApi } from '../helpers/qq-music-api';

const api = useQqMusicApi();
const COOKIE = 'uin=o0123456789; qqmusic_key=Q_H_L_test_key';
let login: QqLogin | undefined;
const source = new QqMusicSource(new MusicuClient(async () => login));
const SONG = { id: '0039MnYb0qxYhV', platform: 'music_b' } as const;
const VKEY = 'vkey.GetVkeyServer.CgiGetVkey';
const FILE_320 = 'M8000039MnYb0qxYhV0039MnYb0qxYhV.mp3';
const FILE_M4A = 'C4000039MnYb0qxYhV0039MnYb0qxYhV.m4a';

/** The vkey fixture with only these files given a path. */
function vkeyWith(files: string[]) {
  const answer = qqFixture('vkey') as {
    req_0: { data: { midurlinfo: { filename: string; purl: string }[] } };
  };
  for (const info of answer.req_0.data.midurlinfo) if (!files.includes(info.filename)) info.purl = '';
  return answer;
}

describe('QQ Music source', () => {
  it('resolves a song to the 320k file on the first CDN host with the headers QQ Music wants', async () => {
    login = undefined;
    const result = await source.resolveStream(SONG);
    expect(api.requests.map((r) => r.req_0.method)).toEqual(['CgiGetTrackInfo', 'CgiGetVkey']);
    expect(api.requests[1]!.req_0).toMatchObject({
      module: 'vkey.GetVkeyServer',
      param: {
        filename: [FILE_320, FILE_M4A],
        songmid: [SONG.id, SONG.id],
        songtype: [0, 0],
        uin: '0',
        loginflag: 1,
        platform: '20',
        guid: expect.stringMatching(/^\d+$/),
      },
    });
    expect(result).toEqual({
      ok: true,
      value: {
        input: {
          kind: 'url',
          url: `https://isure.stream.qqmusic.qq.com/${FILE_320}?guid=1&vkey=TESTVKEY&uin=0&fromtag=66`,
          headers: { referer: 'https://y.qq.com/', userAgent: expect.stringContaining('Mozilla/5.0') },
        },
      },
    });
  });

  it('falls back to the 128k m4a when the 320k file has no path, and sends the login cookie', async () => {
    login = parseQqCookie(COOKIE);
    api.answer(VKEY, vkeyWith([FILE_M4A]));
    const result = await source.resolveStream(SONG);
    login = undefined;
    expect(api.requests[1]!.req_0.param).toMatchObject({ uin: '123456789' });
    expect(result.ok && result.value.input).toEqual({
      kind: 'url',
      url: `https://isure.stream.qqmusic.qq.com/${FILE_M4A}?guid=1&vkey=TESTVKEY&uin=0&fromtag=66`,
      headers: { referer: 'https://y.qq.com/', userAgent: expect.any(String), cookie: COOKIE },
    });
  });

  it('says a VIP song needs a VIP login when no file has a path', async () => {
    const vipInfo = qqFixture('track-info') as {
      req_0: { data: { tracks: { pay: { pay_play: number } }[] } };
    };
    vipInfo.req_0.data.tracks[0]!.pay.pay_play = 1;
    api.answer('music.trackInfo.UniformRuleCtrl.CgiGetTrackInfo', vipInfo);
    api.answer(VKEY, vkeyWith([]));
    expect(await source.resolveStream({ ...SONG, vip: true })).toEqual({
      ok: false,
      error: 'Sunny Day needs a QQ Music VIP login',
    });
  });

  it('names restricted and unknown songs, and passes API failures on', async () => {
    api.answer(VKEY, vkeyWith([]));
    expect(await source.resolveStream(SONG)).toEqual({
      ok: false,
      error: 'QQ Music gave no audio for Sunny Day (region or copyright restriction)',
    });
    expect(await source.resolveStream({ ...SONG, id: '000Unknown0000' })).toEqual({
      ok: false,
      error: 'QQ Music does not know the song 000Unknown0000',
    });
    api.answer(VKEY, { code: 0, req_0: { code: 104003, data: {} } });
    expect(await source.resolveStream(SONG)).toEqual({
      ok: false,
      error: 'QQ Music refused CgiGetVkey (code 104003)',
    });
  });

  it("asks for the file of the request's quality instead of its own default", async () => {
    await source.resolveStream({ ...SONG, quality: 'lossless' });
    await source.resolveStream({ ...SONG, quality: 'standard' });
    await source.resolveStream({ ...SONG, quality: 'higher' });
    expect(vkeyRequests().map((param) => param.filename)).toEqual([
      ['F0000039MnYb0qxYhV0039MnYb0qxYhV.flac', FILE_M4A],
      ['M5000039MnYb0qxYhV0039MnYb0qxYhV.mp3', FILE_M4A],
      ['C6000039MnYb0qxYhV0039MnYb0qxYhV.m4a', FILE_M4A],
    ]);
  });

  it('serves a quality QQ Music lacks with the nearest lower one', async () => {
    await source.resolveStream({ ...SONG, quality: 'hires' });
    expect(vkeyRequests()[0]!.filename).toEqual(['F0000039MnYb0qxYhV0039MnYb0qxYhV.flac', FILE_M4A]);
    expect(qqQualityFor('master')).toBe('lossless');
    expect(qqQualityFor('direct')).toBe('lossless');
    expect(qqQualityFor('exhigh')).toBe('exhigh');
  });
});

function vkeyRequests() {
  return api.requests.filter((r) => r.req_0.method === 'CgiGetVkey').map((r) => r.req_0.param);
}
