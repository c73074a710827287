/** The `music_b` source resolving a song to an audio URL, against an msw stand-in for `musicu.fcg`. */
import { describe, expect, it } from 'vitest';
import { useAudioHosts } from '../../../tests/helpers/audio-request';
import { failedWith, qqFixture, useQqMusicApi } from '../../../tests/helpers/qq-music-api';
import { MusicuClient, RISK_CONTROL } from './musicu-client';
import { parseQqCookie, type QqLogin } from './qq-music-login';
import { QqMusicSource, qqQualityFor } from './qq-music-source';

const api = useQqMusicApi();
const audioHosts = useAudioHosts(/^https?:\/\/[\w.-]+\.(?:stream\.qqmusic|tc)\.qq\.com\/.*/);
const COOKIE = 'uin=o0123456789; qqmusic_key=Q_H_L_test_key';
let login: QqLogin | undefined;
const source = new QqMusicSource(new MusicuClient(async () => login));
const SONG = { id: '0039MnYb0qxYhV', platform: 'music_b' } as const;
const VKEY = 'music.vkey.GetVkey.UrlGetVkey';
const TRACK_INFO = 'music.trackInfo.UniformRuleCtrl.CgiGetTrackInfo';
/** Sunny Day's audio files are named by its media file id, not its song mid. */
const FILE_320 = 'M800003MediaSunny01.mp3';
const FILE_M4A = 'C400003MediaSunny01.m4a';
const PHONE_USER_AGENT = 'QQMusic 14090008(android 10)';

type VkeyFixture = {
  req_0: { data: { sip?: string[]; midurlinfo: { filename: string; purl: string; result: number }[] } };
};

/** The vkey fixture with only these files given a path; the others refused with `result`. */
function vkeyWith(files: string[], result = 104003) {
  const answer = qqFixture('vkey') as VkeyFixture;
  for (const info of answer.req_0.data.midurlinfo)
    if (!files.includes(info.filename)) Object.assign(info, { purl: '', result });
  return answer;
}

