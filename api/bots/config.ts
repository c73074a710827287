/** Bot configuration: create, update, delete, read. The daemons follow along through `bots.events`. */
import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import {
  createBot,
  deleteBot,
  getBotConfig,
  startBot,
  stopBot,
  updateBot,
} from '../../openapi/routes/bot-config';
import type { BotsEvent } from '../../shared/bus/messages';
import { BOTS_EVENTS } from '../../shared/bus/subjects';
import { botAvatars, bots } from '../../shared/db/schema';
import {
  AUTOMATIC_CLIENT_VERSION,
  type ClientVersionChoice,
  clientVersionOf,
} from '../../shared/domain/client-versions';
import { DEFAULT_SERVER_PORT } from '../../shared/domain/constants';
import type { BotStatus } from '../../shared/domain/schemas';
import { actorOf, type Principal, principalOf } from '../access/principal';
import type { AppDeps, AppEnv } from '../env';
import { validationHook } from '../errors';
import { requestLocale } from '../locale';
import { receiptBody } from '../receipt-body';
import { type BotClient, offlineStatus, type Unanswered } from './bot-client';
import { type BotRow, findBot } from './find-bot';

/**
 * How long a create waits for a daemon to take the new bot before answering with its stored state, and
 * a delete for the daemon to let the bot go.
 */
const OWNERSHIP_WAIT_MS = 2000;
const OWNERSHIP_POLL_MS = 25;

/** A stored version the table no longer has reads as automatic, as the daemon treats it. */
const storedClientVersion = (stored: string): ClientVersionChoice =>
  clientVersionOf(stored) ? (stored as ClientVersionChoice) : AUTOMATIC_CLIENT_VERSION;

/** '' clears an optional text field; absent leaves it. */
const clearable = (value: string | undefined) =>
  value === undefined ? undefined : value === '' ? null : value;

export function publicConfig(bot: BotRow, hasAvatar: boolean) {
  return {
    id: bot.id,
    name: bot.name,
    serverAddress: bot.serverAddress,
    serverPort: bot.serverPort,
    nickname: bot.nickname,
    defaultChannel: bot.defaultChannel,
    channelId: bot.channelId,
    autoStart: bot.autoStart,
    clientVersion: storedClientVersion(bot.clientVersion),
    hasServerPassword: Boolean(bot.serverPassword),
    hasChannelPassword: Boolean(bot.channelPassword),
    hasAvatar,
  };
}

export function botConfigRoutes({ db, bus }: AppDeps, client: BotClient) {
  const announce = (event: BotsEvent) => bus.publish(BOTS_EVENTS, event);

  /**
   * Asks for the bot's status until `settled` accepts what was heard (or a daemon does not answer in
   * time, or OWNERSHIP_WAIT_MS has passed): what was heard last.
   */
  async function statusUntil(
    botId: string,
    principal: Principal,
    settled: (heard: BotStatus | Unanswered) => boolean,
  ): Promise<BotStatus | Unanswered> {
    const deadline = Date.now() + OWNERSHIP_WAIT_MS;
    for (;;) {
      const heard = await client.probe(botId, 'status', actorOf(principal));
      if (heard === 'timeout' || settled(heard) || Date.now() > deadline) return heard;
      await new Promise((r) => setTimeout(r, OWNERSHIP_POLL_MS));
    }
  }

  /** The status of a bot a daemon is just taking on: retried briefly while nobody answers yet. */
  async function statusOfNewBot(bot: BotRow, principal: Principal): Promise<BotStatus> {
    const heard = await statusUntil(bot.id, principal, (status) => status !== 'no-responders');
    return typeof heard === 'string' ? offlineStatus(bot) : heard;
  }

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(createBot, async (c) => {
      const body = c.req.valid('json');
      const now = new Date();
      const row = {
        id: randomUUID(),
        name: body.name,
        serverAddress: body.serverAddress,
        serverPort: body.serverPort ?? DEFAULT_SERVER_PORT,
        nickname: body.nickname,
        defaultChannel: body.defaultChannel || null,
        channelId: body.channelId || null,
        channelPassword: body.channelPassword || null,
        serverPassword: body.serverPassword || null,
        autoStart: body.autoStart ?? false,
        clientVersion: body.clientVersion ?? AUTOMATIC_CLIENT_VERSION,
        createdAt: now,
        updatedAt: now,
      };
      await db.insert(bots).values(row);
      announce({ type: 'botCreated', botId: row.id });
      const created = await findBot(db, row.id);
      return c.json(await statusOfNewBot(created, principalOf(c)), 201);
    })

    .openapi(updateBot, async (c) => {
      const bot = await findBot(db, c.req.valid('param').id);
      const body = c.req.valid('json');
      await db
        .update(bots)
        .set({
          name: body.name,
          serverAddress: body.serverAddress,
          serverPort: body.serverPort,
          nickname: body.nickname,
          defaultChannel: clearable(body.defaultChannel),
          channelId: clearable(body.channelId),
          channelPassword: clearable(body.channelPassword),
          serverPassword: clearable(body.serverPassword),
          autoStart: body.autoStart,
          clientVersion: body.clientVersion,
          updatedAt: new Date(),
        })
        .where(eq(bots.id, bot.id));
      announce({ type: 'botUpdated', botId: bot.id });
      return c.json({ success: true as const }, 200);
    })

    .openapi(deleteBot, async (c) => {
      const bot = await findBot(db, c.req.valid('param').id);
      // Grants, history, the avatar and the queue snapshot go by cascade.
      await db.delete(bots).where(eq(bots.id, bot.id));
      announce({ type: 'botRemoved', botId: bot.id });
      // Its daemon lets it go when it hears of the removal. Until then it would still answer for the
      // bot, so the delete ends once nobody does: whoever asks next hears 404, not its last status.
      await statusUntil(bot.id, principalOf(c), (status) => status === 'no-responders');
      return c.body(null, 204);
    })

    .openapi(getBotConfig, async (c) => {
      const bot = await findBot(db, c.req.valid('param').id);
      const avatar = await db.query.botAvatars.findFirst({
        where: eq(botAvatars.botId, bot.id),
        columns: { botId: true },
      });
      return c.json(publicConfig(bot, avatar !== undefined), 200);
    })

    .openapi(startBot, async (c) => {
      const { data, said } = await client.call(c.req.valid('param').id, 'start', {}, actorOf(principalOf(c)));
      return c.json({ ...data, ...receiptBody(said, requestLocale(c)) }, 200);
    })
    .openapi(stopBot, async (c) => {
      const { data } = await client.call(c.req.valid('param').id, 'stop', {}, actorOf(principalOf(c)));
      return c.json(data, 200);
    });
}
