/**
 * A connected bot plays a `music_b` song end to end: msw stands in for `musicu.fcg`, and its vkey
 * answer points at a loopback https server holding an ffmpeg-made tone (QQ Music's audio is asked
 * over https only). ffmpeg (not Node) fetches
 * that URL, so the request the server sees proves the URL and QQ Music's headers reach the decoder.
 */
import { HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { receipts } from '../../shared/receipts';
import type { Session } from '../../testkit/accounts';
import { chatFor } from '../helpers/chat';
import { failedWith, qqFixture, useQqMusicApi } from '../helpers/qq-music-api';
import { useVoicePlayback } from '../helpers/voice-app';

const api = useQqMusicApi();
const SONG_ID = '0039MnYb0qxYhV';
const playback = useVoicePlayback({ name: 'QQ', nickname: 'QQ Bot' }, { tls: true });
let admin: Session;
let botId: string;

beforeAll(() => {
  ({ admin, botId } = playback.app);
});

/** Answers for playing any fixture song: its details and a vkey path on the loopback CDN. */
function answerPlayback(): void {
  // A path for whichever file is asked first, on the loopback host.
  api.answer('music.vkey.GetVkey.UrlGetVkey', (asked) => {
    const [filename] = asked.req_0.param.filename as string[];
    return HttpResponse.json({
      code: 0,
      req_0: {
        code: 0,
        data: { sip: [playback.cdn.baseUrl], midurlinfo: [{ filename, purl: 'tone.mp3?vkey=E2EKEY' }] },
      },
    });
  });
  // Each fixture song's details (playlist and album), as the track-info module answers for the asked mid.
  const playlist = qqFixture('playlist') as { req_0: { data: { songlist: { mid: string }[] } } };
  const album = qqFixture('album') as { req_0: { data: { songList: { songInfo: { mid: string } }[] } } };
  const tracks = [...playlist.req_0.data.songlist, ...album.req_0.data.songList.map((s) => s.songInfo)];
  api.answer('music.trackInfo.UniformRuleCtrl.CgiGetTrackInfo', (asked) => {
    const [mid] = asked.req_0.param.mids as string[];
    return HttpResponse.json({
      code: 0,
      req_0: { code: 0, data: { tracks: tracks.filter((t) => t.mid === mid) } },
    });
  });
}

describe('a music_b song on a connected bot', () => {
  it("streams the vkey URL with the phone app's User-Agent", async () => {
    const vkey = qqFixture('vkey') as { req_0: { data: { sip?: string[]; midurlinfo: { purl: string }[] } } };
    // The plain-http host QQ Music often names first is passed over for the https one.
    vkey.req_0.data.sip = ['http://ws6.stream.qqmusic.qq.com/', playback.cdn.baseUrl];
    vkey.req_0.data.midurlinfo[0]!.purl = 'tone.mp3?vkey=E2EKEY&fromtag=66';
    api.answer('music.vkey.GetVkey.UrlGetVkey', vkey);

    const bot = { params: { path: { botId } } };
    expect(
      (await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } })).data,
    ).toMatchObject({
      connected: true,
    });
    const played = await admin.api.POST('/api/player/{botId}/play-by-id', {
      ...bot,
      body: { songId: SONG_ID, platform: 'music_b' },
    });
    expect(played.response.status).toBe(200);

    await expect.poll(() => playback.cdn.requests.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(playback.cdn.requests[0]!.url).toBe('/tone.mp3?vkey=E2EKEY&fromtag=66');
    expect(playback.cdn.requests[0]!.headers).toMatchObject({ 'user-agent': 'QQMusic 14090008(android 10)' });
    await expect
      .poll(async () => (await admin.api.GET('/api/player/{botId}/elapsed', bot)).data?.elapsed ?? 0, {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);
    const queue = await admin.api.GET('/api/player/{botId}/queue', bot);
    expect(queue.data?.status.currentSong).toMatchObject({
      id: SONG_ID,
      name: 'Sunny Day',
      platform: 'music_b',
    });
  });

  it('loads only the playable songs of a playlist and says how many of the total', async () => {
    answerPlayback();
    const label = 'playlist 7256912512';
    const played = await admin.api.POST('/api/player/{botId}/play-playlist', {
      params: { path: { botId } },
      body: { playlistId: '7256912512', platform: 'music_b' },
    });
    expect(played.data?.message).toBe(
      `${receipts.loadedOf(label, 3, 5)} ${receipts.nowPlaying({ name: 'Track A', artist: 'Band' })}`,
    );
    const queue = await admin.api.GET('/api/player/{botId}/queue', { params: { path: { botId } } });
    expect(queue.data?.queue.map((s) => s.name)).toEqual(['Track A', 'Track C', 'Track E']);
  });

  it('stops the playback for a playlist that turns out empty, and keeps the queue (SPEC Player rule 7)', async () => {
    answerPlayback();
    const path = { params: { path: { botId } } };
    const label = 'playlist 7256912512';
    expect(
      (
        await admin.api.POST('/api/player/{botId}/play-playlist', {
          ...path,
          body: { playlistId: '7256912512', platform: 'music_b' },
        })
      ).data?.ok,
    ).toBe(true);
    const before = (await admin.api.GET('/api/player/{botId}/queue', path)).data!;
    expect(before.status.playing).toBe(true);
    const empty = qqFixture('playlist') as { req_0: { data: { songlist: unknown[] } } };
    empty.req_0.data.songlist = [];
    api.answer('music.srfDissInfo.DissInfo.CgiGetDiss', empty);
    const played = await admin.api.POST('/api/player/{botId}/play-playlist', {
      ...path,
      body: { playlistId: '7256912512', platform: 'music_b' },
    });
    expect(played.data).toMatchObject({ ok: false, message: receipts.emptyList(label) });
    const after = (await admin.api.GET('/api/player/{botId}/queue', path)).data!;
    expect(after.queue.map((s) => s.name)).toEqual(before.queue.map((s) => s.name));
    expect(after.status).toMatchObject({ playing: false, currentSong: null });
  });

  it('stops the playback for a playlist the platform refuses, and keeps the queue (SPEC Player rule 7)', async () => {
    answerPlayback();
    const path = { params: { path: { botId } } };
    const body = { playlistId: '7256912512', platform: 'music_b' as const };
    expect((await admin.api.POST('/api/player/{botId}/play-playlist', { ...path, body })).data?.ok).toBe(
      true,
    );
    const before = (await admin.api.GET('/api/player/{botId}/queue', path)).data!;
    expect(before.status.playing).toBe(true);
    api.answer('music.srfDissInfo.DissInfo.CgiGetDiss', failedWith(2000));
    const played = await admin.api.POST('/api/player/{botId}/play-playlist', { ...path, body });
    expect(played.response.status).toBe(502);
    expect(played.error).toMatchObject({ error: expect.any(String) });
    const after = (await admin.api.GET('/api/player/{botId}/queue', path)).data!;
    expect(after.queue.map((s) => s.name)).toEqual(before.queue.map((s) => s.name));
    expect(after.status).toMatchObject({ playing: false, currentSong: null });
  });

  it('answers !playlist and !album with the REST receipts', async () => {
    answerPlayback();
    const chat = chatFor(playback.app.t, botId);
    const path = { params: { path: { botId } } };
    const restPlaylist = await admin.api.POST('/api/player/{botId}/play-playlist', {
      ...path,
      body: { playlistId: '7256912512', platform: 'music_b' },
    });
    expect(restPlaylist.data?.message).toMatch(/^Loaded 3 of 5 songs/);
    expect(
      await chat.handle('!playlist 7256912512 -q', { nickname: 'Fan', uid: 'fan-uid', serverGroups: [] }),
    ).toBe(restPlaylist.data?.message);
    const restAlbum = await admin.api.POST('/api/player/{botId}/play-album', {
      ...path,
      body: { albumId: '000MkMni19ClKG', platform: 'music_b' },
    });
    expect(restAlbum.data?.message).toMatch(/^Loaded \d+ songs from album/);
    expect(
      await chat.handle('!album 000MkMni19ClKG -q', { nickname: 'Fan', uid: 'fan-uid', serverGroups: [] }),
    ).toBe(restAlbum.data?.message);
  });
});
