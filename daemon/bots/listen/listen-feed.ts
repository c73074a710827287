/**
 * The listen-along feed of one bot: the very Opus frames the bot sends to its channel, batched and
 * published on `bot.<id>.listen` for the api processes whose browsers listen
 * (GET /api/player/{botId}/listen). It runs only while someone listens: each api process ("hub")
 * reports its listener count, and a report not renewed within HUB_EXPIRY_MS no longer counts.
 *
 * The frame clock only hands a frame over (`push`, a copy, while active); batching, the silence that
 * keeps the stream continuous while paused or idle, and publishing happen on this feed's own timer.
 */
import { OPUS_SILENCE_FRAME } from '../../audio/encode/opus-silence-frame';
import { PCM_FORMAT } from '../../audio/pcm-format';

/**
 * 10 frames of 20 ms per message. Each batch is one write per listener, and those writes are most of
 * the cost of many listeners (bench/listen-bench.ts): 200 ms halves them against 100 ms, and a new
 * listener still hears the bot well within a second.
 */
export const LISTEN_BATCH_MS = 200;
/** Hubs renew every 2 s (api/listen/listen-hub.ts); three missed renewals and the hub is gone. */
export const HUB_EXPIRY_MS = 6000;
/** Frames the clock may run late before silence is filled in (jitter, not a pause). */
const LATE_FRAMES_TOLERATED = 2;

export interface ListenFeedOptions {
  /** Publishes one batch: base64 Opus frames, oldest first. */
  publish(frames: string[]): void;
  /** Called when the listener count changes (the bot status shows it). */
  onListenersChange(): void;
  /** Starts and stops handing frames over (the voice sink's tap). */
  tap(push: ((frame: Uint8Array) => void) | undefined): void;
  now?: () => number;
}

export class ListenFeed {
  private readonly hubs = new Map<string, { listeners: number; expiresAt: number }>();
  private pending: Uint8Array[] = [];
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private framesOut = 0;
  private readonly now: () => number;

  constructor(private readonly options: ListenFeedOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /** How many listen now, over every hub. */
  get listeners(): number {
    let total = 0;
    for (const hub of this.hubs.values()) total += hub.listeners;
    return total;
  }

  /** A hub's report (0 when its last listener left); the feed starts or stops to match. */
  report(hub: string, listeners: number): void {
    const before = this.listeners;
    if (listeners > 0) this.hubs.set(hub, { listeners, expiresAt: this.now() + HUB_EXPIRY_MS });
    else this.hubs.delete(hub);
    this.apply(before);
  }

  dispose(): void {
    this.hubs.clear();
    this.stop();
  }

  private readonly push = (frame: Uint8Array) => {
    this.pending.push(frame.slice());
  };

  private apply(before: number): void {
    const after = this.listeners;
    if (after > 0 && !this.timer) this.start();
    if (after === 0 && this.timer) this.stop();
    if (after !== before) this.options.onListenersChange();
  }

  private start(): void {
    this.startedAt = this.now();
    this.framesOut = 0;
    this.pending = [];
    this.options.tap(this.push);
    this.timer = setInterval(() => this.flush(), LISTEN_BATCH_MS);
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.options.tap(undefined);
    this.pending = [];
  }

  private flush(): void {
    const now = this.now();
    const before = this.listeners;
    for (const [hub, { expiresAt }] of this.hubs) if (expiresAt <= now) this.hubs.delete(hub);
    if (this.listeners !== before) {
      this.apply(before);
      if (!this.timer) return;
    }
    const frames = this.pending;
    this.pending = [];
    // While the bot sends nothing (paused, idle, between songs) silence keeps the listeners' time going.
    const due = Math.floor((now - this.startedAt) / PCM_FORMAT.frameMs);
    const missing = due - LATE_FRAMES_TOLERATED - (this.framesOut + frames.length);
    for (let i = 0; i < missing; i++) frames.push(OPUS_SILENCE_FRAME);
    if (frames.length === 0) return;
    this.framesOut += frames.length;
    this.options.publish(
      frames.map((f) => Buffer.from(f.buffer, f.byteOffset, f.byteLength).toString('base64')),
    );
  }
}
