/**
 * The WebSocket gateway at /ws. Each api process holds one bus subscription per subject family
 * (bot states, bot lifecycle, guest mode) and fans messages out to the sockets whose principal may
 * see that bot, so a thousand browsers watching one bot still cost one subscription.
 *
 * State arrives by wildcard (`bot.*.state`), so a bot that is rebuilt or restarted keeps reaching
 * sockets that were open before.
 */
import { asc } from 'drizzle-orm';
import type { Subscription } from '../../shared/bus/bus';
import { BotStateEventSchema, BotsEventSchema, GuestModeEventSchema } from '../../shared/bus/messages';
import { ALL_BOT_STATES, BOTS_EVENTS, GUEST_MODE_EVENTS } from '../../shared/bus/subjects';
import { bots } from '../../shared/db/schema';
import { logger } from '../../shared/logger';
import { WS_CLOSE_GUEST_MODE_DISABLED, type WsMessage } from '../../shared/ws-messages';
import { actorOf, canReachBot, type Principal } from '../auth/principal';
import type { BotClient } from '../bots/bot-client';
import type { AppDeps } from '../env';

const log = logger('api.ws');

/** What the gateway needs of a socket; the transport (ws via @hono/node-ws) stays outside. */
export interface GatewaySocket {
  send(text: string): void;
  close(code: number, reason: string): void;
}

interface Client {
  socket: GatewaySocket;
  principal: Principal;
  /** Messages that arrive before the hello went out, sent right after it, in order. */
  pending: WsMessage[] | undefined;
}

export class WsGateway {
  private readonly clients = new Set<Client>();
  private readonly subscriptions: Subscription[];

  constructor(
    private readonly deps: AppDeps,
    private readonly botClient: BotClient,
  ) {
    const { bus } = deps;
    this.subscriptions = [
      bus.subscribe(ALL_BOT_STATES, (data) => this.onState(data)),
      bus.subscribe(BOTS_EVENTS, (data) => this.onBotsEvent(data)),
      bus.subscribe(GUEST_MODE_EVENTS, (data) => this.onGuestMode(data)),
    ];
  }

  get size(): number {
    return this.clients.size;
  }

  /**
   * Registers a socket and greets it with the bots it may see. The socket is registered before the
   * hello is built, so no change in between is lost; such changes follow the hello.
   */
  async open(socket: GatewaySocket, principal: Principal): Promise<() => void> {
    const client: Client = { socket, principal, pending: [] };
    this.clients.add(client);
    const leave = () => void this.clients.delete(client);
    try {
      const rows = await this.deps.db.select().from(bots).orderBy(asc(bots.createdAt));
      const visible = rows.filter((bot) => canReachBot(client.principal, bot.id));
      const statuses = await Promise.all(
        visible.map((bot) => this.botClient.listedStatus(bot, actorOf(principal))),
      );
      const pending = client.pending ?? [];
      client.pending = undefined;
      this.send(client, { type: 'hello', bots: statuses });
      for (const message of pending) this.send(client, message);
    } catch (error) {
      log.warn({ err: error }, 'could not greet a socket');
      leave();
      socket.close(1011, 'could not load bots');
    }
    return leave;
  }

  close(): void {
    for (const sub of this.subscriptions) sub.unsubscribe();
    this.clients.clear();
  }

  private send(client: Client, message: WsMessage): void {
    if (client.pending) {
      client.pending.push(message);
      return;
    }
    try {
      client.socket.send(JSON.stringify(message));
    } catch (error) {
      log.debug({ err: error }, 'dropping a socket that failed to send');
      this.clients.delete(client);
    }
  }

  private broadcast(botId: string, message: WsMessage): void {
    for (const client of this.clients) if (canReachBot(client.principal, botId)) this.send(client, message);
  }

  private onState(data: unknown): void {
    const event = BotStateEventSchema.safeParse(data);
    if (!event.success) {
      log.warn('ignored a malformed bot state');
      return;
    }
    const { bot, queue } = event.data;
    this.broadcast(bot.id, { type: 'status', bot });
    if (queue) this.broadcast(bot.id, { type: 'queue', botId: bot.id, queue });
  }

  private onBotsEvent(data: unknown): void {
    const event = BotsEventSchema.safeParse(data);
    if (!event.success || event.data.type !== 'botRemoved') return;
    // Sent to everyone: a removed bot is gone for every principal, and its id reveals nothing.
    for (const client of this.clients) this.send(client, { type: 'botRemoved', botId: event.data.botId });
  }

  private onGuestMode(data: unknown): void {
    const event = GuestModeEventSchema.safeParse(data);
    if (!event.success) return;
    for (const client of [...this.clients]) {
      if (client.principal.role !== 'guest') continue;
      if (!event.data.enabled) {
        this.clients.delete(client);
        client.socket.close(WS_CLOSE_GUEST_MODE_DISABLED, 'guest mode disabled');
        continue;
      }
      const before = client.principal;
      client.principal = { ...before, bots: event.data.bots };
      // Bots that fell out of the guest list disappear from this socket's view.
      const lost =
        before.bots === 'all' ? [] : before.bots.filter((id) => !canReachBot(client.principal, id));
      for (const botId of lost) this.send(client, { type: 'botRemoved', botId });
    }
  }
}
