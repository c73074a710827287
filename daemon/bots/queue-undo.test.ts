import { describe, expect, it } from 'vitest';
import type { PlayableSong } from './playable-song';
import { SongQueue } from './queue';
import { QueueUndo } from './queue-undo';

const song = (id: string): PlayableSong => ({
  id,
  name: id,
  artist: '',
  album: '',
  duration: 60,
  coverUrl: '',
  platform: 'local',
  requestedBy: 'someone',
});

/** A queue of a, b, c with b current, and an Undo that saw it replaced by x. */
function replaced() {
  const queue = new SongQueue<PlayableSong>();
  queue.append([song('a'), song('b'), song('c')]);
  queue.playAt(1);
  const undo = new QueueUndo();
  undo.before(queue, { positionSeconds: 12, paused: false });
  queue.clear();
  queue.append([song('x')]);
  const token = undo.after(queue);
  return { queue, undo, token: token! };
}

describe('QueueUndo', () => {
  it('gives back the replaced songs, the current index and the position under its token, once', () => {
    const { queue, undo, token } = replaced();
    expect(undo.songs(queue).map((s) => s.id)).toEqual(['a', 'b', 'c']);
    expect(undo.take('other', queue)).toBeUndefined();
    const back = undo.take(token, queue);
    expect(back?.songs.map((s) => s.id)).toEqual(['a', 'b', 'c']);
    expect(back).toMatchObject({ currentIndex: 1, resume: { positionSeconds: 12, paused: false } });
    expect(undo.take(token, queue)).toBeUndefined();
    expect(undo.songs(queue)).toEqual([]);
  });

  it('refuses once the queue that replaced it was edited, and holds its songs no longer', () => {
    const { queue, undo, token } = replaced();
    queue.append([song('y')]);
    expect(undo.take(token, queue)).toBeUndefined();
    expect(undo.songs(queue)).toEqual([]);
  });

  it('forgets an earlier replacement once another one happened, even of an empty queue', () => {
    const { queue, undo, token } = replaced();
    undo.before(queue, undefined);
    queue.clear();
    undo.after(queue);
    undo.before(queue, undefined);
    queue.append([song('z')]);
    expect(undo.after(queue)).toBeUndefined();
    expect(undo.take(token, queue)).toBeUndefined();
    expect(undo.songs(queue)).toEqual([]);
  });

  it('takes no edit for a change of the current song (the queue playing on)', () => {
    const { queue, undo, token } = replaced();
    queue.playAt(0);
    expect(undo.take(token, queue)?.songs).toHaveLength(3);
  });

  it('keeps nothing of an empty queue, or of a replacement that did not happen', () => {
    const queue = new SongQueue<PlayableSong>();
    const undo = new QueueUndo();
    undo.before(queue, undefined);
    expect(undo.after(queue)).toBeUndefined();

    const { queue: full, undo: earlier, token } = replaced();
    earlier.before(full, undefined);
    // A load where nothing resolved: `after` is never called, the earlier Undo stays good.
    expect(earlier.take(token, full)?.songs).toHaveLength(3);
  });
});
