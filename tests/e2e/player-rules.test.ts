/**
 * Player rules over REST on the real app, daemon and TS3 test server: saved queues loaded with replace
 * and append (SPEC Player rule 7), `playKeepsQueue`, queue entry ids (two copies of one song told
 * apart), and the guest permission flags of DECISIONS.md on every player endpoint, with `Guest` as the
 * guest's `requestedBy`.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedQueues } from '../../shared/db/schema';
import { GUEST_PERMISSION_DEFAULTS, type GuestPermission } from '../../shared/domain/constants';
import type { Song } from '../../shared/domain/schemas';
import { receipts } from '../../shared/receipts';
import type { Session } from '../../testkit/accounts';
import type { CookieJar } from '../../testkit/cookie-jar';
import { TEST_ORIGIN, type TestApp } from '../../testkit/test-app';
import { addToneUpload } from '../../testkit/tone-uploads';
import { startVoiceApp, type VoiceApp } from '../helpers/voice-app';

/** The app, its TS3 test server and the bot under test (Rules Bot), set up once for the file. */
let app: VoiceApp;
let t: TestApp;
let admin: Session;
let botId: string;
const songs: Song[] = [];
const bot = () => ({ params: { path: { botId } } });
const missing = (i: number): Song => ({ ...songs[0]!, id: randomUUID(), name: `Missing ${i}` });

const queueIds = async () =>
  (await admin.api.GET('/api/player/{botId}/queue', bot())).data?.queue.map((s) => s.id);
const current = async () =>
  (await admin.api.GET('/api/player/{botId}/queue', bot())).data?.status.currentSong;

