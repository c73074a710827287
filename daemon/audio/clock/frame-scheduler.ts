/**
 * The one 20 ms clock that drives every bot's audio (after discord.js voice's DataStore). Per-bot
 * intervals would drift apart and each pay their own timer jitter; one clock keeps all bots in step.
 *
 * - The first `add` starts the clock; the last `remove` stops it.
 * - Deadlines are absolute on a monotonic clock and advance by exactly 20 ms; each sleep is
 *   max(1 ms, deadline − now), so a late tick never pushes the following ones back (no drift).
 * - Each tick first dispatches every player's already prepared frame (the part that must be on time:
 *   it only sends), then prepares the next ones (each player's voice packet is built and encrypted here,
 *   its frame was encoded on a worker thread) in slices of at most PREPARE_SLICE_MS, one `setImmediate`
 *   per slice, so a long list of bots never blocks the event loop in one piece, and a short one costs
 *   one wake-up, not one per bot. The next sleep is armed once every player has prepared.
 * - After a stall (GC, a blocked loop) it catches up with at most 3 ticks in a burst, then re-anchors:
 *   the older missed ticks are dropped and counted, since a listener's jitter buffer cannot use a
 *   flood of stale frames anyway.
 */
import { logger } from '../../../shared/logger';
import { PCM_FORMAT } from '../pcm-format';
import { LATE_FRAME_THRESHOLD_MS } from './frame-health';

const log = logger('audio.scheduler');

export const MAX_BURST_FRAMES = 3;
/**
 * How long one turn of preparing may hold the event loop before it yields: short against the 20 ms
 * tick, long against a player's prepare (building and encrypting one voice packet: bench/ts3-bench.ts
 * measures a few µs plain, tens of µs encrypted).
 */
export const PREPARE_SLICE_MS = 2;

/** What a dispatch learns about its tick. */
export interface FrameTick {
  /** How long after its deadline this tick runs. */
  latenessMs: number;
  /** Ticks dropped just before this one after a stall; their frames were never sent. */
  droppedTicks: number;
}

export interface ScheduledPlayer {
  /** Sends the frame prepared earlier. Must be quick: it runs for every player inside the tick. */
  dispatch(tick: FrameTick): void;
  /** Makes the next frame's send ready (builds its packet), between ticks. */
  prepare(): void;
}

export interface FrameSchedulerStats {
  ticks: number;
  lateTicks: number;
  droppedTicks: number;
}

export interface FrameSchedulerOptions {
  frameMs?: number;
  maxBurstFrames?: number;
  /** Monotonic milliseconds. */
  nowMs?: () => number;
}

export class FrameScheduler {
  private readonly players = new Set<ScheduledPlayer>();
  /**
   * The players as an array, replaced (never changed in place) on every add and remove: a tick walks
   * the array it started with, and the clock allocates nothing per tick for it.
   */
  private playerList: readonly ScheduledPlayer[] = [];
  private readonly frameMs: number;
  private readonly maxBurstFrames: number;
  private readonly nowMs: () => number;
  private nextDeadlineMs = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Bumped on every start and stop, so callbacks of an earlier run find themselves stale and quit. */
  private generation = 0;
  private running = false;
  private readonly counters: FrameSchedulerStats = { ticks: 0, lateTicks: 0, droppedTicks: 0 };

  constructor(options: FrameSchedulerOptions = {}) {
    this.frameMs = options.frameMs ?? PCM_FORMAT.frameMs;
    this.maxBurstFrames = options.maxBurstFrames ?? MAX_BURST_FRAMES;
    this.nowMs = options.nowMs ?? (() => performance.now());
  }

  get isRunning(): boolean {
    return this.running;
  }

  stats(): FrameSchedulerStats {
    return { ...this.counters };
  }

  /** Subscribes a player; its first frame is prepared at once so the next tick can send it. */
  add(player: ScheduledPlayer): void {
    if (this.players.has(player)) return;
    this.players.add(player);
    this.playerList = [...this.players];
    this.prepareSafely(player);
    if (!this.running) this.start();
  }

  remove(player: ScheduledPlayer): void {
    if (!this.players.delete(player)) return;
    this.playerList = [...this.players];
    if (this.players.size === 0) this.stop();
  }

  private start(): void {
    this.running = true;
    this.generation++;
    this.nextDeadlineMs = this.nowMs() + this.frameMs;
    this.arm(this.generation);
  }

  private stop(): void {
    this.running = false;
    this.generation++;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(generation: number): void {
    const sleepMs = Math.max(1, this.nextDeadlineMs - this.nowMs());
    this.timer = setTimeout(() => this.cycle(generation), sleepMs);
  }

  private cycle(generation: number): void {
    if (generation !== this.generation) return;
    const nowMs = this.nowMs();
    const dueTicks = Math.floor((nowMs - this.nextDeadlineMs) / this.frameMs) + 1;
    // Timers round to whole milliseconds and may wake a fraction early.
    if (dueTicks < 1) {
      this.arm(generation);
      return;
    }
    const burstTicks = Math.min(dueTicks, this.maxBurstFrames);
    const droppedTicks = dueTicks - burstTicks;
    if (droppedTicks > 0) {
      this.nextDeadlineMs += droppedTicks * this.frameMs;
      this.counters.droppedTicks += droppedTicks;
      log.warn(
        { droppedTicks, stallMs: Math.round(nowMs - this.nextDeadlineMs) },
        'audio clock stalled; re-anchored',
      );
    }
    const players = this.playerList;
    for (let burst = 0; burst < burstTicks; burst++) {
      const tick: FrameTick = {
        latenessMs: nowMs - this.nextDeadlineMs,
        droppedTicks: burst === 0 ? droppedTicks : 0,
      };
      this.counters.ticks++;
      if (tick.latenessMs > LATE_FRAME_THRESHOLD_MS) this.counters.lateTicks++;
      for (const player of players) if (this.players.has(player)) this.dispatchSafely(player, tick);
      this.nextDeadlineMs += this.frameMs;
      // Catch-up ticks follow each other at once, so their frames are prepared inline.
      if (burst < burstTicks - 1)
        for (const player of players) if (this.players.has(player)) this.prepareSafely(player);
    }
    this.prepareInTurn(players, 0, generation);
  }

  private prepareInTurn(players: readonly ScheduledPlayer[], from: number, generation: number): void {
    if (generation !== this.generation) return;
    const sliceEndsMs = this.nowMs() + PREPARE_SLICE_MS;
    let index = from;
    for (; index < players.length && (index === from || this.nowMs() < sliceEndsMs); index++) {
      const player = players[index]!;
      if (this.players.has(player)) this.prepareSafely(player);
    }
    if (index >= players.length) this.arm(generation);
    else setImmediate(() => this.prepareInTurn(players, index, generation));
  }

  // One bot's bug must not stop the clock for every other bot. Two methods rather than one taking a
  // callback: these run for every bot on every tick, and a closure each time is garbage the clock's
  // own thread then has to collect.
  private dispatchSafely(player: ScheduledPlayer, tick: FrameTick): void {
    try {
      player.dispatch(tick);
    } catch (error) {
      log.error({ err: error, step: 'dispatch' }, 'audio player threw inside the frame clock');
    }
  }

  private prepareSafely(player: ScheduledPlayer): void {
    try {
      player.prepare();
    } catch (error) {
      log.error({ err: error, step: 'prepare' }, 'audio player threw inside the frame clock');
    }
  }
}

/** The process-wide clock every bot's player subscribes to. */
export const frameScheduler = new FrameScheduler();
