/**
 * An Icecast-style station played through platform `stream` on real parts (the app's REST and `/ws`, the
 * daemon, ffmpeg, the TS3 test server), with the stand-in radio on 127.0.0.1 (so the admin allows
 * private hosts): the Song is looked up and played over REST, and a WebSocket client on the app's `/ws`
 * sees the station's StreamTitle as the now-playing title, then its change mid-play.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type WsMessage, WsMessageSchema } from '../../shared/ws-messages';
import {
  enableStreamSource,
  type RadioServer,
  STATION_NAME,
  startRadioServer,
} from '../helpers/radio-server';
import { startVoiceApp, type VoiceApp } from '../helpers/voice-app';

let app: VoiceApp;
let radio: RadioServer;
let ws: WebSocket;
const messages: WsMessage[] = [];
const bot = () => ({ params: { path: { botId: app.botId } } });

type StatusPush = Extract<WsMessage, { type: 'status' }>;
/** The bot's now-playing title in the newest status push, if any. */
const pushedTitle = () =>
  messages.findLast((m): m is StatusPush => m.type === 'status' && m.bot.id === app.botId)?.bot.currentSong
    ?.name;

beforeAll(async () => {
  radio = await startRadioServer();
  app = await startVoiceApp({ name: 'Radio', nickname: 'Radio Bot' });
  const { admin } = app;
  await enableStreamSource(admin, { allowPrivateHosts: true });
  expect(
    (await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: app.botId } } })).response.status,
  ).toBe(200);
  const base = (await app.t.listen()).replace('http', 'ws');
  ws = new WebSocket(`${base}/ws`, { headers: { cookie: admin.jar.header()! } });
  ws.on('message', (data) => messages.push(WsMessageSchema.parse(JSON.parse(String(data)))));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
}, 60_000);

afterAll(async () => {
  ws?.close();
  await app?.close();
  await radio?.close();
});

describe('an ICY station over /ws', () => {
  it('pushes the StreamTitle as the now-playing title, and its change mid-play', async () => {
    radio.setTitle('Morning Show');
    const address = `${radio.baseUrl}live`;
    const found = await app.admin.api.GET('/api/music/song/{id}', {
      params: { path: { id: address }, query: { platform: 'stream' } },
    });
    expect(found.response.status).toBe(200);
    expect(found.data).toMatchObject({ name: STATION_NAME, duration: 0, platform: 'stream' });
    const played = await app.admin.api.POST('/api/player/{botId}/play-song', {
      ...bot(),
      body: { song: found.data! },
    });
    expect(played.response.status).toBe(200);

    await expect.poll(pushedTitle, { timeout: 20_000 }).toBe('Morning Show');
    radio.setTitle('Evening News');
    await expect.poll(pushedTitle, { timeout: 20_000 }).toBe('Evening News');
    const status = (await app.admin.api.GET('/api/bot/{id}', { params: { path: { id: app.botId } } })).data!;
    expect(status.currentSong).toMatchObject({ name: 'Evening News', artist: STATION_NAME, id: address });
    expect(status.playing).toBe(true);
  }, 60_000);
});
