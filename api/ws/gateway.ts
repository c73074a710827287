/**
 * The WebSocket gateway at /ws. Each api process follows each subject family once (bot states, bot
 * lifecycle, account and guest-mode changes) and fans messages out to the sockets whose principal may
 * see that bot, so a thousand browsers watching one bot still cost one subscription.
 *
 * Bot states come through the status view (api/bots/status-view.ts), which holds the process's one
 * subscription to `bot.*.state` (a wildcard, so a bot that is rebuilt or restarted keeps reaching
 * sockets that were open before); the hello lists bots from that same view.
 *
 * A socket is authenticated once, at its upgrade, but must not outlive a change of rights: when an
 * account's rights or credentials change (ACCOUNTS_CHANGED, published by whichever api process made
 * the change) or guest mode changes, the principal of each of its sockets is read again as a request
 * would read it. A socket whose credential no longer authenticates is closed (WS_CLOSE_SIGNED_OUT);
 * one whose bots changed is told which it lost (`botRemoved`) and which it gained (`status`).
 *
 * Nor may a socket outlive its session: a session ends at its idle limit unless a request renews it,
 * and nothing announces that end. So the gateway sweeps its sockets now and then and reads again the
 * principal of each session socket whose end has come (a new socket's end is read at its first sweep):
 * a renewed session moves its end on, an ended one closes its socket.
 */

import { canReachBot } from '../../shared/access/route-access';
import type { Bus, Subscription } from '../../shared/bus/bus';
import { AccountsChangedEventSchema, type BotStateEvent, BotsEventSchema } from '../../shared/bus/messages';
import { ACCOUNTS_CHANGED, BOTS_EVENTS, GUEST_MODE_EVENTS } from '../../shared/bus/subjects';
import { logger } from '../../shared/logger';
import { WS_CLOSE_SIGNED_OUT, type WsMessage } from '../../shared/ws-messages';
import type { Principal } from '../access/principal';
import type { PrincipalReloader } from '../access/reload-principal';
import type { BotLister } from '../bots/bot-list';
import type { BotStatusView } from '../bots/status-view';
import type { GatewayOptions } from './gateway-options';

const log = logger('api.ws');

/** How often the sockets are swept for sessions that reached their end: how late such a socket may close. */
const SESSION_SWEEP_MS = 30_000;

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
  /** The check of this socket's principal under way; checks of one socket run one after another. */
  checking: Promise<void>;
  /** When its credential must be read again for its own sake (epoch ms): a session's end. */
  recheckAt: number;
}

export class WsGateway {
  private readonly clients = new Set<Client>();
  private readonly subscriptions: Subscription[];
  private readonly stopFollowingStates: () => void;
  private readonly sweep: NodeJS.Timeout;

  constructor(
    bus: Bus,
    private readonly visibleBots: BotLister,
    statuses: BotStatusView,
    private readonly reload: PrincipalReloader,
    { sessionSweepMs = SESSION_SWEEP_MS, now = Date.now }: GatewayOptions = {},
  ) {
    this.stopFollowingStates = statuses.onState((event) => this.onState(event));
    this.subscriptions = [
      bus.subscribe(BOTS_EVENTS, (data) => this.onBotsEvent(data)),
      bus.subscribe(ACCOUNTS_CHANGED, (data) => this.onAccountsChanged(data)),
      // Guest mode is the guest account's rights: its sockets are checked like any account's.
      bus.subscribe(GUEST_MODE_EVENTS, () =>
        this.recheckWhere((client) => client.principal.role === 'guest'),
      ),
    ];
    this.sweep = setInterval(() => {
      const at = now();
      this.recheckWhere((client) => client.recheckAt <= at);
    }, sessionSweepMs);
    this.sweep.unref();
  }

  get size(): number {
    return this.clients.size;
  }

  /**
   * Registers a socket and greets it with the bots it may see. The socket is registered before the
   * hello is built, so no change in between is lost; such changes follow the hello.
   */
  async open(socket: GatewaySocket, principal: Principal): Promise<() => void> {
    const client: Client = {
      socket,
      principal,
      pending: [],
      checking: Promise.resolve(),
      recheckAt: principal.credential.kind === 'session' ? 0 : Number.POSITIVE_INFINITY,
    };
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
    clearInterval(this.sweep);
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

  private onAccountsChanged(data: unknown): void {
    const event = AccountsChangedEventSchema.safeParse(data);
    if (!event.success) return;
    const changed = new Set(event.data.userIds);
    this.recheckWhere((client) => changed.has(client.principal.userId));
  }

  private recheckWhere(affected: (client: Client) => boolean): void {
    for (const client of this.clients) {
      if (!affected(client)) continue;
      client.checking = client.checking
        .then(() => this.recheck(client))
        .catch((error: unknown) => {
          // Failing closed: a socket whose rights cannot be read again is not left with the old ones.
          log.warn({ err: error }, 'could not check a socket again; closing it');
          this.clients.delete(client);
          client.socket.close(1011, 'could not check rights');
        });
    }
  }

  /** Reads the socket's principal again; closes the socket or moves it to the bots it now reaches. */
  private async recheck(client: Client): Promise<void> {
    if (!this.clients.has(client)) return;
    const before = client.principal;
    const reloaded = await this.reload(before);
    if (!this.clients.has(client)) return;
    if (!reloaded) {
      this.clients.delete(client);
      client.socket.close(WS_CLOSE_SIGNED_OUT, 'signed out');
      return;
    }
    // From here on pushes follow the new rights; the lists below only tell the browser what changed.
    const now = reloaded.principal;
    client.principal = now;
    client.recheckAt = reloaded.endsAt?.getTime() ?? Number.POSITIVE_INFINITY;
    const [had, has] = await Promise.all([this.visibleBots(before), this.visibleBots(now)]);
    if (!this.clients.has(client)) return;
    for (const bot of had)
      if (!canReachBot(now, bot.id)) this.send(client, { type: 'botRemoved', botId: bot.id });
    for (const bot of has) if (!canReachBot(before, bot.id)) this.send(client, { type: 'status', bot });
  }
}
