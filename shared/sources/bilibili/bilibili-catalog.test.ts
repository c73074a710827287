/** The `video_a` catalog against an msw stand-in for Bilibili's web API (real request shapes). */
import { describe, expect, it } from 'vitest';
import { bilibiliFixture, failedWith, useBilibiliApi } from '../../../tests/helpers/bilibili-api';
import type { Song } from '../../domain/schemas';
import { BilibiliCatalog } from './bilibili-catalog';
import { BilibiliClient } from './bilibili-client';
import { type BilibiliLogin, parseBilibiliCookie } from './bilibili-login';

const api = useBilibiliApi();
let login: BilibiliLogin | undefined;
const catalog = new BilibiliCatalog(new BilibiliClient(async () => login));
const SEARCH = '/x/web-interface/wbi/search/type';
const VIEW = '/x/web-interface/view';
const RELATED = '/x/web-interface/archive/related';
/** The single-part video of the fixtures, as search and `song` both read it. */
const LANTERN_SONG: Song = {
  id: 'BV1Ux4y1c7Mq',
  name: 'Lantern Song & Rain (cover)',
  artist: 'Harbor Strings',
  album: '',
  duration: 241,
  coverUrl: 'https://i0.hdslb.com/bfs/archive/fixturecover0001.jpg',
  platform: 'video_a',
};
const GUEST_BUVID = 'buvid3=5F3C1A2B-0D4E-4F60-8A7B-1C2D3E4F5A6B00001infoc';

