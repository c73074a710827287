/**
 * Undo of a queue replacement over REST, on the real app, daemon and TS3 test server (DECISIONS:
 * "offers Undo when it clears"): a single-song play without `playKeepsQueue`, a saved queue loaded
 * with replace and a clear answer an `undoToken`; `POST /undo` gives the queue back with its current
 * song at its position, once, and refuses once the queue was edited since. The songs an Undo could
 * bring back count as held, so their uploads are not deleted meanwhile.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queuedUploadIds } from '../../shared/bus/queued-uploads';
import { savedQueues } from '../../shared/db/schema';
import type { Song } from '../../shared/domain/schemas';
import { receipts } from '../../shared/receipts';
import type { Session } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';
import { addToneUpload } from '../../testkit/tone-uploads';
import { chatFor } from '../helpers/chat';
import { startVoiceApp, type VoiceApp } from '../helpers/voice-app';

let app: VoiceApp;
let t: TestApp;
let admin: Session;
let botId: string;
const songs: Song[] = [];
const bot = () => ({ params: { path: { botId } } });

const view = async () => (await admin.api.GET('/api/player/{botId}/queue', bot())).data!;
const queueIds = async () => (await view()).queue.map((song) => song.id);
const undo = (token: string) => admin.api.POST('/api/player/{botId}/undo', { ...bot(), body: { token } });
const playSong = (song: Song) =>
  admin.api.POST('/api/player/{botId}/play-song', { ...bot(), body: { song } });

/** Songs 0, 1, 2 queued, song 1 playing from `seconds` in. */
async function queueWithSecondPlaying(seconds: number) {
  await admin.api.POST('/api/player/{botId}/clear', bot());
  for (const song of songs.slice(0, 3))
    await admin.api.POST('/api/player/{botId}/add-song', { ...bot(), body: { song } });
  await admin.api.POST('/api/player/{botId}/play-at', { ...bot(), body: { index: 1 } });
  await admin.api.POST('/api/player/{botId}/seek', { ...bot(), body: { position: seconds } });
}

beforeAll(async () => {
  app = await startVoiceApp({ name: 'Undo', nickname: 'Undo Bot' });
  ({ t, admin, botId } = app);
  for (const [i, frequencyHz] of [440, 550, 660, 770].entries())
    songs.push(await addToneUpload(t.db, t.dataDir, `Tone ${i}`, [{ frequencyHz, seconds: 60 }]));
  await admin.api.POST('/api/bot/settings', { body: { savedQueuesEnabled: true } });
  const started = await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } });
  expect(started.data?.connected).toBe(true);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('a play that clears the queue', () => {
  it('answers a token that gives back the songs, the current one and its position', async () => {
    await queueWithSecondPlaying(20);
    const played = await playSong(songs[3]!);
    expect(played.data).toMatchObject({ ok: true, message: receipts.nowPlaying(songs[3]!) });
    expect(await queueIds()).toEqual([songs[3]!.id]);
    const token = played.data?.undoToken;
    expect(token).toEqual(expect.any(String));

    const undone = await undo(token!);
    expect(undone.response.status).toBe(200);
    expect(undone.data?.message).toBe(`${receipts.queueRestored(3)} ${receipts.nowPlaying(songs[1]!)}`);
    const { queue, status } = await view();
    expect(queue.map((song) => song.id)).toEqual(songs.slice(0, 3).map((song) => song.id));
    expect(status).toMatchObject({ playing: true, currentSong: { id: songs[1]!.id } });
    expect(status.elapsed).toBeGreaterThanOrEqual(20);
    expect(status.elapsed).toBeLessThan(30);
  });

  it('gives the queue back once: the same token again is refused and changes nothing', async () => {
    await queueWithSecondPlaying(0);
    const token = (await playSong(songs[3]!)).data?.undoToken;
    expect((await undo(token!)).response.status).toBe(200);
    const again = await undo(token!);
    expect(again.response.status).toBe(409);
    expect(again.error).toMatchObject({ error: receipts.nothingToUndo() });
    expect(await queueIds()).toEqual(songs.slice(0, 3).map((song) => song.id));
  });

  it('is refused once someone queued a song after it, which the Undo would have thrown away', async () => {
    await queueWithSecondPlaying(0);
    const token = (await playSong(songs[3]!)).data?.undoToken;
    await admin.api.POST('/api/player/{botId}/add-song', { ...bot(), body: { song: songs[0]! } });
    expect((await undo(token!)).response.status).toBe(409);
    expect(await queueIds()).toEqual([songs[3]!.id, songs[0]!.id]);
  });

  it('only the last replacement can be undone', async () => {
    await queueWithSecondPlaying(0);
    const first = (await playSong(songs[3]!)).data?.undoToken;
    const second = (await playSong(songs[2]!)).data?.undoToken;
    expect(second).not.toBe(first);
    expect((await undo(first!)).response.status).toBe(409);
    expect((await undo(second!)).response.status).toBe(200);
    expect(await queueIds()).toEqual([songs[3]!.id]);
  });

  it('answers no token when the queue was empty, or when playKeepsQueue kept it', async () => {
    await admin.api.POST('/api/player/{botId}/clear', bot());
    expect((await playSong(songs[0]!)).data).not.toHaveProperty('undoToken');
    await admin.api.POST('/api/bot/settings', { body: { playKeepsQueue: true } });
    try {
      expect((await playSong(songs[1]!)).data).not.toHaveProperty('undoToken');
      expect(await queueIds()).toEqual([songs[0]!.id, songs[1]!.id]);
    } finally {
      await admin.api.POST('/api/bot/settings', { body: { playKeepsQueue: false } });
    }
  });
});

