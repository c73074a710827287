/**
 * The worker pool around the workers engine: players spread over the workers, a worker that dies ends
 * only its own players' tracks (with an error) and leaves no ffmpeg behind, and closing the pool stops
 * every thread and child.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ok } from '../../../shared/result';
import { CollectingSink, FFMPEG, renderTestFiles, type TempDir } from '../../../testkit/audio-signals';
import { descendantsRunning } from '../../../tests/hardening/child-processes';
import { AudioPlayer } from '../audio-player';
import type { TrackEnd } from '../audio-player-state';
import { FrameScheduler } from '../clock/frame-scheduler';
import type { Track } from '../track';
import { AudioWorkerPool } from './audio-worker-pool';

let dir: TempDir;
beforeAll(() => {
  dir = renderTestFiles();
});
afterAll(() => dir.remove());

const longTrack = (): Track => ({ input: { kind: 'file', path: dir.file('long.wav') }, durationSeconds: 20 });

/** The ffmpeg decoders below this process (children of its threads' launchers), from /proc. */
const ffmpegChildren = () => descendantsRunning('ffmpeg');

function playersOn(pool: AudioWorkerPool, count: number) {
  const scheduler = new FrameScheduler();
  return Array.from({ length: count }, () => {
    const sink = new CollectingSink();
    const player = new AudioPlayer({
      sink,
      scheduler,
      workerPool: pool,
      locateFfmpeg: () => ok(FFMPEG),
    });
    return { sink, player };
  });
}

describe('the audio worker pool', () => {
  it('spreads players over its workers', async () => {
    const pool = new AudioWorkerPool({ size: 2 });
    const players = playersOn(pool, 4);
    expect(pool.workerCount).toBe(2);
    for (const { player } of players) player.play(longTrack());
    await Promise.all(players.map(({ player }) => once(player, 'trackStart')));
    for (const { player } of players) player.destroy();
    await pool.close();
    expect(pool.workerCount).toBe(0);
  });

  it('ends the tracks of a crashed worker’s players with an error, and the next track plays', async () => {
    const pool = new AudioWorkerPool({ size: 1 });
    const [first] = playersOn(pool, 1);
    if (!first) throw new Error('no player');
    const { player, sink } = first;
    player.play(longTrack());
    await once(player, 'trackStart');
    await vi.waitFor(() => expect(ffmpegChildren().length).toBeGreaterThan(0));
    const ended = once(player, 'trackEnd') as Promise<[Track, TrackEnd]>;
    await pool.terminateWorker(0);
    const [, end] = await ended;
    expect(end).toMatchObject({ reason: 'error', stopPlayback: false });
    if (end.reason === 'error') expect(end.message).toMatch(/audio worker stopped/);
    expect(sink.events.at(-1)).toEqual({ kind: 'end' });
    await vi.waitFor(() => expect(ffmpegChildren()).toEqual([]));

    player.play(longTrack());
    await once(player, 'trackStart');
    expect(pool.workerCount).toBe(1);
    player.destroy();
    await pool.close();
  });

  it('leaves no ffmpeg child and no thread behind once closed', async () => {
    const pool = new AudioWorkerPool({ size: 2 });
    const players = playersOn(pool, 2);
    for (const { player } of players) player.play(longTrack());
    await Promise.all(players.map(({ player }) => once(player, 'trackStart')));
    expect(ffmpegChildren().length).toBeGreaterThanOrEqual(2);
    await pool.close();
    // Killed, then gone as soon as the kernel has run them down (a moment on a loaded machine).
    await vi.waitFor(() => expect(ffmpegChildren()).toEqual([]));
    expect(pool.workerCount).toBe(0);
    for (const { player } of players) player.destroy();
  });
});
