/**
 * How a daemon comes to own bots, seen from the daemon: it is told to take a bot on (`own`) or to let
 * one go (`release`), and tells the ownership about bots created and removed. Two implementations:
 * SoleOwnership (one process, `make run`: the only daemon owns every bot) and LeaseKeeper (scaled out:
 * a liveness lease per daemon and an ownership record per bot in JetStream, see lease-keeper.ts).
 */

/** What the bot's previous owner left in its record. */
export interface PreviousOwner {
  /** The bot was in a voice session: reconnect it. */
  active: boolean;
}

/**
 * - `lost`: the bot was lost (not renewed in time, or taken): stop the voice session at once and
 *   leave the queue snapshot alone, it belongs to the next owner now.
 * - `handover`: the bot moves to another daemon (this one stops, drains or evens out the load): save
 *   the snapshot with its position, disconnect, then its record is freed for the next owner.
 */
export type ReleaseReason = 'lost' | 'handover';

export interface OwnershipHooks {
  /** Every bot id in the database. */
  listBots(): Promise<string[]>;
  /**
   * Takes the bot on (`previous` undefined when no lease said anything about it). Resolves false when
   * the bot no longer exists, and the lease is given back.
   */
  own(botId: string, previous: PreviousOwner | undefined): Promise<boolean>;
  release(botId: string, reason: ReleaseReason): Promise<void>;
  /** Whether an owned bot is in a voice session now (recorded for the next owner when it moves). */
  isActive(botId: string): boolean;
}

export interface BotOwnership {
  /** Takes on the bots this daemon wins now; resolves once they are owned. */
  start(): Promise<void>;
  botCreated(botId: string): void;
  /** The daemon has already let the bot go; its lease is deleted. */
  botRemoved(botId: string): Promise<void>;
  /**
   * Graceful stop: hands every bot over for another daemon to take at once (one at a time while another
   * daemon is live and the stop leaves time for it).
   */
  handOver(): Promise<void>;
  /** Moves every bot to the other daemons, one at a time; refused when no other daemon could take them. */
  drain(): DrainStart;
}

/** A drain that started (`done` once every bot has a new owner), or none: this daemon is alone. */
export type DrainStart = { started: true; bots: number; done: Promise<void> } | { started: false };

export type OwnershipFactory = (hooks: OwnershipHooks) => BotOwnership;
