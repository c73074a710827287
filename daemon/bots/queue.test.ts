import { describe, expect, it } from 'vitest';
import { SongQueue } from './queue';
import { SerialExecutor } from './serial-executor';

/** The fields a queued song carries (SPEC QueuedSong); the queue itself never looks inside. */
interface TestSong {
  id: string;
  name: string;
  artist: string;
  album: string;
  duration: number;
  coverUrl: string;
  platform: 'local';
  requestedBy?: string;
}

const song = (id: string): TestSong => ({
  id,
  name: id,
  artist: 'a',
  album: 'b',
  duration: 60,
  coverUrl: '',
  platform: 'local',
});
const songs = (...ids: string[]) => ids.map(song);

/** A seeded generator (mulberry32), so random modes are reproducible. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function queueOf(mode: 'seq' | 'loop' | 'random' | 'rloop', ...ids: string[]) {
  const queue = new SongQueue<TestSong>({ mode, random: seeded(42) });
  queue.append(songs(...ids));
  return queue;
}

const ids = (queue: SongQueue<TestSong>, steps: number) =>
  Array.from({ length: steps }, () => queue.next()?.id ?? null);

describe('SongQueue play modes', () => {
  it('seq plays in order and stops after the last', () => {
    const queue = queueOf('seq', 'a', 'b', 'c');
    expect(ids(queue, 4)).toEqual(['a', 'b', 'c', null]);
    expect(queue.current()).toBeUndefined();
  });

  it('loop wraps from the last song to the first', () => {
    expect(ids(queueOf('loop', 'a', 'b', 'c'), 7)).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a']);
  });

  it('random plays every song once in some order, then stops', () => {
    const queue = queueOf('random', 'a', 'b', 'c', 'd', 'e');
    const played = ids(queue, 6);
    expect(played[5]).toBeNull();
    expect(new Set(played.slice(0, 5))).toEqual(new Set(['a', 'b', 'c', 'd', 'e']));
  });

  it('random follows the injected generator', () => {
    expect(ids(queueOf('random', 'a', 'b', 'c', 'd'), 4)).toEqual(
      ids(queueOf('random', 'a', 'b', 'c', 'd'), 4),
    );
  });

  it('rloop shuffles round after round without repeats inside a round, forever', () => {
    const queue = queueOf('rloop', 'a', 'b', 'c', 'd');
    const played = ids(queue, 12);
    expect(played).not.toContain(null);
    for (let round = 0; round < 3; round++) {
      expect(new Set(played.slice(round * 4, round * 4 + 4)).size).toBe(4);
    }
    // A new round never opens with the song that just ended.
    expect(played[4]).not.toBe(played[3]);
    expect(played[8]).not.toBe(played[7]);
  });

  it('rloop with a single song repeats it', () => {
    expect(ids(queueOf('rloop', 'a'), 3)).toEqual(['a', 'a', 'a']);
  });

  it('an empty queue has nothing next in any mode', () => {
    for (const mode of ['seq', 'loop', 'random', 'rloop'] as const)
      expect(queueOf(mode).next()).toBeUndefined();
  });
});

describe('SongQueue prev', () => {
  it('seq goes back and stays on the first song', () => {
    const queue = queueOf('seq', 'a', 'b');
    ids(queue, 2);
    expect(queue.prev()?.id).toBe('a');
    expect(queue.prev()).toBeUndefined();
    expect(queue.current()?.id).toBe('a');
  });

  it('loop goes from the first song to the last', () => {
    const queue = queueOf('loop', 'a', 'b', 'c');
    queue.next();
    expect(queue.prev()?.id).toBe('c');
  });

  it('random walks back through what actually played', () => {
    const queue = queueOf('random', 'a', 'b', 'c', 'd');
    const played = ids(queue, 3);
    expect(queue.prev()?.id).toBe(played[1]);
    expect(queue.prev()?.id).toBe(played[0]);
    expect(queue.prev()).toBeUndefined();
  });
});

describe('SongQueue editing', () => {
  it('playAt checks the range and makes the song current', () => {
    const queue = queueOf('seq', 'a', 'b', 'c');
    expect(queue.playAt(3)).toEqual({ ok: false, error: 'index 3 is out of range (queue has 3 songs)' });
    expect(queue.playAt(-1).ok).toBe(false);
    expect(queue.playAt(1.5).ok).toBe(false);
    expect(queue.playAt(1)).toEqual({ ok: true, value: song('b') });
    expect(queue.next()?.id).toBe('c');
  });

  it('remove before the current keeps the same song current', () => {
    const queue = queueOf('seq', 'a', 'b', 'c');
    queue.playAt(2);
    expect(queue.remove(0)).toEqual({ ok: true, value: song('a') });
    expect(queue.current()?.id).toBe('c');
    expect(queue.currentIndex()).toBe(1);
    expect(queue.remove(5).ok).toBe(false);
  });

  it('removing the current song leaves none current and next continues in its place', () => {
    const queue = queueOf('seq', 'a', 'b', 'c');
    queue.playAt(1);
    queue.remove(1);
    expect(queue.current()).toBeUndefined();
    expect(queue.next()?.id).toBe('c');
    queue.playAt(0);
    queue.remove(0);
    expect(queue.prev()).toBeUndefined();
    expect(queue.next()?.id).toBe('c');
  });

  it('random prev skips a removed current song', () => {
    const queue = queueOf('random', 'a', 'b', 'c');
    const played = ids(queue, 2);
    queue.remove(queue.currentIndex() ?? -1);
    expect(queue.prev()?.id).toBe(played[0]);
  });

  it('insertAfterCurrent puts songs right after the current one', () => {
    const queue = queueOf('seq', 'a', 'b');
    queue.next();
    expect(queue.insertAfterCurrent(songs('x', 'y'))).toBe(1);
    expect(queue.snapshot().songs.map((s) => s.id)).toEqual(['a', 'x', 'y', 'b']);
  });

  it('insertAfterCurrent on an idle queue inserts where playback would start', () => {
    const queue = queueOf('seq', 'a');
    expect(queue.insertAfterCurrent(songs('x'))).toBe(0);
    expect(queue.next()?.id).toBe('x');
  });

  it('insertNext songs play next even in random mode, in the order given', () => {
    const queue = queueOf('random', 'a', 'b', 'c', 'd', 'e');
    queue.next();
    queue.insertNext(songs('x', 'y'));
    expect(ids(queue, 2)).toEqual(['x', 'y']);
    expect(queue.size).toBe(7);
  });

  it('a jump to another song keeps the play-next songs next, right after the song jumped to', () => {
    const queue = queueOf('seq', 'a', 'b', 'c', 'd');
    queue.next();
    queue.insertNext(songs('x', 'y'));
    expect(queue.playAt(4)).toEqual({ ok: true, value: song('c') });
    expect(queue.snapshot().songs.map((s) => s.id)).toEqual(['a', 'b', 'c', 'x', 'y', 'd']);
    expect(queue.currentIndex()).toBe(2);
    expect(ids(queue, 4)).toEqual(['x', 'y', 'd', null]);
  });

  it('a jump backwards or onto a play-next song keeps the rest of them next', () => {
    const queue = queueOf('loop', 'a', 'b', 'c', 'd');
    queue.playAt(2);
    queue.insertNext(songs('x', 'y'));
    queue.playAt(0);
    expect(queue.snapshot().songs.map((s) => s.id)).toEqual(['a', 'x', 'y', 'b', 'c', 'd']);
    queue.playAt(2);
    expect(queue.current()?.id).toBe('y');
    expect(ids(queue, 2)).toEqual(['x', 'b']);
  });

  it('append adds at the end; clear empties everything', () => {
    const queue = queueOf('loop', 'a');
    expect(queue.append(songs('b', 'c'))).toBe(1);
    queue.next();
    queue.clear();
    expect(queue.snapshot()).toEqual({ songs: [], currentIndex: null, mode: 'loop' });
    expect(queue.next()).toBeUndefined();
  });

  it('keys tell two copies of one song apart and follow an entry through moves', () => {
    const queue = queueOf('seq', 'a');
    queue.append(songs('a'));
    const [first, second] = queue.keyedSongs();
    expect(first!.song.id).toBe(second!.song.id);
    expect(first!.key).not.toBe(second!.key);
    queue.playAt(1);
    expect(queue.keyOf(queue.current()!)).toBe(second!.key);
    queue.move(1, 0);
    expect(queue.keyedSongs().map((entry) => entry.key)).toEqual([second!.key, first!.key]);
    queue.remove(0);
    expect(queue.keyOf(second!.song)).toBeUndefined();
  });

  it('snapshot is a copy', () => {
    const queue = queueOf('seq', 'a', 'b');
    queue.next();
    const snapshot = queue.snapshot();
    queue.append(songs('c'));
    expect(snapshot).toEqual({ songs: songs('a', 'b'), currentIndex: 0, mode: 'seq' });
  });

  it('switching to random starts a fresh round counting the current song as played', () => {
    const queue = queueOf('seq', 'a', 'b', 'c');
    queue.next();
    queue.setMode('random');
    const rest = ids(queue, 3);
    expect(new Set(rest.slice(0, 2))).toEqual(new Set(['b', 'c']));
    expect(rest[2]).toBeNull();
  });
});

describe('SongQueue.move', () => {
  it('moves a song and keeps the current one current', () => {
    const queue = queueOf('seq', 'a', 'b', 'c', 'd');
    queue.playAt(1);
    expect(queue.move(3, 0)).toMatchObject({ ok: true, value: { id: 'd' } });
    expect(queue.snapshot().songs.map((s) => s.id)).toEqual(['d', 'a', 'b', 'c']);
    expect(queue.current()?.id).toBe('b');
    expect(queue.currentIndex()).toBe(2);
    expect(queue.next()?.id).toBe('c');
  });

  it('refuses an index outside the queue', () => {
    const queue = queueOf('seq', 'a', 'b');
    expect(queue.move(0, 2).ok).toBe(false);
    expect(queue.move(5, 0).ok).toBe(false);
    expect(queue.snapshot().songs.map((s) => s.id)).toEqual(['a', 'b']);
  });
});

describe('SongQueue.upcoming: what next() moves to, named before it moves', () => {
  it('names in every mode the song next() then moves to, and does not move', () => {
    for (const mode of ['seq', 'loop', 'random', 'rloop'] as const) {
      const queue = queueOf(mode, 'a', 'b', 'c', 'd');
      for (let step = 0; step < 10; step++) {
        const before = queue.currentIndex();
        const upcoming = queue.upcoming();
        expect(queue.upcoming()).toEqual(upcoming);
        expect(queue.currentIndex()).toBe(before);
        expect(queue.next()?.id).toBe(upcoming?.song.id);
        if (upcoming) expect(queue.currentKey()).toBe(upcoming.key);
        else break;
      }
    }
  });

  it('puts a play-next song first, and nothing after the last in seq', () => {
    const queue = queueOf('seq', 'a', 'b');
    queue.next();
    queue.insertNext([song('x')]);
    expect(queue.upcoming()?.song.id).toBe('x');
    queue.next();
    expect(queue.upcoming()?.song.id).toBe('b');
    queue.next();
    expect(queue.upcoming()).toBeUndefined();
  });

  it('counts every change in its revision, and a change may change the random pick', () => {
    const queue = queueOf('random', 'a', 'b', 'c', 'd', 'e');
    queue.next();
    const revision = queue.revision;
    queue.upcoming();
    expect(queue.revision).toBe(revision);
    queue.append([song('f')]);
    expect(queue.revision).toBeGreaterThan(revision);
    const changes = [
      () => queue.setMode('rloop'),
      () => queue.move(0, 1),
      () => queue.remove(0),
      () => queue.insertAfterCurrent([song('g')]),
      () => queue.playAt(0),
      () => queue.next(),
      () => queue.prev(),
      () => queue.clear(),
    ];
    for (const change of changes) {
      const before = queue.revision;
      change();
      expect(queue.revision).toBeGreaterThan(before);
    }
  });
});

describe('SongQueue under the per-bot SerialExecutor', () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('concurrent read-modify-write commands never interleave', async () => {
    // Each command reads the queue, yields (as a real one does to resolve a song), then writes.
    const serial = new SerialExecutor();
    const queue = new SongQueue<string>();
    queue.append(['now']);
    queue.next();
    const trace: string[] = [];
    const playNext = (song: string) =>
      serial.run(async () => {
        trace.push(`${song}:read`);
        const expectedIndex = (queue.currentIndex() ?? -1) + 1;
        await tick();
        await tick();
        const inserted = queue.insertNext([song]);
        trace.push(`${song}:write`);
        expect(inserted).toBe(expectedIndex);
        return queue.playAt(inserted);
      });
    const results = await Promise.all(['x', 'y', 'z'].map(playNext));
    expect(trace).toEqual(['x:read', 'x:write', 'y:read', 'y:write', 'z:read', 'z:write']);
    expect(results.map((result) => result.ok && result.value)).toEqual(['x', 'y', 'z']);
    expect(queue.snapshot().songs).toEqual(['now', 'x', 'y', 'z']);
  });

  it('a failing command does not block the ones after it', async () => {
    const serial = new SerialExecutor();
    const queue = new SongQueue<string>();
    const failed = serial.run(async () => {
      queue.append(['a']);
      throw new Error('resolve failed');
    });
    const after = serial.run(async () => queue.append(['b']));
    await expect(failed).rejects.toThrow('resolve failed');
    await expect(after).resolves.toBe(1);
    expect(queue.snapshot().songs).toEqual(['a', 'b']);
  });
});