async function saveQueue(name: string, list: Song[]): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await t.db.insert(savedQueues).values({
    id,
    ownerId: 'shared',
    name,
    songs: JSON.stringify(list),
    songCount: list.length,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

beforeAll(async () => {
  app = await startVoiceApp({ name: 'Rules', nickname: 'Rules Bot' });
  ({ t, admin, botId } = app);
  for (const [i, frequencyHz] of [440, 550, 660, 770].entries()) {
    songs.push(await addToneUpload(t.db, t.dataDir, `Tone ${i}`, [{ frequencyHz, seconds: 30 }]));
  }
  await admin.api.POST('/api/bot/settings', { body: { savedQueuesEnabled: true } });
  const started = await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } });
  expect(started.data?.connected).toBe(true);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('POST /api/saved-queues/{id}/load', () => {
  const loadQueue = (id: string, mode: 'replace' | 'append') =>
    admin.api.POST('/api/saved-queues/{id}/load', { params: { path: { id } }, body: { botId, mode } });

  it('replace plays the list from its first song; append adds to the end without interrupting', async () => {
    await admin.api.POST('/api/player/{botId}/play-song', { ...bot(), body: { song: songs[3]! } });
    const first = await saveQueue('First two', songs.slice(0, 2));
    expect((await loadQueue(first, 'replace')).data).toMatchObject({
      ok: true,
      loaded: 2,
      mode: 'replace',
      message: `${receipts.loaded('First two', 2)} ${receipts.nowPlaying(songs[0]!)}`,
    });
    expect(await queueIds()).toEqual([songs[0]!.id, songs[1]!.id]);
    expect(await current()).toMatchObject({ id: songs[0]!.id, requestedBy: 'admin' });
    const more = await saveQueue('Two more', songs.slice(2, 4));
    expect((await loadQueue(more, 'append')).data).toMatchObject({ ok: true, loaded: 2, mode: 'append' });
    expect(await queueIds()).toEqual(songs.map((s) => s.id));
    expect((await current())?.id).toBe(songs[0]!.id);
  });

  it('answers ok: false and keeps the queue when none of the first 20 songs can be resolved', async () => {
    const before = await queueIds();
    const broken = await saveQueue('Broken', [
      ...Array.from({ length: 21 }, (_, i) => missing(i)),
      songs[2]!,
    ]);
    expect((await loadQueue(broken, 'replace')).data).toMatchObject({
      ok: false,
      loaded: 0,
      mode: 'replace',
      message: receipts.nothingPlayable('Broken'),
    });
    expect(await queueIds()).toEqual(before);
  });

  it('skips 3 songs that cannot be resolved and plays the fourth', async () => {
    const list = [missing(0), missing(1), missing(2), songs[1]!];
    const id = await saveQueue('Three broken', list);
    expect((await loadQueue(id, 'replace')).data).toMatchObject({ ok: true, loaded: 4, mode: 'replace' });
    expect((await current())?.id).toBe(songs[1]!.id);
  });
});

describe('queue entry ids', () => {
  it('tell two copies of one song apart, mark the copy playing and survive a removal before it', async () => {
    await admin.api.POST('/api/player/{botId}/clear', bot());
    for (const song of [songs[1]!, songs[0]!, songs[0]!])
      await admin.api.POST('/api/player/{botId}/add-song', { ...bot(), body: { song } });
    const played = await admin.api.POST('/api/player/{botId}/play-at', { ...bot(), body: { index: 2 } });
    expect(played.response.status).toBe(200);
    const view = (await admin.api.GET('/api/player/{botId}/queue', bot())).data!;
    const ids = view.queue.map((entry) => entry.entryId);
    expect(new Set(ids).size).toBe(3);
    expect(view.status.currentSong?.entryId).toBe(ids[2]);

    await admin.api.DELETE('/api/player/{botId}/queue/{index}', { params: { path: { botId, index: 0 } } });
    const after = (await admin.api.GET('/api/player/{botId}/queue', bot())).data!;
    expect(after.queue.map((entry) => entry.entryId)).toEqual(ids.slice(1));
    expect(after.status.currentSong?.entryId).toBe(ids[2]);
  });
});

describe('a single-song /play-song', () => {
  const playSong = (song: Song) =>
    admin.api.POST('/api/player/{botId}/play-song', { ...bot(), body: { song } });

  it('with playKeepsQueue inserts after the current song and plays it; without, clears the queue', async () => {
    await admin.api.POST('/api/bot/settings', { body: { playKeepsQueue: true } });
    await admin.api.POST('/api/player/{botId}/clear', bot());
    await playSong(songs[0]!);
    for (const song of songs.slice(1, 3))
      await admin.api.POST('/api/player/{botId}/add-song', { ...bot(), body: { song } });
    expect(await queueIds()).toEqual([songs[0]!.id, songs[1]!.id, songs[2]!.id]);
    const kept = await playSong(songs[3]!);
    expect(kept.data).toMatchObject({ ok: true, message: receipts.nowPlaying(songs[3]!) });
    expect(await queueIds()).toEqual([songs[0]!.id, songs[3]!.id, songs[1]!.id, songs[2]!.id]);
    expect((await current())?.id).toBe(songs[3]!.id);

    await admin.api.POST('/api/bot/settings', { body: { playKeepsQueue: false } });
    await playSong(songs[2]!);
    expect(await queueIds()).toEqual([songs[2]!.id]);
  });

  it('answers ok: false with the reason when the song cannot be played', async () => {
    const reply = await playSong(missing(0));
    expect(reply.response.status).toBe(200);
    expect(reply.data?.ok).toBe(false);
    expect(reply.data?.message).toMatch(/^Could not play Missing 0/);
  });
});

describe('/play-now-song and /play-next-song', () => {
  const view = async () => (await admin.api.GET('/api/player/{botId}/queue', bot())).data!;
  /** A queue of songs 0, 1, 2 with song 1 current. */
  async function queueWithSecondCurrent() {
    await admin.api.POST('/api/player/{botId}/clear', bot());
    for (const song of songs.slice(0, 3))
      await admin.api.POST('/api/player/{botId}/add-song', { ...bot(), body: { song } });
    await admin.api.POST('/api/player/{botId}/play-at', { ...bot(), body: { index: 1 } });
    expect((await current())?.id).toBe(songs[1]!.id);
  }

  it('/play-now-song inserts right after the current song and plays it, keeping the queue', async () => {
    await queueWithSecondCurrent();
    const played = await admin.api.POST('/api/player/{botId}/play-now-song', {
      ...bot(),
      body: { song: songs[3]! },
    });
    expect(played.data).toMatchObject({ ok: true, message: receipts.nowPlaying(songs[3]!) });
    const { queue, status } = await view();
    expect(queue.map((entry) => entry.id)).toEqual([songs[0]!.id, songs[1]!.id, songs[3]!.id, songs[2]!.id]);
    expect(status).toMatchObject({ playing: true, currentSong: { entryId: queue[2]!.entryId } });
  });

  it('/play-next-song on an idle bot plays the song at the position it was inserted', async () => {
    await queueWithSecondCurrent();
    await admin.api.POST('/api/player/{botId}/stop', bot());
    expect((await view()).status).toMatchObject({ playing: false, currentSong: null });
    const played = await admin.api.POST('/api/player/{botId}/play-next-song', {
      ...bot(),
      body: { song: songs[3]! },
    });
    expect(played.data).toMatchObject({ ok: true, message: receipts.nowPlaying(songs[3]!) });
    const { queue, status } = await view();
    expect(queue).toHaveLength(4);
    const inserted = queue.findIndex((entry) => entry.id === songs[3]!.id);
    // Every song that was there is still there, in its order around the inserted one.
    expect(queue.filter((_, i) => i !== inserted).map((entry) => entry.id)).toEqual(
      songs.slice(0, 3).map((song) => song.id),
    );
    expect(status).toMatchObject({ playing: true, currentSong: { entryId: queue[inserted]!.entryId } });
  });

  it('/play-next-song while a song plays queues it next without interrupting', async () => {
    await queueWithSecondCurrent();
    const queued = await admin.api.POST('/api/player/{botId}/play-next-song', {
      ...bot(),
      body: { song: songs[3]! },
    });
    expect(queued.data?.ok).toBe(true);
    const { queue, status } = await view();
    expect(queue.map((entry) => entry.id)).toEqual([songs[0]!.id, songs[1]!.id, songs[3]!.id, songs[2]!.id]);
    expect(status.currentSong?.id).toBe(songs[1]!.id);
  });

  it('a /play-next-song song stays next after a jump with /play-at, and /next plays it', async () => {
    await queueWithSecondCurrent();
    await admin.api.POST('/api/player/{botId}/play-next-song', { ...bot(), body: { song: songs[3]! } });
    // Queue 0, 1, 3, 2 with 1 playing: a jump back to song 0 takes the waiting song 3 along.
    const jumped = await admin.api.POST('/api/player/{botId}/play-at', { ...bot(), body: { index: 0 } });
    expect(jumped.data?.message).toBe(receipts.nowPlaying(songs[0]!));
    expect(await queueIds()).toEqual([songs[0]!.id, songs[3]!.id, songs[1]!.id, songs[2]!.id]);
    const next = await admin.api.POST('/api/player/{botId}/next', bot());
    expect(next.data?.message).toBe(receipts.skipped(songs[3]!));
    expect((await current())?.id).toBe(songs[3]!.id);
    await admin.api.POST('/api/player/{botId}/next', bot());
    expect((await current())?.id).toBe(songs[1]!.id);
  });
});

/** Every player endpoint a guest flag opens, with a body that passes validation. */
const GUARDED: Record<GuestPermission, { method: 'POST' | 'DELETE'; path: string; body?: object }[]> = {
  addToQueue: [
    { method: 'POST', path: '/add', body: { query: 'Tone 0' } },
    { method: 'POST', path: '/add-song', body: { song: 'SONG' } },
    { method: 'POST', path: '/add-by-id', body: { songId: 'SONG_ID', platform: 'local' } },
  ],
  playNext: [{ method: 'POST', path: '/play-next-song', body: { song: 'SONG' } }],
  playNow: [
    { method: 'POST', path: '/play', body: { query: 'Tone 0' } },
    { method: 'POST', path: '/play-song', body: { song: 'SONG' } },
    { method: 'POST', path: '/play-now-song', body: { song: 'SONG' } },
    { method: 'POST', path: '/play-by-id', body: { songId: 'SONG_ID', platform: 'local' } },
    { method: 'POST', path: '/undo', body: { token: 'no-such-token' } },
  ],
  skip: [
    { method: 'POST', path: '/next' },
    { method: 'POST', path: '/prev' },
    { method: 'POST', path: '/play-at', body: { index: 0 } },
  ],
  transport: [
    { method: 'POST', path: '/pause' },
    { method: 'POST', path: '/resume' },
    { method: 'POST', path: '/stop' },
    { method: 'POST', path: '/volume', body: { volume: 60 } },
    { method: 'POST', path: '/seek', body: { position: 1 } },
  ],
  removeClear: [
    { method: 'POST', path: '/clear' },
    { method: 'POST', path: '/move', body: { from: 0, to: 0 } },
    { method: 'DELETE', path: '/queue/0' },
  ],
  playMode: [
    { method: 'POST', path: '/mode', body: { mode: 'seq' } },
    { method: 'POST', path: '/fm', body: {} },
  ],
  playCollection: [
    { method: 'POST', path: '/play-playlist', body: { playlistId: 'p1', platform: 'local' } },
    { method: 'POST', path: '/play-album', body: { albumId: 'a1', platform: 'local' } },
    { method: 'POST', path: '/playlist', body: { playlistId: 'p1', platform: 'local' } },
  ],
};
const FLAGS = Object.keys(GUEST_PERMISSION_DEFAULTS) as GuestPermission[];

describe('guest permission flags on the player endpoints', () => {
  let guest: CookieJar;
  const setPermissions = (on: GuestPermission[]) =>
    admin.api.POST('/api/bot/settings', {
      body: {
        guestMode: {
          enabled: true,
          bots: 'all',
          permissions: Object.fromEntries(FLAGS.map((flag) => [flag, on.includes(flag)])),
        },
      },
    });
  const call = async ({ method, path, body }: (typeof GUARDED)[GuestPermission][number]) => {
    const json =
      body &&
      JSON.stringify(body).replace('"SONG"', JSON.stringify(songs[0])).replace('SONG_ID', songs[0]!.id);
    const response = await t.fetch(
      new Request(`${TEST_ORIGIN}/api/player/${botId}${path}`, {
        method,
        ...(json ? { body: json, headers: { 'content-type': 'application/json' } } : {}),
      }),
      guest,
    );
    return { status: response.status, body: (await response.json()) as { error?: string } };
  };

  beforeAll(async () => {
    await setPermissions([]);
    const browser = t.browser();
    expect((await browser.api.POST('/api/session/guest')).response.status).toBe(200);
    guest = browser.jar;
  });

  it('the flags list matches DECISIONS.md and every flag guards at least one endpoint', () => {
    expect(FLAGS.sort()).toEqual(
      [
        'addToQueue',
        'playCollection',
        'playMode',
        'playNext',
        'playNow',
        'removeClear',
        'skip',
        'transport',
      ].sort(),
    );
  });

  it('answers 403 on each endpoint while its flag is off and lets the call through once it is on', async () => {
    for (const flag of FLAGS) {
      await setPermissions([flag]);
      for (const [other, endpoints] of Object.entries(GUARDED) as [GuestPermission, typeof GUARDED.skip][]) {
        for (const endpoint of endpoints) {
          const { status, body } = await call(endpoint);
          const what = `${endpoint.path} with only ${flag} on`;
          if (other === flag) expect(status, what).not.toBe(403);
          else
            expect({ what, status, error: body.error }).toEqual({
              what,
              status: 403,
              error: 'guests may not do this',
            });
        }
      }
    }
  }, 45_000);

  it('records a guest as Guest in the queue', async () => {
    await admin.api.POST('/api/player/{botId}/clear', bot());
    await setPermissions(['addToQueue']);
    const added = await call({ method: 'POST', path: '/add-song', body: { song: 'SONG' } });
    expect(added.status).toBe(200);
    expect(await current()).toMatchObject({ id: songs[0]!.id, requestedBy: 'Guest' });
  });
});