describe('QQ Music source', () => {
  it("asks UrlGetVkey as the phone app for the 320k file, named by the track's media_mid", async () => {
    login = undefined;
    const result = await source.resolveStream(SONG);
    expect(api.requests.map((r) => r.req_0.method)).toEqual(['CgiGetTrackInfo', 'UrlGetVkey']);
    expect(api.requests[1]!.req_0).toEqual({
      module: 'music.vkey.GetVkey',
      method: 'UrlGetVkey',
      param: {
        uin: '',
        filename: [FILE_320, FILE_M4A],
        guid: expect.stringMatching(/^[0-9a-f]{32}$/),
        songmid: [SONG.id, SONG.id],
        songtype: [0, 0],
        ctx: 0,
      },
    });
    // No host in the answer: the path is played from QQ Music's default stream host.
    expect(result).toEqual({
      ok: true,
      value: {
        input: {
          kind: 'url',
          url: `https://isure.stream.qqmusic.qq.com/${FILE_320}?guid=1&vkey=TESTVKEY&uin=0&fromtag=120032`,
          headers: { userAgent: PHONE_USER_AGENT },
        },
        // The track's ReplayGain gain -7.412 dB to -18 LUFS, its linear peak 0.993.
        loudness: { integratedLufs: -10.59, peakDb: -0.06, source: 'platform' },
      },
    });
  });

  it('plays from the first https host the answer names, never from an http one', async () => {
    const answer = qqFixture('vkey') as VkeyFixture;
    answer.req_0.data.sip = ['http://ws6.stream.qqmusic.qq.com/', 'https://aqqmusic.tc.qq.com/'];
    api.answer(VKEY, answer);
    const result = await source.resolveStream(SONG);
    expect(result.ok && result.value.input).toMatchObject({
      url: expect.stringMatching(/^https:\/\/aqqmusic\.tc\.qq\.com\/M800003MediaSunny01\.mp3\?/),
    });
    answer.req_0.data.sip = ['http://ws6.stream.qqmusic.qq.com/'];
    const onlyHttp = await source.resolveStream(SONG);
    expect(onlyHttp.ok && onlyHttp.value.input).toMatchObject({
      url: expect.stringMatching(/^https:\/\/isure\.stream\.qqmusic\.qq\.com\/M800003MediaSunny01\.mp3\?/),
    });
  });

  it('sends the login to the API only: the audio host gets https and the app User-Agent', async () => {
    login = parseQqCookie(COOKIE);
    const answer = qqFixture('vkey') as VkeyFixture;
    // What the vkey answer names in practice: http hosts first (the reference client's test data).
    answer.req_0.data.sip = ['http://ws6.stream.qqmusic.qq.com/'];
    api.answer(VKEY, answer);
    const result = await source.resolveStream(SONG);
    login = undefined;
    expect(api.requests[1]!.comm).toMatchObject({ authst: 'Q_H_L_test_key' });
    // The relay's request itself: the path carries its vkey, so qqmusic_key stays with the API hosts.
    expect(await audioHosts.play(result)).toEqual({
      url: `https://isure.stream.qqmusic.qq.com/${FILE_320}?guid=1&vkey=TESTVKEY&uin=0&fromtag=120032`,
      headers: { 'accept-encoding': 'identity', 'user-agent': PHONE_USER_AGENT },
    });
  });

  it('falls back to the 128k m4a when the 320k file has no path, and sends the login to the API', async () => {
    login = parseQqCookie(COOKIE);
    api.answer(VKEY, vkeyWith([FILE_M4A]));
    const result = await source.resolveStream(SONG);
    login = undefined;
    expect(api.requests[1]!.req_0.param).toMatchObject({ uin: '123456789' });
    expect(api.requests[1]!.comm).toMatchObject({ qq: '123456789', authst: 'Q_H_L_test_key' });
    expect(result.ok && result.value.input).toEqual({
      kind: 'url',
      url: `https://isure.stream.qqmusic.qq.com/${FILE_M4A}?guid=1&vkey=TESTVKEY&uin=0&fromtag=120032`,
      headers: { userAgent: PHONE_USER_AGENT },
    });
  });

  it("reads the track's loudness from `vf` where `volume` is missing, and none where it is not analysed", async () => {
    const trackInfo = (fields: Record<string, unknown>) => {
      const answer = qqFixture('track-info') as { req_0: { data: { tracks: Record<string, unknown>[] } } };
      Object.assign(answer.req_0.data.tracks[0]!, fields);
      return answer;
    };
    api.answer(TRACK_INFO, trackInfo({ volume: undefined, vf: [0.541, 0.984, 9.111] }));
    const quiet = await source.resolveStream(SONG);
    expect(quiet.ok && quiet.value.loudness).toEqual({
      integratedLufs: -18.54,
      peakDb: -0.14,
      source: 'platform',
    });
    for (const unanalysed of [
      { volume: { gain: 0, peak: 0, lra: 0 }, vf: null },
      { volume: undefined, vf: undefined },
    ]) {
      api.answer(TRACK_INFO, trackInfo(unanalysed));
      const result = await source.resolveStream(SONG);
      expect(result.ok).toBe(true);
      expect(result.ok && 'loudness' in result.value).toBe(false);
    }
  });

  it('says why a VIP song has no path: no login, or a login that is not VIP', async () => {
    const vipInfo = qqFixture('track-info') as {
      req_0: { data: { tracks: { pay: { pay_play: number } }[] } };
    };
    vipInfo.req_0.data.tracks[0]!.pay.pay_play = 1;
    api.answer(TRACK_INFO, vipInfo);
    api.answer(VKEY, vkeyWith([]));
    expect(await source.resolveStream({ ...SONG, vip: true })).toEqual({
      ok: false,
      error: 'Sunny Day is a VIP song on QQ Music; log in with a QQ Music VIP account to play it',
    });
    login = parseQqCookie(COOKIE);
    expect(await source.resolveStream({ ...SONG, vip: true })).toEqual({
      ok: false,
      error:
        'Sunny Day needs a QQ Music VIP account, and the stored login is not one (or its VIP has lapsed); log in with a VIP account',
    });
    login = undefined;
  });

  it('says why a free song has no path: no login, copyright, or the device', async () => {
    api.answer(VKEY, vkeyWith([]));
    expect(await source.resolveStream(SONG)).toEqual({
      ok: false,
      error:
        'QQ Music gave no audio for Sunny Day without a login; log in to QQ Music (a VIP account plays the most)',
    });
    login = parseQqCookie(COOKIE);
    expect(await source.resolveStream(SONG)).toEqual({
      ok: false,
      error:
        'QQ Music does not let this account play Sunny Day (copyright or region restriction); try another platform',
    });
    api.answer(VKEY, vkeyWith([], 104013));
    expect(await source.resolveStream(SONG)).toEqual({
      ok: false,
      error: 'QQ Music does not let Sunny Day play on this kind of device; try another platform',
    });
    login = undefined;
  });

  it('names unknown songs, says so when its risk control turns the server away, and passes failures on', async () => {
    expect(await source.resolveStream({ ...SONG, id: '000Unknown0000' })).toEqual({
      ok: false,
      error: 'QQ Music does not know the song 000Unknown0000',
    });
    api.answer(VKEY, failedWith(2001));
    expect(await source.resolveStream(SONG)).toEqual({ ok: false, error: RISK_CONTROL });
    api.answer(VKEY, failedWith(104005));
    expect(await source.resolveStream(SONG)).toEqual({
      ok: false,
      error: 'QQ Music refused UrlGetVkey (code 104005)',
    });
  });

  it('is turned away by the stand-in when asked the old way (prefix + mid + media_mid)', async () => {
    const response = await fetch('https://u.y.qq.com/cgi-bin/musicu.fcg', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        comm: { ct: 24, cv: 0, uin: '0', format: 'json' },
        req_0: { module: 'vkey.GetVkeyServer', method: 'CgiGetVkey', param: { filename: [] } },
      }),
    });
    expect(await response.json()).toEqual({ code: 0, req_0: { code: 2000, data: {} } });
  });

  it("asks for the file of the request's quality instead of its own default", async () => {
    await source.resolveStream({ ...SONG, quality: 'lossless' });
    await source.resolveStream({ ...SONG, quality: 'standard' });
    await source.resolveStream({ ...SONG, quality: 'higher' });
    expect(vkeyRequests().map((param) => param.filename)).toEqual([
      ['F000003MediaSunny01.flac', FILE_M4A],
      ['M500003MediaSunny01.mp3', FILE_M4A],
      ['C600003MediaSunny01.m4a', FILE_M4A],
    ]);
  });

  it('serves a quality QQ Music lacks with the nearest lower one', async () => {
    await source.resolveStream({ ...SONG, quality: 'hires' });
    expect(vkeyRequests()[0]!.filename).toEqual(['F000003MediaSunny01.flac', FILE_M4A]);
    expect(qqQualityFor('master')).toBe('lossless');
    expect(qqQualityFor('direct')).toBe('lossless');
    expect(qqQualityFor('exhigh')).toBe('exhigh');
  });
});

function vkeyRequests() {
  return api.requests.filter((r) => r.req_0.method === 'UrlGetVkey').map((r) => r.req_0.param);
}
