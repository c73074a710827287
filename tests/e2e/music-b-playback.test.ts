/**
 * A connected bot plays a `music_b` song end to end: msw stands in for `musicu.fcg`, and its vkey
 * answer points at a loopback HTTP server holding an ffmpeg-made tone. ffmpeg (not Node) fetches
 * that URL, so the request the server sees proves the URL and QQ Music's headers reach the decoder.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FFMPEG } from '../../daemon/audio/test-helpers';
import { parseLicenseRoot } from '../../daemon/ts3';
import { receipts } from '../../shared/receipts';
import { type Session, setupAdmin } from '../helpers/accounts';
import { qqFixture, useQqMusicApi } from '../helpers/qq-music-api';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { Ts3TestServer } from '../ts3-server/ts3-test-server';

const api = useQqMusicApi();
const SONG_ID = '0039MnYb0qxYhV';
let server: Ts3TestServer;
let t: TestApp;
let admin: Session;
let botId: string;
let audio: Server;
let audioBase: string;
let toneDir: string;
const audioRequests: { url: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  toneDir = mkdtempSync(join(tmpdir(), 'qq-tone-'));
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
  const created = await admin.api.POST('/api/bot', {
    body: { name: 'QQ', serverAddress: '127.0.0.1', serverPort: server.port, nickname: 'QQ Bot' },
  });
  botId = created.data!.id;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await server?.close();
  await new Promise((resolve) => audio?.close(resolve));
  rmSync(toneDir, { recursive: true, force: true });
});

describe('a music_b song on a connected bot', () => {
  it('streams the vkey URL with the Referer and User-Agent QQ Music wants', async () => {
    const vkey = qqFixture('vkey') as { req_0: { data: { sip: string[]; midurlinfo: { purl: string }[] } } };
    vkey.req_0.data.sip = [audioBase];
    vkey.req_0.data.midurlinfo[0]!.purl = 'tone.mp3?vkey=E2EKEY&fromtag=66';
    api.answer('vkey.GetVkeyServer.CgiGetVkey', vkey);

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

    await expect.poll(() => audioRequests.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(audioRequests[0]!.url).toBe('/tone.mp3?vkey=E2EKEY&fromtag=66');
    expect(audioRequests[0]!.headers).toMatchObject({
      referer: 'https://y.qq.com/',
      'user-agent': expect.stringContaining('Mozilla/5.0'),
    });
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
    // A path for whichever file is asked first, on the loopback host.
    api.answer('vkey.GetVkeyServer.CgiGetVkey', (asked) => {
      const [filename] = asked.req_0.param.filename as string[];
      return HttpResponse.json({
        code: 0,
        req_0: {
          code: 0,
          data: { sip: [audioBase], midurlinfo: [{ filename, purl: 'tone.mp3?vkey=E2EKEY' }] },
        },
      });
    });
    // Each playlist song's details, as the track-info module answers for the asked mid.
    const playlist = qqFixture('playlist') as { req_0: { data: { songlist: { mid: string }[] } } };
    api.answer('music.trackInfo.UniformRuleCtrl.CgiGetTrackInfo', (asked) => {
      const [mid] = asked.req_0.param.mids as string[];
      return HttpResponse.json({
        code: 0,
        req_0: { code: 0, data: { tracks: playlist.req_0.data.songlist.filter((t) => t.mid === mid) } },
      });
    });
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
});
