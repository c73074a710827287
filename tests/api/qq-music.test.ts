/**
 * `music_b` (QQ Music) through the real app, with msw standing in for `musicu.fcg`: search answers
 * mapped songs, a platform failure is a 502 (never a 500), and a playlist on a disconnected bot is
 * refused before the queue changes.
 */
import { describe, expect, it } from 'vitest';
import { receipts } from '../../shared/receipts';
import { insertBot, type Session, withAdminApp } from '../../testkit/accounts';
import { failedWith, useQqMusicApi } from '../helpers/qq-music-api';

const api = useQqMusicApi();
let admin: Session;
let botId: string;
withAdminApp(async (t, session) => {
  admin = session;
  botId = await insertBot(t);
});

describe('music_b through the api', () => {
  it('searches QQ Music', async () => {
    const { data, response } = await admin.api.GET('/api/music/search', {
      params: { query: { q: 'sunny', platform: 'music_b', limit: 5 } },
    });
    expect(response.status).toBe(200);
    expect(data?.songs.map((s) => [s.id, s.name, s.vip ?? false])).toEqual([
      ['0039MnYb0qxYhV', 'Sunny Day', false],
      ['001VipTrack001', 'Paid Tune', true],
    ]);
    expect(api.requests[0]!.req_0.param).toMatchObject({ query: 'sunny', num_per_page: 5 });
  });

  it('answers 502 saying in plain words that its risk control turned the server away', async () => {
    api.answer('music.search.SearchCgiService.DoSearchForQQMusicMobile', failedWith(2001));
    const { error, response } = await admin.api.GET('/api/music/search', {
      params: { query: { q: 'sunny', platform: 'music_b' } },
    });
    expect(response.status).toBe(502);
    expect(error).toMatchObject({
      error:
        "music_b: QQ Music is turning this server's requests away (its risk control); wait a while and try again, and log in to QQ Music if it keeps happening",
    });
  });

  it('refuses a playlist on a disconnected bot with 409 and leaves the queue alone', async () => {
    const bot = { params: { path: { botId } } };
    const played = await admin.api.POST('/api/player/{botId}/play-playlist', {
      ...bot,
      body: { playlistId: '7256912512', platform: 'music_b' },
    });
    expect(played.response.status).toBe(409);
    expect((played.error as { message?: string }).message).toBe(receipts.notConnected());
    // SPEC Player rule 9: refused before QQ Music is asked anything.
    expect(api.requests).toEqual([]);
    const queue = await admin.api.GET('/api/player/{botId}/queue', bot);
    expect(queue.data?.queue).toEqual([]);
  });

  it('answers 404 for an unknown playlist', async () => {
    api.answer('music.srfDissInfo.DissInfo.CgiGetDiss', {
      code: 0,
      req_0: { code: 0, data: { dirinfo: { id: 0 }, songlist: [] } },
    });
    const { response } = await admin.api.GET('/api/music/playlist/{id}', {
      params: { path: { id: '1' }, query: { platform: 'music_b' } },
    });
    expect(response.status).toBe(404);
  });
});