describe('other replacements', () => {
  it('a saved queue loaded with replace can be undone', async () => {
    await queueWithSecondPlaying(0);
    const id = randomUUID();
    const now = new Date();
    await t.db.insert(savedQueues).values({
      id,
      ownerId: 'shared',
      name: 'Last one',
      songs: JSON.stringify([songs[3]]),
      songCount: 1,
      createdAt: now,
      updatedAt: now,
    });
    const loaded = await admin.api.POST('/api/saved-queues/{id}/load', {
      params: { path: { id } },
      body: { botId, mode: 'replace' },
    });
    expect(loaded.data).toMatchObject({ ok: true, loaded: 1 });
    expect(await queueIds()).toEqual([songs[3]!.id]);
    expect((await undo(loaded.data!.undoToken!)).response.status).toBe(200);
    expect(await queueIds()).toEqual(songs.slice(0, 3).map((song) => song.id));
  });

  it('a clear can be undone, and what comes back stays stopped when nothing played', async () => {
    await queueWithSecondPlaying(0);
    await admin.api.POST('/api/player/{botId}/stop', bot());
    const cleared = await admin.api.POST('/api/player/{botId}/clear', bot());
    expect(cleared.data?.message).toBe(receipts.cleared());
    expect(await queueIds()).toEqual([]);
    const undone = await undo(cleared.data!.undoToken!);
    expect(undone.data?.message).toBe(receipts.queueRestored(3));
    const { queue, status } = await view();
    expect(queue).toHaveLength(3);
    expect(status.playing).toBe(false);
  });
});

describe('upload retention', () => {
  it('counts the songs an Undo could bring back as held', async () => {
    await queueWithSecondPlaying(0);
    const token = (await playSong(songs[3]!)).data?.undoToken;
    const held = await queuedUploadIds({ db: t.db, bus: t.bus });
    expect(held).toEqual(new Set(songs.map((song) => song.id)));
    await undo(token!);
  });
});

describe('in the chat', () => {
  const sender = { nickname: 'Listener', uid: 'listener-uid', serverGroups: [8] };
  // `!play <words>` searches the default source: here, the uploads.
  beforeAll(async () => {
    const set = await admin.api.POST('/api/bot/settings', { body: { defaultPlatform: 'local' } });
    expect(set.response.status).toBe(200);
  });

  it('!play that replaced the queue answers the REST receipt, and !undo takes it back, once', async () => {
    await queueWithSecondPlaying(10);
    const chat = chatFor(t, botId);
    const played = await chat.handle('!play Tone 3', sender);
    // Found by the search: the upload as stored, without the artist the test's song object carries.
    expect(played).toBe(receipts.nowPlaying({ ...songs[3]!, artist: '' }));
    expect(await queueIds()).toEqual([songs[3]!.id]);
    expect(await chat.handle('!undo', sender)).toBe(
      `${receipts.queueRestored(3)} ${receipts.nowPlaying(songs[1]!)}`,
    );
    expect(await queueIds()).toEqual(songs.slice(0, 3).map((song) => song.id));
    expect(await chat.handle('!undo', sender)).toBe(receipts.chatNothingToUndo());
  });

  it('!clear can be undone too', async () => {
    await queueWithSecondPlaying(0);
    const chat = chatFor(t, botId);
    expect(await chat.handle('!clear', sender)).toBe(receipts.cleared());
    expect(await chat.handle('!undo', sender)).toMatch(
      new RegExp(`^${escapeRegExp(receipts.queueRestored(3))}`),
    );
  });
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
