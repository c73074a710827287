/**
 * Personal FM on a connected bot, end to end: msw stands in for NetEase's weapi, whose song-url answer
 * points at a loopback HTTP server holding an ffmpeg-made tone. The radio handler sees which login
 * cookie arrived (SPEC Player rule 8: the caller's personal link, else the shared login; chat's
 * service principal has no link), and ffmpeg's request to the tone server proves the URL and NetEase's
 * headers reach the decoder.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FFMPEG } from '../../daemon/audio/test-helpers';
import { parseLicenseRoot } from '../../daemon/ts3';
import { personalLinks, platformAccounts } from '../../shared/db/schema';
import { receipts } from '../../shared/receipts';
import { type Session, setupAdmin } from '../helpers/accounts';
import { chatFor } from '../helpers/chat';
import { useNeteaseApi } from '../helpers/netease-api';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { Ts3TestServer } from '../ts3-server/ts3-test-server';

const api = useNeteaseApi();
const SHARED_COOKIE = 'MUSIC_U=shared_bot_login; __csrf=sharedcsrf';
const PERSONAL_COOKIE = 'MUSIC_U=admins_own_account; __csrf=personalcsrf';
const FM_IDS = [1901371651, 1901371652];
const RADIO = '/weapi/v1/radio/get';
let server: Ts3TestServer;
let t: TestApp;
let admin: Session;
let botId: string;
let audio: Server;
let audioBase: string;
let toneDir: string;
const audioRequests: { url: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  toneDir = mkdtempSync(join(tmpdir(), 'netease-tone-'));
  const tone = join(toneDir, 'tone.mp3');
  const render = spawnSync(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', 'sine=frequency=440:sample_rate=48000:duration=20', '-ac', '2', tone],
  ]);
  if (render.status !== 0) throw new Error(render.stderr.toString());
  const bytes = readFileSync(tone);
  audio = createServer((request, response) => {
    audioRequests.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': bytes.length });
    response.end(bytes);
  });
  await new Promise<void>((resolve) => audio.listen(0, '127.0.0.1', resolve));
  audioBase = `http://127.0.0.1:${(audio.address() as AddressInfo).port}/`;

  server = await Ts3TestServer.start();
  const root = parseLicenseRoot(server.rootPublicKey);
  if (!root.ok) throw new Error(root.error);
  t = await startTestApp({ ts3: { licenseRoot: root.value } });
  admin = await setupAdmin(t);
  await t.db
    .insert(platformAccounts)
    .values({ platform: 'music_a', credential: SHARED_COOKIE, updatedAt: new Date() });
  const created = await admin.api.POST('/api/bot', {
    body: { name: 'NetEase', serverAddress: '127.0.0.1', serverPort: server.port, nickname: 'FM Bot' },
  });
  botId = created.data!.id;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await server?.close();
  await new Promise((resolve) => audio?.close(resolve));
  rmSync(toneDir, { recursive: true, force: true });
});

/** The payload is encrypted, so the song-url answer carries a loopback URL for every FM song. */
function answerSongUrls() {
  api.answer('/weapi/song/enhance/player/url/v1', {
    code: 200,
    data: FM_IDS.map((id) => ({
      id,
      url: `${audioBase}tone.mp3?id=${id}`,
      code: 200,
      fee: 8,
      freeTrialInfo: null,
    })),
  });
}

const bot = () => ({ params: { path: { botId } } });
const radioCookies = () => api.requests.filter((r) => r.path === RADIO).map((r) => r.cookie);
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
    expect(fm.data).toEqual({ ok: true, message: loadedFm });
    expect(radioCookies()).toEqual([SHARED_COOKIE]);

    await expect.poll(() => audioRequests.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(audioRequests[0]!.url).toBe(`/tone.mp3?id=${FM_IDS[0]}`);
    expect(audioRequests[0]!.headers).toMatchObject({
      referer: 'https://music.163.com/',
      'user-agent': expect.stringContaining('Mozilla/5.0'),
      cookie: SHARED_COOKIE,
    });
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
    expect(fm.data).toEqual({ ok: true, message: loadedFm });
    expect(radioCookies()).toEqual([PERSONAL_COOKIE]);
  });

  it('uses the shared login for chat !fm: the chat service has no personal link', async () => {
    answerSongUrls();
    const reply = await chatFor(t, botId).handle('!fm', { nickname: 'Listener', serverGroups: [8] });
    expect(reply).toBe(loadedFm);
    expect(radioCookies()).toEqual([SHARED_COOKIE]);
  });

  it('answers 502 and keeps the queue when NetEase refuses; 501 for a platform without FM', async () => {
    api.answer(RADIO, { code: 301, msg: '需要登录' });
    const refused = await admin.api.POST('/api/player/{botId}/fm', {
      ...bot(),
      body: { platform: 'music_a' },
    });
    expect(refused.response.status).toBe(502);
    expect(refused.error).toEqual({
      error: 'music_a: the NetEase Cloud Music login has expired; log in again',
    });
    const none = await admin.api.POST('/api/player/{botId}/fm', { ...bot(), body: { platform: 'music_b' } });
    expect(none.response.status).toBe(501);
    const queue = await admin.api.GET('/api/player/{botId}/queue', bot());
    expect(queue.data?.queue.map((s) => s.name)).toEqual(['Morning Walk', 'Night Drive']);
  });
});
