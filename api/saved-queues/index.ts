/** /api/saved-queues: named snapshots of a bot's queue, private or shared, loaded back into any bot. */
import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import {
  deleteSavedQueue,
  listSavedQueues,
  loadSavedQueue,
  saveQueue,
} from '../../openapi/routes/saved-queues';
import { mayUseSavedQueue, savedQueueOwnersFor } from '../../shared/access/object-rules';
import { canReachBot, hasCapability } from '../../shared/access/route-access';
import { savedQueues } from '../../shared/db/schema';
import { SHARED_QUEUE_OWNER } from '../../shared/domain/constants';
import { type Song, SongSchema } from '../../shared/domain/schemas';
import { say } from '../../shared/i18n/phrases';
import { readSettings } from '../../shared/settings/settings';
import { actorOf, type Principal, principalOf, requesterOf } from '../access/principal';
import type { BotClient } from '../bots/bot-client';
import type { AppDeps, AppEnv } from '../env';
import { ApiError, validationHook } from '../errors';
import { requestLocale } from '../locale';
import { receiptBody, undoField } from '../receipt-body';

export const SAVED_QUEUES_PER_OWNER = 50;
export const SAVED_QUEUE_MAX_SONGS = 1000;

type SavedQueueRow = typeof savedQueues.$inferSelect;

/** A stored blob that does not parse reads as an empty queue (SPEC). */
function storedSongs(row: SavedQueueRow): Song[] {
  try {
    const parsed = z.array(SongSchema).safeParse(JSON.parse(row.songs));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** The list item; its count is what loading it would load (a corrupt blob: 0). */
const publicQueue = (row: SavedQueueRow) => ({
  id: row.id,
  ownerId: row.ownerId,
  name: row.name,
  songCount: storedSongs(row).length,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Chat users have no account: what the chat service saves goes to the shared bucket. */
const ownerFor = (principal: Principal, shared: boolean | undefined) =>
  shared || principal.credential.kind === 'service' ? SHARED_QUEUE_OWNER : principal.userId;

export function savedQueueRoutes({ db }: AppDeps, bots: BotClient) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  // SPEC: while saved queues are off the router answers 403, before a request is validated.
  const enabledOnly: MiddlewareHandler<AppEnv> = async (_c, next) => {
    if (!(await readSettings(db)).savedQueuesEnabled) throw new ApiError(403, say.savedQueuesDisabled());
    await next();
  };
  app.use('/api/saved-queues', enabledOnly);
  app.use('/api/saved-queues/*', enabledOnly);

  /** A queue the caller may load or delete (object-rules.ts); any other reads as absent. */
  const usableQueue = async (principal: Principal, id: string) => {
    const row = await db.query.savedQueues.findFirst({ where: eq(savedQueues.id, id) });
    if (!row || !mayUseSavedQueue(principal, row)) {
      throw new ApiError(404, 'saved queue not found');
    }
    return row;
  };
  const requireBot = (principal: Principal, botId: string) => {
    if (!canReachBot(principal, botId)) throw new ApiError(403, say.noBotAccess());
  };

  return app
    .openapi(listSavedQueues, async (c) => {
      const principal = principalOf(c);
      // The rule's owners as a filter: the queues listed are exactly those the caller may load or delete.
      const rows = await db
        .select()
        .from(savedQueues)
        .where(inArray(savedQueues.ownerId, savedQueueOwnersFor(principal)))
        .orderBy(savedQueues.name);
      return c.json({ queues: rows.map(publicQueue) }, 200);
    })

    .openapi(saveQueue, async (c) => {
      const principal = principalOf(c);
      const { botId, name, shared } = c.req.valid('json');
      requireBot(principal, botId);
      const { data } = await bots.call(botId, 'queue', {}, actorOf(principal));
      // Who asked for each song and its entry id belong to that session of the queue, not to the list.
      const songs: Song[] = data.queue.map(({ requestedBy: _by, entryId: _entry, ...song }) => song);
      if (!songs.length) throw new ApiError(400, 'the queue is empty; nothing to save');
      if (songs.length > SAVED_QUEUE_MAX_SONGS) {
        throw new ApiError(400, `a saved queue holds at most ${SAVED_QUEUE_MAX_SONGS} songs`);
      }
      const ownerId = ownerFor(principal, shared);
      const now = new Date();
      const existing = await db.query.savedQueues.findFirst({
        where: and(eq(savedQueues.ownerId, ownerId), eq(savedQueues.name, name)),
      });
      const content = { songs: JSON.stringify(songs), songCount: songs.length, updatedAt: now };
      if (existing) {
        await db.update(savedQueues).set(content).where(eq(savedQueues.id, existing.id));
        return c.json({ queue: publicQueue({ ...existing, ...content }) }, 200);
      }
      const [owned] = await db
        .select({ n: count() })
        .from(savedQueues)
        .where(eq(savedQueues.ownerId, ownerId));
      if ((owned?.n ?? 0) >= SAVED_QUEUES_PER_OWNER) {
        throw new ApiError(409, `at most ${SAVED_QUEUES_PER_OWNER} saved queues; delete one first`);
      }
      const row = { id: randomUUID(), ownerId, name, createdAt: now, ...content };
      await db.insert(savedQueues).values(row);
      return c.json({ queue: publicQueue(row) }, 200);
    })

    .openapi(loadSavedQueue, async (c) => {
      const principal = principalOf(c);
      const row = await usableQueue(principal, c.req.valid('param').id);
      const { botId, mode = 'replace' } = c.req.valid('json');
      requireBot(principal, botId);
      if (!hasCapability(principal, 'player.queue'))
        throw new ApiError(403, say.missingCapability('player.queue'));
      const songs = storedSongs(row);
      if (!songs.length)
        return c.json(
          { ok: false, loaded: 0, mode, ...receiptBody([say.emptyList(row.name)], requestLocale(c)) },
          200,
        );
      const { ok, said, data } = await bots.call(
        botId,
        'loadSongs',
        { songs, mode, label: row.name, requestedBy: requesterOf(principal) },
        actorOf(principal),
      );
      // Nothing in the list could be played: the bot kept its queue, so nothing was loaded.
      const answer = { ok, loaded: ok ? songs.length : 0, mode, ...receiptBody(said, requestLocale(c)) };
      return c.json({ ...answer, ...undoField(data) }, 200);
    })

    .openapi(deleteSavedQueue, async (c) => {
      const row = await usableQueue(principalOf(c), c.req.valid('param').id);
      await db.delete(savedQueues).where(eq(savedQueues.id, row.id));
      return c.json({ ok: true as const }, 200);
    });
}