describe('Bilibili catalog', () => {
  it('searches videos with a signed request and reads them as Songs without the highlight markup', async () => {
    login = undefined;
    const result = await catalog.search('lantern', 20);
    const [search] = api.to(SEARCH);
    expect(Object.fromEntries(search!.query)).toEqual({
      search_type: 'video',
      keyword: 'lantern',
      page: '1',
      page_size: '20',
      wts: expect.stringMatching(/^\d+$/),
      w_rid: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(search!.referer).toBe('https://www.bilibili.com/');
    expect(search!.cookie).toContain(GUEST_BUVID);
    expect(result).toEqual({
      ok: true,
      value: [
        LANTERN_SONG,
        {
          id: 'BV1Qm4y1Z7Kp',
          name: 'Three Lantern Songs <live>',
          artist: 'Night Radio',
          album: '',
          duration: 3723,
          coverUrl: 'https://i1.hdslb.com/bfs/archive/fixturecover0002.jpg',
          platform: 'video_a',
        },
        {
          id: 'BV1Rk4y1X7Ab',
          name: 'Piano lantern',
          artist: 'Quiet Keys',
          album: '',
          duration: 59,
          coverUrl: 'https://i2.hdslb.com/bfs/archive/fixturecover0003.jpg',
          platform: 'video_a',
        },
      ],
    });
  });

  it('pages by page number, and answers an empty search with no songs', async () => {
    await catalog.search('lantern', 10, 20);
    expect(api.to(SEARCH)[0]!.query.get('page')).toBe('3');
    expect(api.to(SEARCH)[0]!.query.get('page_size')).toBe('10');
    api.answer(SEARCH, { code: 0, message: '0', ttl: 1, data: { page: 1, numResults: 0 } });
    expect(await catalog.search('nothing at all', 10)).toEqual({ ok: true, value: [] });
  });

  it('sends the stored login cookie, adding a guest buvid3 only when the login has none', async () => {
    login = parseBilibiliCookie('SESSDATA=fixture%2Csession; bili_jct=fixturecsrf');
    await catalog.search('lantern', 5);
    expect(api.to(SEARCH)[0]!.cookie).toBe(
      `SESSDATA=fixture%2Csession; bili_jct=fixturecsrf; ${GUEST_BUVID}; buvid4=7A8B9C0D-1E2F-3A4B-5C6D-7E8F9A0B1C2D00001-024010100-fixtureBuvid4==`,
    );
    login = parseBilibiliCookie('SESSDATA=fixture; buvid3=OWN-BUVID');
    await catalog.search('lantern', 5);
    expect(api.to(SEARCH)[1]!.cookie).toBe('SESSDATA=fixture; buvid3=OWN-BUVID');
    login = undefined;
  });

  it('reads a video id as the whole video', async () => {
    expect(await catalog.song('BV1Ux4y1c7Mq')).toEqual({
      ok: true,
      value: LANTERN_SONG,
    });
    expect(Object.fromEntries(api.to(VIEW)[0]!.query)).toEqual({ bvid: 'BV1Ux4y1c7Mq' });
  });

  it('reads `<bvid>?p=<n>` as that part, named after it, with the video as its album', async () => {
    expect(await catalog.song('BV1Qm4y1Z7Kp?p=2')).toEqual({
      ok: true,
      value: {
        id: 'BV1Qm4y1Z7Kp?p=2',
        name: 'Harbor Lights',
        artist: 'Night Radio',
        album: 'Three Lantern Songs <live>',
        duration: 1322,
        coverUrl: 'https://i1.hdslb.com/bfs/archive/fixturecover0002.jpg',
        platform: 'video_a',
      },
    });
    // The bare id of a multi-part video plays its first part, so it lasts as long as that part.
    const whole = await catalog.song('BV1Qm4y1Z7Kp');
    expect(whole.ok && whole.value).toMatchObject({ name: 'Three Lantern Songs <live>', duration: 1201 });
  });

  it('answers undefined for unknown videos, missing parts and ids that are not video ids', async () => {
    expect(await catalog.song('BV1Zz4y1Y7Xw')).toEqual({ ok: true, value: undefined });
    expect(await catalog.song('BV1Qm4y1Z7Kp?p=9')).toEqual({ ok: true, value: undefined });
    api.answer(VIEW, { code: 62002, message: '稿件不可见', ttl: 1 });
    expect(await catalog.song('BV1Ux4y1c7Mq')).toEqual({ ok: true, value: undefined });
    const asked = api.requests.length;
    expect(await catalog.song('not-a-video')).toEqual({ ok: true, value: undefined });
    expect(api.requests).toHaveLength(asked);
  });

  it('lists the parts of a video named by link, BV id or av number', async () => {
    const expected = {
      bvid: 'BV1Qm4y1Z7Kp',
      title: 'Three Lantern Songs <live>',
      coverUrl: 'https://i1.hdslb.com/bfs/archive/fixturecover0002.jpg',
      artist: 'Night Radio',
      parts: [
        { id: 'BV1Qm4y1Z7Kp?p=1', page: 1, title: 'Opening Lantern', duration: 1201 },
        { id: 'BV1Qm4y1Z7Kp?p=2', page: 2, title: 'Harbor Lights', duration: 1322 },
        { id: 'BV1Qm4y1Z7Kp?p=3', page: 3, title: 'Closing Lantern', duration: 1200 },
      ],
    };
    const link = await catalog.parts('https://www.bilibili.com/video/BV1Qm4y1Z7Kp/?p=2&share_source=copy');
    expect(link).toEqual({ ok: true, value: expected });
    expect(await catalog.parts('BV1Qm4y1Z7Kp')).toEqual({ ok: true, value: expected });
    expect(await catalog.parts('https://www.bilibili.com/video/av170002')).toEqual({
      ok: true,
      value: expected,
    });
    expect(await catalog.parts('av170002')).toEqual({ ok: true, value: expected });
    expect(api.to(VIEW).map((r) => Object.fromEntries(r.query))).toEqual([
      { bvid: 'BV1Qm4y1Z7Kp' },
      { bvid: 'BV1Qm4y1Z7Kp' },
      { aid: '170002' },
      { aid: '170002' },
    ]);
  });

  it('answers undefined for an unknown video and for a short link it cannot read', async () => {
    expect(await catalog.parts('av999999')).toEqual({ ok: true, value: undefined });
    expect(await catalog.parts('https://b23.tv/xYz12Ab')).toEqual({ ok: true, value: undefined });
    expect(api.to(VIEW)).toHaveLength(1);
  });

  it('lists popular videos as Songs with https covers', async () => {
    const result = await catalog.popular(2);
    expect(Object.fromEntries(api.to('/x/web-interface/popular')[0]!.query)).toEqual({ ps: '2', pn: '1' });
    expect(result).toEqual({
      ok: true,
      value: [
        {
          id: 'BV1Hp4y1T7Wd',
          name: 'Morning Tide',
          artist: 'Tide Choir',
          album: '',
          duration: 198,
          coverUrl: 'https://i2.hdslb.com/bfs/archive/fixturepopular0001.jpg',
          platform: 'video_a',
        },
        {
          id: 'BV1Jq4y1V7Zc',
          name: 'Evening Bells',
          artist: 'Bell Tower',
          album: '',
          duration: 245,
          coverUrl: 'https://i0.hdslb.com/bfs/archive/fixturepopular0002.jpg',
          platform: 'video_a',
        },
      ],
    });
  });

  it('gives the videos Bilibili recommends beside a song, multi-part ones left out, at most `limit`', async () => {
    login = undefined;
    const result = await catalog.relatedSongs(LANTERN_SONG, 10);
    const [asked] = api.to(RELATED);
    expect(Object.fromEntries(asked!.query)).toEqual({ bvid: 'BV1Ux4y1c7Mq' });
    expect(asked!.cookie).toContain(GUEST_BUVID);
    expect(result).toEqual({
      ok: true,
      value: [
        {
          id: 'BV1Ab4y1C7De',
          name: 'Rain on the Harbor (piano)',
          artist: 'Quiet Keys',
          album: '',
          duration: 233,
          coverUrl: 'https://i2.hdslb.com/bfs/archive/fixturerelated0001.jpg',
          platform: 'video_a',
        },
        expect.objectContaining({ id: 'BV1Fg4y1H7Jk', artist: 'Harbor Strings', duration: 240 }),
        expect.objectContaining({ id: 'BV1Mn4y1P7Qr', name: 'Night Ferry (acoustic)' }),
        expect.objectContaining({ id: 'BV1St4y1U7Vw', artist: 'Tide Choir' }),
      ],
    });
    const capped = await catalog.relatedSongs(LANTERN_SONG, 2);
    expect(capped.ok && capped.value.map((song) => song.id)).toEqual(['BV1Ab4y1C7De', 'BV1Fg4y1H7Jk']);
  });

  it('leaves the seed video out, whichever part of it played', async () => {
    const related = bilibiliFixture('related') as { data: object[] };
    const seedEntry = { ...related.data[0], bvid: 'BV1Ux4y1c7Mq', title: 'Lantern Song & Rain (cover)' };
    api.answer(RELATED, { ...related, data: [seedEntry, ...related.data] });
    const result = await catalog.relatedSongs({ ...LANTERN_SONG, id: 'BV1Ux4y1c7Mq?p=1' }, 1);
    expect(Object.fromEntries(api.to(RELATED)[0]!.query)).toEqual({ bvid: 'BV1Ux4y1c7Mq' });
    expect(result.ok && result.value.map((song) => song.id)).toEqual(['BV1Ab4y1C7De']);
  });

  it("passes Bilibili's refusal on as an error; an id that is not a video asks nothing", async () => {
    expect(await catalog.relatedSongs({ ...LANTERN_SONG, id: 'BV1Zz4y1Y7Xw' }, 5)).toEqual({
      ok: false,
      error: 'Bilibili has no such video (code -404)',
    });
    api.answer(RELATED, failedWith(-352));
    expect(await catalog.relatedSongs(LANTERN_SONG, 5)).toEqual({
      ok: false,
      error: expect.stringContaining('suspected automation'),
    });
    const asked = api.requests.length;
    expect(await catalog.relatedSongs({ ...LANTERN_SONG, id: 'not-a-video' }, 5)).toEqual({
      ok: true,
      value: [],
    });
    expect(api.requests).toHaveLength(asked);
  });

  it('reports the stored login as nav names it, and no login without a cookie', async () => {
    login = undefined;
    expect(await catalog.accountStatus()).toEqual({ ok: true, value: { loggedIn: false } });
    login = parseBilibiliCookie('SESSDATA=fixture; buvid3=OWN-BUVID');
    api.answer('/x/web-interface/nav', bilibiliFixture('nav-login'));
    expect(await catalog.accountStatus()).toEqual({
      ok: true,
      value: {
        loggedIn: true,
        nickname: 'Listener Nine',
        avatarUrl: 'https://i1.hdslb.com/bfs/face/fixtureface0001.jpg',
      },
    });
    expect(api.to('/x/web-interface/nav')[0]!.cookie).toBe('SESSDATA=fixture; buvid3=OWN-BUVID');
    api.answer('/x/web-interface/nav', bilibiliFixture('nav'));
    expect(await catalog.accountStatus()).toEqual({ ok: true, value: { loggedIn: false } });
    login = undefined;
  });
});
