import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OPUS_SILENCE_FRAME } from '../../audio/encode/opus-silence-frame';
import { HUB_EXPIRY_MS, LISTEN_BATCH_MS, ListenFeed } from './listen-feed';

const silence = Buffer.from(OPUS_SILENCE_FRAME).toString('base64');

describe('ListenFeed', () => {
  let batches: string[][];
  let tap: ((frame: Uint8Array) => void) | undefined;
  let changes: number;
  let feed: ListenFeed;

  beforeEach(() => {
    vi.useFakeTimers();
    batches = [];
    changes = 0;
    tap = undefined;
    feed = new ListenFeed({
      publish: (frames) => batches.push(frames),
      onListenersChange: () => changes++,
      tap: (push) => {
        tap = push;
      },
      now: () => Date.now(),
    });
  });
  afterEach(() => {
    feed.dispose();
    vi.useRealTimers();
  });

  it('taps the frames only while a hub reports listeners, and publishes them in batches', () => {
    expect(tap).toBeUndefined();
    feed.report('a', 2);
    feed.report('b', 1);
    expect(feed.listeners).toBe(3);
    expect(changes).toBe(2);
    for (let i = 0; i < 5; i++) tap!(Uint8Array.of(i, 1, 2, 3));
    vi.advanceTimersByTime(LISTEN_BATCH_MS);
    expect(batches).toHaveLength(1);
    // The five frames the bot sent, then silence for the rest of the batch's time.
    expect(batches[0]!.slice(0, 5).map((f) => Buffer.from(f, 'base64')[0])).toEqual([0, 1, 2, 3, 4]);
    expect(new Set(batches[0]!.slice(5))).toEqual(new Set([silence]));
    feed.report('a', 0);
    feed.report('b', 0);
    expect(tap).toBeUndefined();
    vi.advanceTimersByTime(LISTEN_BATCH_MS * 5);
    expect(batches).toHaveLength(1);
  });

  it('fills silence at the frame rate while the bot sends nothing', () => {
    feed.report('a', 1);
    vi.advanceTimersByTime(1000);
    const frames = batches.flat();
    // 50 frames a second, less the two the clock may still owe.
    expect(frames.length).toBe(48);
    expect(new Set(frames)).toEqual(new Set([silence]));
  });

  it('forgets a hub that stops renewing, and stops', () => {
    feed.report('a', 1);
    vi.advanceTimersByTime(HUB_EXPIRY_MS - LISTEN_BATCH_MS);
    feed.report('a', 1);
    vi.advanceTimersByTime(HUB_EXPIRY_MS - LISTEN_BATCH_MS);
    expect(feed.listeners).toBe(1);
    vi.advanceTimersByTime(2 * LISTEN_BATCH_MS);
    expect(feed.listeners).toBe(0);
    expect(tap).toBeUndefined();
  });
});
