/** /api/player/{botId}: each call becomes one bot operation on the bus; the reply carries the receipt. */
import { OpenAPIHono } from '@hono/zod-openapi';
import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import * as routes from '../../openapi/routes/player';
import type { BotOp, BotOpArgs } from '../../shared/bus/bot-ops';
import { BOTS_EVENTS } from '../../shared/bus/subjects';
import { bots, playHistory } from '../../shared/db/schema';
import { DEFAULT_PROFILE_CONFIG, PLATFORMS, type Platform } from '../../shared/domain/constants';
import { BotStatusSchema, QueuedSongSchema, type Song } from '../../shared/domain/schemas';
import { receipts } from '../../shared/receipts';
import type { SongList } from '../../shared/sources/song-catalog';
import type { Principal } from '../auth/principal';
import { findBot } from '../bots/find-bot';
import type { AppDeps, AppEnv } from '../env';
import { ApiError, validationHook } from '../errors';
import { receiptOf, requesterOf, runBotOp } from './bot-op';
import type { SongFinder } from './find-songs';

const QueueDataSchema = z.object({ queue: z.array(QueuedSongSchema), status: BotStatusSchema });
const SeekDataSchema = z.object({ seekOffset: z.number() });
const ElapsedDataSchema = z.object({ elapsed: z.number() });
const isPlatform = (p: string): p is Platform => (PLATFORMS as readonly string[]).includes(p);
const HISTORY_DEFAULT_LIMIT = 50;

/** One player call: who asks, for which bot. */
class PlayerCall {
  constructor(
    private readonly deps: AppDeps,
    private readonly principal: Principal,
    readonly botId: string,
  ) {}

  /** Runs an op; `ok` is false when it answered but did not do what was asked (a song that cannot play). */
  async outcome<Op extends BotOp>(op: Op, args: BotOpArgs<Op>): Promise<{ ok: boolean; message: string }> {
    const reply = await runBotOp(this.deps, this.principal, this.botId, op, args);
    return { ok: reply.ok, message: receiptOf(reply) };
  }

  /** Runs an op and returns its receipt. */
  async receipt<Op extends BotOp>(op: Op, args: BotOpArgs<Op>): Promise<string> {
    return (await this.outcome(op, args)).message;
  }

  /** Runs an op and returns its data. */
  async data<Op extends BotOp>(op: Op, args: BotOpArgs<Op>): Promise<{ message: string; data: unknown }> {
    const reply = await runBotOp(this.deps, this.principal, this.botId, op, args);
    return { message: receiptOf(reply), data: reply.data };
  }

  /** Enqueues or plays one song, recording who asked. */
  song(
    op: 'playSong' | 'playNowSong' | 'playNextSong' | 'addSong',
    song: Song,
  ): Promise<{ ok: boolean; message: string }> {
    return this.outcome(op, { song, requestedBy: requesterOf(this.principal) });
  }

  /** Loads a collection under a label (playlist, album); `totalCount` is set when the source filtered it. */
  load({ songs, totalCount }: SongList, mode: 'replace' | 'append', label: string) {
    return this.outcome('loadSongs', {
      songs,
      mode,
      label,
      requestedBy: requesterOf(this.principal),
      ...(totalCount !== undefined && { totalCount }),
    });
  }
}

