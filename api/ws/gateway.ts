/**
 * The WebSocket gateway at /ws. Each api process follows each subject family once (bot states, bot
 * lifecycle, guest mode) and fans messages out to the sockets whose principal may see that bot, so a
 * thousand browsers watching one bot still cost one subscription.
 *
 * Bot states come through the status view (api/bots/status-view.ts), which holds the process's one
 * subscription to `bot.*.state` (a wildcard, so a bot that is rebuilt or restarted keeps reaching
 * sockets that were open before); the hello lists bots from that same view.
 */

import { canReachBot } from '../../shared/access/route-access';
import type { Bus, Subscription } from '../../shared/bus/bus';
import { type BotStateEvent, BotsEventSchema, GuestModeEventSchema } from '../../shared/bus/messages';
import { BOTS_EVENTS, GUEST_MODE_EVENTS } from '../../shared/bus/subjects';
import { logger } from '../../shared/logger';
import { WS_CLOSE_GUEST_MODE_DISABLED, type WsMessage } from '../../shared/ws-messages';
import type { Principal } from '../auth/principal';
import type { BotLister } from '../bots/bot-list';
import type { BotStatusView } from '../bots/status-view';

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
  private readonly stopFollowingStates: () => void;

  constructor(
    bus: Bus,
    private readonly visibleBots: BotLister,
    statuses: BotStatusView,
  ) {
    this.stopFollowingStates = statuses.onState((event) => this.onState(event));
    this.subscriptions = [
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
      const statuses = await this.visibleBots(principal);
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
    this.stopFollowingStates();
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

  private onState({ bot, queue }: BotStateEvent): void {
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
