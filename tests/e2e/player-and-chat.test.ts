/**
 * The whole chain on real parts: REST and chat commands → bus → daemon → TS3 voice client → the TS3
 * test server, with tone files played by ffmpeg. Checks the rules that need a connected bot: refusals
 * while disconnected, receipts shared by REST and chat, requestedBy, serialized queue edits, sockets
 * that keep receiving across a restart, and saved queues loaded by chat.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { TextMessage, Ts3Client } from '../../daemon/ts3';
import { savedQueues } from '../../shared/db/schema';
import type { Song } from '../../shared/domain/schemas';
import { receipts } from '../../shared/receipts';
import { type WsMessage, WsMessageSchema } from '../../shared/ws-messages';
import type { Session } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';
import { addToneUpload } from '../../testkit/tone-uploads';
import type { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { startVoiceApp, type VoiceApp } from '../helpers/voice-app';
import { makeClient, nextEvent } from '../ts3/helpers';

let app: VoiceApp;
let server: Ts3TestServer;
let t: TestApp;
let admin: Session;
let botId: string;
let listener: Ts3Client;
const songs: Song[] = [];
const bot = () => ({ params: { path: { botId } } });

beforeAll(async () => {
  app = await startVoiceApp({ name: 'DJ', nickname: 'DJ Bot' });
  ({ server, t, admin, botId } = app);
  // Uploaded files are the only source here; make them the default so chat searches reach them.
  await admin.api.POST('/api/bot/settings', { body: { defaultPlatform: 'local' } });
  for (const [name, frequencyHz] of [
    ['Alpha', 440],
    ['Beta', 660],
    ['Gamma', 880],
  ] as const) {
    songs.push(await addToneUpload(t.db, t.dataDir, `${name} Tone`, [{ frequencyHz, seconds: 20 }]));
  }
}, 60_000);

afterAll(async () => {
  await listener?.disconnect().catch(() => undefined);
  await app?.close();
});

describe('a disconnected bot', () => {
  it('refuses audio-starting calls with 409 and leaves the queue alone; config-only calls work', async () => {
    const refused = await admin.api.POST('/api/player/{botId}/add-song', {
      ...bot(),
      body: { song: songs[0]! },
    });
    expect(refused.response.status).toBe(409);
    expect(refused.error).toMatchObject({
      error: receipts.notConnected(),
      message: receipts.notConnected(),
      ok: false,
    });
    const fm = await admin.api.POST('/api/player/{botId}/fm', { ...bot(), body: {} });
    expect(fm.response.status).toBe(409);
    expect((fm.error as { message?: string }).message).toBe(receipts.notConnected());
    expect(
      (await admin.api.POST('/api/player/{botId}/volume', { ...bot(), body: { volume: 40 } })).data,
    ).toEqual({
      message: receipts.volume(40),
      code: 'volume',
      params: { volume: 40 },
    });
    expect(
      (await admin.api.POST('/api/player/{botId}/mode', { ...bot(), body: { mode: 'loop' } })).response
        .status,
    ).toBe(200);
    expect((await admin.api.POST('/api/player/{botId}/clear', bot())).response.status).toBe(200);
    expect((await admin.api.GET('/api/player/{botId}/queue', bot())).data?.queue).toEqual([]);
  });
});

describe('a connected bot', () => {
  it('starts, plays a song object and records who asked', async () => {
    const started = await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } });
    expect(started.data).toMatchObject({ connected: true, volume: 40, playMode: 'loop' });
    const play = await admin.api.POST('/api/player/{botId}/play-song', {
      ...bot(),
      body: { song: songs[0]! },
    });
    expect(play.data).toMatchObject({ ok: true, message: receipts.nowPlaying(songs[0]!) });
    const view = await admin.api.GET('/api/player/{botId}/queue', bot());
    expect(view.data?.queue).toEqual([expect.objectContaining({ id: songs[0]!.id, requestedBy: 'admin' })]);
    await expect
      .poll(
        async () => (await admin.api.GET('/api/player/{botId}/history', bot())).data?.history[0]?.requestedBy,
      )
      .toBe('admin');
  });

  it('answers chat commands in the channel with the REST receipts, as the chat user', async () => {
    listener = makeClient(server.port, server.rootPublicKey, { nickname: 'Listener' });
    await listener.connect();
    const botClient = server.clientByName('DJ Bot')!;
    expect(listener.channelId).toBe(botClient.channelId);
    const replyTo = async (line: string) => {
      const reply = nextEvent<TextMessage>(
        listener,
        'textMessage',
        (m) => m.invokerName === 'DJ Bot',
        10_000,
      );
      await listener.sendChannelText(line);
      return (await reply).message;
    };
    const rest = await admin.api.POST('/api/player/{botId}/volume', { ...bot(), body: { volume: 30 } });
    expect(await replyTo('!vol 30')).toBe(rest.data?.message);
    // Chat finds the upload through the local catalog, which knows its file name but no artist.
    expect(await replyTo('!add Beta')).toBe(receipts.added({ name: 'Beta Tone', artist: '' }, 2));
    const view = await admin.api.GET('/api/player/{botId}/queue', bot());
    expect(view.data?.queue[1]).toMatchObject({ id: songs[1]!.id, requestedBy: 'Listener' });
    expect(await replyTo('!now')).toMatch(/^Now playing: Alpha Tone - tests \[\d:\d\d\/0:20\]$/);
    expect(await replyTo('!norm')).toMatch(
      /^Even loudness is on at -16 LUFS: this song gets [+-]\d+\.\d dB, as measured\.$/,
    );
    const off = await admin.api.POST('/api/player/{botId}/loudness', { ...bot(), body: { enabled: false } });
    expect(await replyTo('!norm off')).toBe(off.data?.message);
    expect(await replyTo('!norm')).toBe('Even loudness is off.');
    expect(await replyTo('!norm -14')).toBe('Even loudness is on: every song plays at -14 LUFS.');
    expect(await replyTo('!autoplay')).toBe('Autoplay is off: the bot stops when the queue runs out.');
    const auto = await admin.api.POST('/api/player/{botId}/autoplay', {
      ...bot(),
      body: { mode: 'related' },
    });
    expect(await replyTo('!autoplay on')).toBe(auto.data?.message);
    expect(await replyTo('!autoplay off')).toBe('Autoplay is off: the bot stops when the queue runs out.');
    expect(await replyTo('!crossfade')).toBe('Crossfade is off: each song follows the last without a gap.');
    const fade = await admin.api.POST('/api/player/{botId}/crossfade', { ...bot(), body: { seconds: 4 } });
    expect(await replyTo('!crossfade 4')).toBe(fade.data?.message);
    expect(await replyTo('!crossfade 0')).toBe('Crossfade is off: each song follows the last without a gap.');
  });

  it('never interleaves concurrent queue edits', async () => {
    await admin.api.POST('/api/player/{botId}/clear', bot());
    await admin.api.POST('/api/player/{botId}/play-song', { ...bot(), body: { song: songs[0]! } });
    const batch = Array.from({ length: 12 }, (_, i) => ({
      ...songs[i % 3]!,
      id: songs[i % 3]!.id,
      name: `Copy ${i}`,
    }));
    const calls = batch.map((song, i) => {
      const body = { song };
      if (i % 4 === 0) return admin.api.POST('/api/player/{botId}/add-song', { ...bot(), body });
      if (i % 4 === 1) return admin.api.POST('/api/player/{botId}/play-next-song', { ...bot(), body });
      if (i % 4 === 2) return admin.api.POST('/api/player/{botId}/play-now-song', { ...bot(), body });
      return admin.api.POST('/api/player/{botId}/play-at', { ...bot(), body: { index: 0 } });
    });
    const results = await Promise.all(calls);
    expect(results.map((r) => r.response.status)).toEqual(batch.map(() => 200));
    const queue = (await admin.api.GET('/api/player/{botId}/queue', bot())).data!.queue;
    // 1 song + 9 inserted (3 of the 12 calls are play-at): nothing lost, nothing doubled.
    expect(queue).toHaveLength(10);
    const names = queue.map((s) => s.name).filter((n) => n.startsWith('Copy'));
    expect(new Set(names).size).toBe(9);
    for (let i = 0; i < 12; i++) if (i % 4 !== 3) expect(names).toContain(`Copy ${i}`);
  });

  it('keeps pushing state to an open socket across a stop and start', async () => {
    const base = (await t.listen()).replace('http', 'ws');
    const messages: WsMessage[] = [];
    const ws = new WebSocket(`${base}/ws`, { headers: { cookie: admin.jar.header()! } });
    ws.on('message', (data) => messages.push(WsMessageSchema.parse(JSON.parse(String(data)))));
    await new Promise((resolve) => ws.once('open', resolve));
    const seen = (check: (m: WsMessage) => boolean) =>
      expect.poll(() => messages.some(check), { timeout: 20_000 }).toBe(true);
    await seen((m) => m.type === 'hello');
    await admin.api.POST('/api/bot/{id}/stop', { params: { path: { id: botId } } });
    await seen((m) => m.type === 'status' && m.bot.id === botId && !m.bot.connected);
    await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } });
    messages.length = 0;
    await admin.api.POST('/api/player/{botId}/play-song', { ...bot(), body: { song: songs[2]! } });
    await seen((m) => m.type === 'status' && m.bot.playing && m.bot.currentSong?.id === songs[2]!.id);
    await seen((m) => m.type === 'queue' && m.botId === botId);
    ws.close();
  });

  it('saves and loads queues through chat (!save, !queues, !load), skipping songs that cannot play', async () => {
    await admin.api.POST('/api/bot/settings', { body: { savedQueuesEnabled: true } });
    await admin.api.POST('/api/player/{botId}/add-song', { ...bot(), body: { song: songs[0]! } });
    const saved = await admin.api.POST('/api/saved-queues', { body: { botId, name: 'Evening' } });
    expect(saved.data?.queue).toMatchObject({ name: 'Evening', songCount: 2 });
    const now = new Date();
    const missing = { ...songs[0]!, id: randomUUID(), name: 'Missing' };
    await t.db.insert(savedQueues).values({
      id: randomUUID(),
      ownerId: 'shared',
      name: 'Broken first',
      songs: JSON.stringify([missing, songs[1]]),
      songCount: 2,
      createdAt: now,
      updatedAt: now,
    });
    const replyTo = async (line: string) => {
      const reply = nextEvent<TextMessage>(
        listener,
        'textMessage',
        (m) => m.invokerName === 'DJ Bot' && !m.message.startsWith('Could not play'),
        10_000,
      );
      await listener.sendChannelText(line);
      return (await reply).message;
    };
    expect(await replyTo('!queues')).toBe('Broken first (2)');
    expect(await replyTo('!load broken first')).toBe(receipts.savedQueueLoaded('Broken first', 2));
    await expect
      .poll(
        async () =>
          (await admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } })).data?.currentSong?.id,
        { timeout: 15_000 },
      )
      .toBe(songs[1]!.id);

    // `!save` snapshots the live queue into the shared bucket (chat users have no account).
    const live = (await admin.api.GET('/api/player/{botId}/queue', bot())).data!.queue;
    expect(live.length).toBeGreaterThan(0);
    expect(await replyTo('!save Night Shift')).toBe(receipts.queueSaved('Night Shift', live.length));
    const listed = (await admin.api.GET('/api/saved-queues')).data?.queues.find(
      (q) => q.name === 'Night Shift',
    );
    expect(listed).toMatchObject({ ownerId: 'shared', songCount: live.length });
    const stored = await t.db.query.savedQueues.findFirst({ where: eq(savedQueues.id, listed!.id) });
    expect((JSON.parse(stored!.songs) as Song[]).map((song) => song.id)).toEqual(live.map((song) => song.id));
    expect((await replyTo('!queues')).split('\n').sort()).toEqual(
      ['Broken first (2)', `Night Shift (${live.length})`].sort(),
    );
  });
});
