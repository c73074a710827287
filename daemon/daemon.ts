/**
 * The daemon: owns bots, answers their commands on `bot.<id>.cmd`, and follows lifecycle events on
 * `bots.events` to take on new bots and let go of removed ones. Commands for one bot run one at a
 * time, so a bot's queue has a single writer.
 */
import { eq } from 'drizzle-orm';
import type { Bus, Subscription } from '../shared/bus/bus';
import { BotCommandSchema, type BotReply, BotsEventSchema } from '../shared/bus/messages';
import { BOTS_EVENTS, botCommandSubject } from '../shared/bus/subjects';
import type { Db } from '../shared/db/client';
import { bots } from '../shared/db/schema';
import { logger } from '../shared/logger';
import { BotRuntime } from './bots/bot-runtime';
import { SerialExecutor } from './bots/serial-executor';

const log = logger('daemon');

export interface DaemonDeps {
  db: Db;
  bus: Bus;
  daemonId: string;
}

interface OwnedBot {
  runtime: BotRuntime;
  subscription: Subscription;
  serial: SerialExecutor;
}

export class Daemon {
  private readonly owned = new Map<string, OwnedBot>();
  private eventsSubscription: Subscription | undefined;

  constructor(private readonly deps: DaemonDeps) {}

  async start(): Promise<void> {
    this.eventsSubscription = this.deps.bus.subscribe(BOTS_EVENTS, (data) => void this.onBotsEvent(data));
    for (const row of await this.deps.db.select().from(bots)) this.own(row);
    await this.deps.bus.flush();
    log.info({ daemonId: this.deps.daemonId, bots: this.owned.size }, 'daemon started');
  }

  async stop(): Promise<void> {
    this.eventsSubscription?.unsubscribe();
    await Promise.all([...this.owned.keys()].map((id) => this.release(id)));
  }

  ownedBotIds(): string[] {
    return [...this.owned.keys()];
  }

  private own(row: typeof bots.$inferSelect): void {
    if (this.owned.has(row.id)) return;
    const runtime = new BotRuntime(row);
    const serial = new SerialExecutor();
    const subscription = this.deps.bus.respond(botCommandSubject(row.id), (data) =>
      serial.run(() => this.dispatch(runtime, data)),
    );
    this.owned.set(row.id, { runtime, subscription, serial });
  }

  private async release(botId: string): Promise<void> {
    const bot = this.owned.get(botId);
    if (!bot) return;
    this.owned.delete(botId);
    bot.subscription.unsubscribe();
    await bot.runtime.dispose();
  }

  private async dispatch(runtime: BotRuntime, data: unknown): Promise<BotReply> {
    const command = BotCommandSchema.safeParse(data);
    if (!command.success) return { ok: false, status: 400, message: 'malformed bot command' };
    return runtime.handle(command.data);
  }

  private async onBotsEvent(data: unknown): Promise<void> {
    const event = BotsEventSchema.safeParse(data);
    if (!event.success) return log.warn('ignored a malformed bots event');
    const { type, botId } = event.data;
    if (type === 'botRemoved') return this.release(botId);
    const row = await this.deps.db.query.bots.findFirst({ where: eq(bots.id, botId) });
    if (!row) return;
    if (type === 'botCreated') {
      this.own(row);
      await this.deps.bus.flush();
    } else {
      this.owned.get(botId)?.runtime.reconfigure(row);
    }
  }
}