export function playerRoutes(deps: AppDeps, finder: SongFinder) {
  type Ctx = { get(key: 'principal'): Principal | undefined; req: { param(name: 'botId'): string } };
  const call = (c: Ctx) => new PlayerCall(deps, c.get('principal')!, c.req.param('botId'));

  return (
    new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
      // Search or look up first, then enqueue.
      .openapi(routes.play, async (c) => {
        const { query, platform } = c.req.valid('json');
        return c.json(
          { message: (await call(c).song('playSong', await finder.firstResult(query, platform))).message },
          200,
        );
      })
      .openapi(routes.add, async (c) => {
        const { query, platform } = c.req.valid('json');
        return c.json(
          { message: (await call(c).song('addSong', await finder.firstResult(query, platform))).message },
          200,
        );
      })
      .openapi(routes.playById, async (c) => {
        const { songId, platform } = c.req.valid('json');
        const { message } = await call(c).song('playSong', await finder.byId(songId, platform));
        return c.json({ message }, 200);
      })
      .openapi(routes.addById, async (c) => {
        const { songId, platform } = c.req.valid('json');
        const { message } = await call(c).song('addSong', await finder.byId(songId, platform));
        return c.json({ message }, 200);
      })

      // Song objects as the music endpoints return them.
      .openapi(routes.playSong, async (c) =>
        c.json(await call(c).song('playSong', c.req.valid('json').song), 200),
      )
      .openapi(routes.playNowSong, async (c) =>
        c.json(await call(c).song('playNowSong', c.req.valid('json').song), 200),
      )
      .openapi(routes.playNextSong, async (c) =>
        c.json(await call(c).song('playNextSong', c.req.valid('json').song), 200),
      )
      .openapi(routes.addSong, async (c) =>
        c.json({ message: (await call(c).song('addSong', c.req.valid('json').song)).message }, 200),
      )

      // Collections.
      .openapi(routes.playPlaylist, async (c) => {
        const { playlistId, platform } = c.req.valid('json');
        const list = await finder.collection('playlist', playlistId, platform);
        return c.json(await call(c).load(list, 'replace', `playlist ${playlistId}`), 200);
      })
      .openapi(routes.playAlbum, async (c) => {
        const { albumId, platform } = c.req.valid('json');
        const list = await finder.collection('album', albumId, platform);
        return c.json(await call(c).load(list, 'replace', `album ${albumId}`), 200);
      })
      .openapi(routes.appendPlaylist, async (c) => {
        const { playlistId, platform } = c.req.valid('json');
        const list = await finder.collection('playlist', playlistId, platform);
        const { message } = await call(c).load(list, 'append', `playlist ${playlistId}`);
        return c.json({ message }, 200);
      })
      .openapi(routes.startFm, async (c) => {
        const player = call(c);
        // SPEC Player rule 8: refuse before anything else when the bot is not connected.
        const { data } = await player.data('status', {});
        if (!BotStatusSchema.parse(data).connected) {
          throw new ApiError(409, receipts.notConnected(), { message: receipts.notConnected(), ok: false });
        }
        const songs = await finder.personalFm(c.req.valid('json').platform, c.get('principal')!.userId);
        return c.json(await player.load({ songs }, 'replace', receipts.personalFmLabel()), 200);
      })

      // Transport and queue edits.
      .openapi(routes.pause, async (c) => c.json({ message: await call(c).receipt('pause', {}) }, 200))
      .openapi(routes.resume, async (c) => c.json({ message: await call(c).receipt('resume', {}) }, 200))
      .openapi(routes.next, async (c) => c.json({ message: await call(c).receipt('next', {}) }, 200))
      .openapi(routes.prev, async (c) => c.json({ message: await call(c).receipt('prev', {}) }, 200))
      .openapi(routes.stop, async (c) => c.json({ message: await call(c).receipt('stopPlayback', {}) }, 200))
      .openapi(routes.clear, async (c) => c.json({ message: await call(c).receipt('clear', {}) }, 200))
      .openapi(routes.volume, async (c) =>
        c.json({ message: await call(c).receipt('volume', c.req.valid('json')) }, 200),
      )
      .openapi(routes.mode, async (c) =>
        c.json({ message: await call(c).receipt('mode', c.req.valid('json')) }, 200),
      )
      .openapi(routes.playAt, async (c) =>
        c.json({ message: await call(c).receipt('playAt', c.req.valid('json')) }, 200),
      )
      .openapi(routes.move, async (c) =>
        c.json({ message: await call(c).receipt('move', c.req.valid('json')) }, 200),
      )
      .openapi(routes.seek, async (c) => {
        const { message, data } = await call(c).data('seek', c.req.valid('json'));
        return c.json({ message, seekOffset: SeekDataSchema.parse(data).seekOffset }, 200);
      })
      .openapi(routes.removeAt, async (c) =>
        c.json({ message: await call(c).receipt('remove', { index: c.req.valid('param').index }) }, 200),
      )

      // Reads.
      .openapi(routes.getQueue, async (c) =>
        c.json(QueueDataSchema.parse((await call(c).data('queue', {})).data), 200),
      )
      .openapi(routes.getElapsed, async (c) =>
        c.json(ElapsedDataSchema.parse((await call(c).data('elapsed', {})).data), 200),
      )
      .openapi(routes.getHistory, async (c) => {
        const bot = await findBot(deps.db, c.req.valid('param').botId);
        const rows = await deps.db
          .select()
          .from(playHistory)
          .where(eq(playHistory.botId, bot.id))
          .orderBy(desc(playHistory.playedAt), desc(playHistory.id))
          .limit(c.req.valid('query').limit ?? HISTORY_DEFAULT_LIMIT);
        const history = rows.map((row) => ({
          id: row.id,
          name: row.name,
          artist: row.artist,
          album: row.album,
          coverUrl: row.coverUrl,
          platform: isPlatform(row.platform) ? row.platform : ('local' as const),
          playedAt: row.playedAt.toISOString(),
          requestedBy: row.requestedBy,
        }));
        return c.json({ history }, 200);
      })
      .openapi(routes.getProfile, async (c) => {
        const bot = await findBot(deps.db, c.req.valid('param').botId);
        return c.json({ ...DEFAULT_PROFILE_CONFIG, ...bot.profileConfig }, 200);
      })
      .openapi(routes.putProfile, async (c) => {
        const bot = await findBot(deps.db, c.req.valid('param').botId);
        const profileConfig = c.req.valid('json');
        await deps.db.update(bots).set({ profileConfig, updatedAt: new Date() }).where(eq(bots.id, bot.id));
        deps.bus.publish(BOTS_EVENTS, { type: 'botUpdated', botId: bot.id });
        return c.json(profileConfig, 200);
      })
  );
}
