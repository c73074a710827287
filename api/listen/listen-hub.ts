/**
 * This api process's side of listening along (GET /api/player/{botId}/listen). Per bot with listeners
 * here: one subscription to the bot's frames (`bot.<id>.listen`), and the count reported to the bot's
 * daemon (the `listen` op) on every change and every RENEW_MS, so the daemon publishes only while
 * someone listens. Every listener gets its own Ogg stream of the same packets (no decoding, no
 * encoding), through a bounded buffer: one that falls MAX_BUFFERED_BYTES behind is dropped.
 */
import { randomUUID } from 'node:crypto';
import type { Bus, Subscription } from '../../shared/bus/bus';
import { type Actor, ListenBatchSchema } from '../../shared/bus/messages';
import { botListenSubject } from '../../shared/bus/subjects';
import { logger } from '../../shared/logger';
import type { BotClient } from '../bots/bot-client';
import { OggOpusMuxer } from './ogg-opus-muxer';

const log = logger('api.listen');
/** Renewal of the count; the daemon forgets a hub after 6 s without one (daemon/bots/listen/listen-feed.ts). */
const RENEW_MS = 2000;
/** About 2 s of audio at the bot's 96 kbit/s, with the Ogg framing: a listener further behind is cut off. */
export const MAX_BUFFERED_BYTES = 26 * 1024;

class Listener {
  readonly stream: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private readonly muxer = new OggOpusMuxer((Math.random() * 0x1_0000_0000) >>> 0);
  private ended = false;

  constructor(private readonly onEnd: (listener: Listener) => void) {
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
          controller.enqueue(this.muxer.headers());
        },
        cancel: () => {
          this.ended = true;
          this.onEnd(this);
        },
      },
      { highWaterMark: MAX_BUFFERED_BYTES, size: (chunk) => chunk.byteLength },
    );
  }

  /** Adds the packets, or ends the stream of a listener too far behind to keep. */
  write(packets: readonly Uint8Array[]): void {
    if (this.ended) return;
    if ((this.controller.desiredSize ?? 0) <= 0) this.end();
    else this.controller.enqueue(this.muxer.audio(packets));
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.controller.close();
    this.onEnd(this);
  }
}

/** One bot's listeners in this process. */
class BotListeners {
  readonly listeners = new Set<Listener>();
  private readonly subscription: Subscription;
  private readonly renewal: NodeJS.Timeout;

  constructor(
    readonly botId: string,
    bus: Bus,
    private readonly report: (count: number) => Promise<void>,
  ) {
    this.subscription = bus.subscribe(botListenSubject(botId), (data) => this.deliver(data));
    this.renewal = setInterval(() => {
      this.report(this.listeners.size).catch((error: unknown) =>
        log.debug({ err: error, bot: botId }, 'could not renew the listener count; the next renewal will'),
      );
    }, RENEW_MS);
  }

  close(): void {
    clearInterval(this.renewal);
    this.subscription.unsubscribe();
  }

  private deliver(data: unknown): void {
    const batch = ListenBatchSchema.safeParse(data);
    if (!batch.success) return void log.warn({ bot: this.botId }, 'a listen batch that does not parse');
    const packets = batch.data.frames.map((frame) => new Uint8Array(Buffer.from(frame, 'base64')));
    for (const listener of this.listeners) listener.write(packets);
  }
}

export class ListenHub {
  /** This process among the api processes that report to one daemon. */
  private readonly id = randomUUID();
  private readonly bots = new Map<string, BotListeners>();

  constructor(
    private readonly bus: Bus,
    private readonly botClient: BotClient,
  ) {}

  /**
   * A new listener's stream, once the bot's daemon has counted it: an unknown bot is a 404, a bot no
   * daemon runs a 503 (thrown by the bot client), and nothing is left behind for either.
   */
  async open(botId: string, actor: Actor): Promise<ReadableStream<Uint8Array>> {
    let bot = this.bots.get(botId);
    if (!bot) {
      bot = new BotListeners(botId, this.bus, (count) => this.report(botId, count, actor));
      this.bots.set(botId, bot);
    }
    const listener = new Listener((ended) => this.leave(botId, ended));
    bot.listeners.add(listener);
    try {
      await this.report(botId, bot.listeners.size, actor);
    } catch (error) {
      listener.end();
      throw error;
    }
    return listener.stream;
  }

  /** Listeners in this process, over every bot. */
  get listenerCount(): number {
    let count = 0;
    for (const bot of this.bots.values()) count += bot.listeners.size;
    return count;
  }

  /** Ends every stream (a shutdown: the players reconnect, behind a proxy to another api process). */
  close(): void {
    for (const bot of [...this.bots.values()]) for (const listener of [...bot.listeners]) listener.end();
  }

  private leave(botId: string, listener: Listener): void {
    const bot = this.bots.get(botId);
    if (!bot?.listeners.delete(listener)) return;
    const actor = { id: 'listen-hub', username: 'listen', role: 'member' } as const;
    this.report(botId, bot.listeners.size, actor).catch((error: unknown) =>
      log.debug({ err: error, bot: botId }, 'could not report a listener leaving; the daemon forgets it'),
    );
    if (bot.listeners.size > 0) return;
    bot.close();
    this.bots.delete(botId);
  }

  private async report(botId: string, listeners: number, actor: Actor): Promise<void> {
    await this.botClient.call(botId, 'listen', { hub: this.id, listeners }, actor);
  }
}
