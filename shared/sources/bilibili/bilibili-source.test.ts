/** The `video_a` source resolving a song id to its best audio stream, against an msw stand-in for Bilibili. */
import { describe, expect, it } from 'vitest';
import { useAudioHosts } from '../../../tests/helpers/audio-request';
import { bilibiliFixture, failedWith, useBilibiliApi } from '../../../tests/helpers/bilibili-api';
import { BilibiliClient } from './bilibili-client';
import { type BilibiliLogin, parseBilibiliCookie } from './bilibili-login';
import { BilibiliSource } from './bilibili-source';

const api = useBilibiliApi();
const audioHosts = useAudioHosts(/^https?:\/\/[\w-]+\.bilivideo\.com\/.*/);
let login: BilibiliLogin | undefined;
const source = new BilibiliSource(new BilibiliClient(async () => login));
const PLAYURL = '/x/player/wbi/playurl';
const AUDIO = 'https://upos-sz-fixture.bilivideo.com/upgcxcode/01/00/500001/500001-1-';
const song = (id: string) => ({ id, platform: 'video_a' as const });

describe('Bilibili source', () => {
  it('resolves a video to its highest-bandwidth DASH audio, with the Referer the CDN wants', async () => {
    const result = await source.resolveStream(song('BV1Ux4y1c7Mq'));
    expect(api.requests.map((r) => r.path).filter((p) => p !== '/x/frontend/finger/spi')).toEqual([
      '/x/web-interface/view',
      '/x/web-interface/nav',
      PLAYURL,
    ]);
    expect(Object.fromEntries(api.to(PLAYURL)[0]!.query)).toEqual({
      bvid: 'BV1Ux4y1c7Mq',
      cid: '500001',
      fnval: '16',
      wts: expect.stringMatching(/^\d+$/),
      w_rid: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(result).toEqual({
      ok: true,
      value: {
        input: {
          kind: 'url',
          url: `${AUDIO}30280.m4s?e=fixture&deadline=1700007200&upsig=fixturesig30280`,
          headers: {
            referer: 'https://www.bilibili.com/',
            userAgent: expect.stringMatching(/^Mozilla\/5\.0/),
          },
        },
        // The answer's `volume`: loudnorm's integrated loudness and true peak.
        loudness: { integratedLufs: -9.6, peakDb: 1.9, source: 'platform' },
      },
    });
  });

  it("gives no loudness where Bilibili has not measured the video's audio", async () => {
    const answer = (volume: unknown) => {
      const playurl = bilibiliFixture('playurl') as { data: Record<string, unknown> };
      playurl.data.volume = volume;
      return playurl;
    };
    const unmeasured = [
      answer(undefined),
      answer(null),
      answer({ measured_i: 0, measured_lra: 0, measured_tp: 0, measured_threshold: 0 }),
      bilibiliFixture('playurl-mp4'),
    ];
    for (const playurl of unmeasured) {
      api.answer(PLAYURL, playurl);
      const result = await source.resolveStream(song('BV1Ux4y1c7Mq'));
      expect(result.ok).toBe(true);
      expect(result.ok && 'loudness' in result.value).toBe(false);
    }
    // A loudness without a peak is kept.
    api.answer(PLAYURL, answer({ measured_i: -17.25, target_i: -14 }));
    const quiet = await source.resolveStream(song('BV1Ux4y1c7Mq'));
    expect(quiet.ok && quiet.value.loudness).toEqual({ integratedLufs: -17.25, source: 'platform' });
  });

  it("asks for the part's own cid for `<bvid>?p=<n>`", async () => {
    const result = await source.resolveStream(song('BV1Qm4y1Z7Kp?p=3'));
    expect(api.to(PLAYURL)[0]!.query.get('cid')).toBe('500013');
    expect(result.ok).toBe(true);
  });

  it('takes Hi-Res FLAC or Dolby over AAC only when lossless is asked for', async () => {
    const lossless = await source.resolveStream({ ...song('BV1Ux4y1c7Mq'), quality: 'lossless' });
    expect(api.to(PLAYURL)[0]!.query.get('fnval')).toBe('4048');
    expect(lossless.ok && lossless.value.input).toMatchObject({ url: expect.stringContaining('-30251.m4s') });
    const noFlac = bilibiliFixture('playurl') as { data: { dash: { flac: unknown } } };
    noFlac.data.dash.flac = null;
    api.answer(PLAYURL, noFlac);
    const dolby = await source.resolveStream({ ...song('BV1Ux4y1c7Mq'), quality: 'hires' });
    expect(dolby.ok && dolby.value.input).toMatchObject({ url: expect.stringContaining('-30250.m4s') });
    const standard = await source.resolveStream({ ...song('BV1Ux4y1c7Mq'), quality: 'exhigh' });
    expect(standard.ok && standard.value.input).toMatchObject({ url: expect.stringContaining('-30280.m4s') });
  });

  it('falls back to the MP4 of a video without DASH', async () => {
    api.answer(PLAYURL, bilibiliFixture('playurl-mp4'));
    const result = await source.resolveStream(song('BV1Ux4y1c7Mq'));
    expect(result.ok && result.value.input).toEqual({
      kind: 'url',
      url: 'https://upos-sz-fixture.bilivideo.com/upgcxcode/01/00/500001/500001_nb2-1-64.mp4?e=fixture&deadline=1700007200&upsig=fixturesigmp4',
      headers: { referer: 'https://www.bilibili.com/', userAgent: expect.any(String) },
    });
  });

  it('names unknown videos, missing parts, videos without audio and refused streams', async () => {
    expect(await source.resolveStream(song('BV1Zz4y1Y7Xw'))).toEqual({
      ok: false,
      error: 'Bilibili does not know the video BV1Zz4y1Y7Xw',
    });
    expect(await source.resolveStream(song('BV1Qm4y1Z7Kp?p=7'))).toEqual({
      ok: false,
      error: 'Three Lantern Songs <live> has no part 7 on Bilibili',
    });
    expect(await source.resolveStream(song('nonsense'))).toEqual({
      ok: false,
      error: 'nonsense is not a Bilibili video id',
    });
    api.answer(PLAYURL, { code: 0, message: '0', ttl: 1, data: { quality: 16, dash: null } });
    expect(await source.resolveStream(song('BV1Ux4y1c7Mq'))).toEqual({
      ok: false,
      error: 'Bilibili gave no audio for Lantern Song & Rain (cover)',
    });
    api.answer(PLAYURL, failedWith(-688, '地理区域限制'));
    expect(await source.resolveStream(song('BV1Ux4y1c7Mq'))).toEqual({
      ok: false,
      error: 'Bilibili does not offer this in our region (code -688)',
    });
  });

  it('sends the login to the API only: the audio host gets the Referer and a User-Agent', async () => {
    login = parseBilibiliCookie('SESSDATA=fixture%2Csession; bili_jct=fixturecsrf');
    const result = await source.resolveStream(song('BV1Ux4y1c7Mq'));
    login = undefined;
    // The relay's request itself: the upos URL is signed (`upsig`), so SESSDATA stays with the API. The
    // Referer stays: the bilivideo CDN refuses audio requests that do not come from the site.
    expect(await audioHosts.play(result)).toEqual({
      url: `${AUDIO}30280.m4s?e=fixture&deadline=1700007200&upsig=fixturesig30280`,
      headers: {
        'accept-encoding': 'identity',
        referer: 'https://www.bilibili.com/',
        'user-agent': expect.stringMatching(/^Mozilla\/5\.0/),
      },
    });
  });
});
