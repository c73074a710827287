/**
 * Personal FM on a connected bot, end to end: msw stands in for NetEase's weapi, whose song-url answer
 * points at a loopback HTTP server holding an ffmpeg-made tone. The radio handler sees which login
 * cookie arrived (SPEC Player rule 8: the caller's personal link, else the shared login; chat's
 * service principal has no link), and ffmpeg's request to the tone server proves the URL and NetEase's
 * headers (without the login cookie) reach the decoder.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { personalLinks, platformAccounts } from '../../shared/db/schema';
import { receipts } from '../../shared/receipts';
import type { Session } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';
import { chatFor } from '../helpers/chat';
import { FM_IDS, fmSongUrls } from '../helpers/fm-song-urls';
import { musicUOf, useNeteaseApi } from '../helpers/netease-api';
import { useVoicePlayback } from '../helpers/voice-app';

const api = useNeteaseApi();
const SHARED_COOKIE = 'MUSIC_U=shared_bot_login; __csrf=sharedcsrf';
const PERSONAL_COOKIE = 'MUSIC_U=admins_own_account; __csrf=personalcsrf';
const RADIO = '/weapi/v1/radio/get';
const playback = useVoicePlayback({ name: 'NetEase', nickname: 'FM Bot' });
let t: TestApp;
let admin: Session;
let botId: string;

beforeAll(async () => {
  ({ t, admin, botId } = playback.app);
  await t.db
    .insert(platformAccounts)
    .values({ platform: 'music_a', credential: SHARED_COOKIE, updatedAt: new Date() });
});

function answerSongUrls() {
  api.answer('/xeapi/song/enhance/player/url/v1', fmSongUrls(playback.cdn.baseUrl));
}

const bot = () => ({ params: { path: { botId } } });
/** The login (MUSIC_U) each radio request carried, in order. */
const radioLogins = () => api.requests.filter((r) => r.path === RADIO).map((r) => r.musicU);
const loadedFm = `${receipts.loaded(receipts.personalFmLabel(), 2)} ${receipts.nowPlaying({
  name: 'Morning Walk',
  artist: 'Field Notes',
})}`;

describe('personal FM on a connected bot', () => {
  it("loads the shared login's FM songs and streams the first with NetEase's headers", async () => {
    answerSongUrls();
    const started = await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } });
    expect(started.data).toMatchObject({ connected: true });

    const fm = await admin.api.POST('/api/player/{botId}/fm', { ...bot(), body: { platform: 'music_a' } });
    expect(fm.response.status).toBe(200);
    expect(fm.data).toMatchObject({ ok: true, message: loadedFm });
    expect(radioLogins()).toEqual([musicUOf(SHARED_COOKIE)]);

    await expect.poll(() => playback.cdn.requests.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(playback.cdn.requests[0]!.url).toBe(`/tone.mp3?id=${FM_IDS[0]}`);
    expect(playback.cdn.requests[0]!.headers).toMatchObject({
      referer: 'https://music.163.com/',
      'user-agent': expect.stringContaining('Mozilla/5.0'),
    });
    // The login goes to NetEase's API hosts only, never to the audio host.
    expect(playback.cdn.requests[0]!.headers.cookie).toBeUndefined();
    const queue = await admin.api.GET('/api/player/{botId}/queue', bot());
    expect(queue.data?.queue.map((s) => [s.name, s.requestedBy])).toEqual([
      ['Morning Walk', 'admin'],
      ['Night Drive', 'admin'],
    ]);
    expect(queue.data?.status.currentSong).toMatchObject({ id: String(FM_IDS[0]), platform: 'music_a' });
  });

  it("uses the caller's personal link when there is one", async () => {
    answerSongUrls();
    await t.db
      .insert(personalLinks)
      .values({ userId: admin.id, platform: 'music_a', credential: PERSONAL_COOKIE, linkedAt: new Date() });
    const fm = await admin.api.POST('/api/player/{botId}/fm', { ...bot(), body: {} });
    expect(fm.data).toMatchObject({ ok: true, message: loadedFm });
    expect(radioLogins()).toEqual([musicUOf(PERSONAL_COOKIE)]);
  });

  it('uses the shared login for chat !fm: the chat service has no personal link', async () => {
    answerSongUrls();
    const reply = await chatFor(t, botId).handle('!fm', {
      nickname: 'Listener',
      uid: 'listener-uid',
      serverGroups: [8],
    });
    expect(reply).toBe(loadedFm);
    expect(radioLogins()).toEqual([musicUOf(SHARED_COOKIE)]);
  });

  it("answers chat !lyrics with the current song's lines and their translations", async () => {
    const reply = await chatFor(t, botId).handle('!lyrics', {
      nickname: 'Listener',
      uid: 'listener-uid',
      serverGroups: [8],
    });
    // Early in the song a credits line is current; the lines after it carry their translations.
    expect(reply?.split('\n')).toHaveLength(3);
    expect(reply).toMatch(/^作(词|曲) : /);
    expect(reply).toContain('纸船顺着河流 / Paper boats float down the river');
  });

  it('answers 502 and keeps the queue when NetEase refuses; 501 for a platform without FM', async () => {
    api.answer(RADIO, { code: 301, msg: '需要登录' });
    const refused = await admin.api.POST('/api/player/{botId}/fm', {
      ...bot(),
      body: { platform: 'music_a' },
    });
    expect(refused.response.status).toBe(502);
    expect(refused.error).toMatchObject({
      error:
        'The login to NetEase Cloud Music has expired; an admin can log in again under Settings, Music platforms.',
      code: 'platformLoginExpired',
    });
    const none = await admin.api.POST('/api/player/{botId}/fm', { ...bot(), body: { platform: 'local' } });
    expect(none.response.status).toBe(501);
    const queue = await admin.api.GET('/api/player/{botId}/queue', bot());
    expect(queue.data?.queue.map((s) => s.name)).toEqual(['Morning Walk', 'Night Drive']);
  });
});
