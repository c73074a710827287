/**
 * The bots' statuses as this api process last heard them, so listing bots (GET /api/bot, the
 * WebSocket hello) and reading one (GET /api/bot/{id}) need no bus round trip per bot: however fast
 * clients ask, a daemon answers at most about one status request per bot per second.
 *
 * - Heard from the daemons' `bot.<id>.state` events, which a daemon publishes after every change of
 *   a bot (whichever daemon runs it: a bot moving between daemons needs nothing here), and from the
 *   answers of status probes. This is the one subscription to bot states in the process; the
 *   WebSocket gateway follows it through `onState`.
 * - What was heard is trusted for ENTRY_TTL_MS. A daemon that dies publishes nothing, so its bots
 *   show as disconnected (their probe finds no responder) at most that long after. A bot with no
 *   fresh entry is probed as before, with one probe per bot at a time however many requests list it.
 * - What changes a bot through this process drops its entry at once: an op other than a read sent
 *   through the BotClient, and any `bots.events` message (configuration, removal). So a change made
 *   through one process shows in that process's next listing even before its state event arrives;
 *   another process sees it when the event arrives, milliseconds later. A removed bot's states that
 *   were still on their way are ignored: bot ids are never reused.
 * - A probe answer is kept only when nothing newer was heard of the bot while it travelled, and a
 *   probe sent before a change is not shared with those who ask after it.
 * - While the bus is down nothing is trusted (events are being missed): listing fails as before.
 * - The position of a playing bot moves on while nobody publishes, so `elapsed` is advanced by the
 *   time since it was heard (up to the track's length).
 */
import type { Bus } from '../../shared/bus/bus';
import {
  type Actor,
  type BotStateEvent,
  BotStateEventSchema,
  BotsEventSchema,
} from '../../shared/bus/messages';
import { ALL_BOT_STATES, BOTS_EVENTS } from '../../shared/bus/subjects';
import type { BotStatus } from '../../shared/domain/schemas';
import { logger } from '../../shared/logger';
import { type BotClient, offlineStatus, type Unanswered } from './bot-client';
import type { ListedBot } from './stored-bots';

const log = logger('api.bots');

/** How long a heard status stands for the bot's status without asking its daemon again. */
export const ENTRY_TTL_MS = 1000;

interface Entry {
  /** The status heard, why the last probe got no answer, or nothing: ask the daemon. */
  heard: BotStatus | Unanswered | undefined;
  /** When it was heard (a probe's answer counts from when the probe was sent). */
  at: number;
  /** The bot was deleted: nothing heard of it later stands (its daemon's last states may still arrive). */
  removed?: true;
}

export interface StatusViewOptions {
  /** A monotonic clock in milliseconds; tests pass their own. */
  now?: () => number;
}

export class BotStatusView {
  private readonly entries = new Map<string, Entry>();
  private readonly probes = new Map<string, Promise<BotStatus | Unanswered>>();
  private readonly listeners = new Set<(event: BotStateEvent) => void>();
  private readonly now: () => number;

  constructor(
    private readonly bus: Bus,
    private readonly client: BotClient,
    options: StatusViewOptions = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    bus.subscribe(ALL_BOT_STATES, (data) => this.onStateEvent(data));
    bus.subscribe(BOTS_EVENTS, (data) => this.onBotsEvent(data));
    client.onChange((botId) => this.forget(botId));
  }

  /** Calls `listener` with every well-formed bot state event; returns how to stop. */
  onState(listener: (event: BotStateEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * The bot's status: as heard within ENTRY_TTL_MS, or its daemon's answer now, or the stored bot
   * shown as disconnected when no daemon answers. A bus that is down is a 503 (BotClient.probe).
   */
  async statusOf(bot: ListedBot, actor: Actor): Promise<BotStatus> {
    if (!this.bus.available) this.entries.clear();
    const entry = this.entries.get(bot.id);
    if (entry?.heard !== undefined && this.now() - entry.at < ENTRY_TTL_MS) {
      return typeof entry.heard === 'string'
        ? offlineStatus(bot)
        : advanced(entry.heard, this.now() - entry.at);
    }
    const heard = await this.probe(bot.id, actor);
    return typeof heard === 'string' ? offlineStatus(bot) : heard;
  }

  /**
   * The bot's status as its daemon told it within ENTRY_TTL_MS, or undefined (nothing fresh, or its
   * last probe found no daemon): then only the daemon itself can answer.
   */
  freshStatus(botId: string): BotStatus | undefined {
    if (!this.bus.available) return undefined;
    const entry = this.entries.get(botId);
    if (entry?.heard === undefined || typeof entry.heard === 'string') return undefined;
    const ageMs = this.now() - entry.at;
    return ageMs < ENTRY_TTL_MS ? advanced(entry.heard, ageMs) : undefined;
  }

  /**
   * Whether the last status heard of the bot (a state event or a probe's answer) said it is connected,
   * however long ago, with nothing since that put it in doubt (the changes that drop an entry, above).
   * Unlike a status shown to a user, this does not go stale: a play that trusts it is sent to the
   * bot's daemon anyway, whose answer finds a bot disconnected or a daemon gone since.
   */
  heardConnected(botId: string): boolean {
    if (!this.bus.available) return false;
    const heard = this.entries.get(botId)?.heard;
    return typeof heard === 'object' && heard.connected;
  }

  private probe(botId: string, actor: Actor): Promise<BotStatus | Unanswered> {
    const running = this.probes.get(botId);
    if (running) return running;
    const sentAt = this.now();
    const probe = this.client
      .probe(botId, 'status', actor)
      .then((heard) => {
        const current = this.entries.get(botId);
        if (this.bus.available && !current?.removed && (!current || current.at <= sentAt))
          this.entries.set(botId, { heard, at: sentAt });
        return heard;
      })
      .finally(() => {
        if (this.probes.get(botId) === probe) this.probes.delete(botId);
      });
    this.probes.set(botId, probe);
    return probe;
  }

  /**
   * Drops what was heard of the bot, and lets no later caller share a probe sent before now. A removed
   * bot stays removed.
   */
  private forget(botId: string, removed = this.entries.get(botId)?.removed === true): void {
    this.entries.set(botId, {
      heard: undefined,
      at: this.now(),
      ...(removed ? { removed: true as const } : {}),
    });
    this.probes.delete(botId);
  }

  private onStateEvent(data: unknown): void {
    const event = BotStateEventSchema.safeParse(data);
    if (!event.success) {
      log.warn('ignored a malformed bot state');
      return;
    }
    if (this.entries.get(event.data.bot.id)?.removed) return;
    this.entries.set(event.data.bot.id, { heard: event.data.bot, at: this.now() });
    for (const listener of this.listeners) listener(event.data);
  }

  private onBotsEvent(data: unknown): void {
    const event = BotsEventSchema.safeParse(data);
    if (!event.success) return;
    if (event.data.type === 'botRemoved') this.forget(event.data.botId, true);
    else this.forget(event.data.botId);
  }
}

/** A playing bot's status `ageMs` after it was heard: its position moved on meanwhile. */
function advanced(status: BotStatus, ageMs: number): BotStatus {
  if (!status.playing || status.paused || ageMs <= 0) return status;
  const end = status.effectiveDuration ?? Number.POSITIVE_INFINITY;
  const elapsed = Math.min(end, status.elapsed + ageMs / 1000);
  return { ...status, elapsed: Math.round(elapsed * 1000) / 1000 };
}
