/** /api/player/{botId}: each call becomes one bot operation on the bus; the reply carries the receipt. */
import { OpenAPIHono } from '@hono/zod-openapi';
import { desc, eq } from 'drizzle-orm';
import * as routes from '../../openapi/routes/player';
import type { BotOp, BotOpArgs } from '../../shared/bus/bot-ops';
import type { Actor } from '../../shared/bus/messages';
import { BOTS_EVENTS } from '../../shared/bus/subjects';
import { bots, playHistory } from '../../shared/db/schema';
import { DEFAULT_PROFILE_CONFIG, PLATFORMS, type Platform } from '../../shared/domain/constants';
import type { Song } from '../../shared/domain/schemas';
import { type Locale, type Phrase, renderPhrase, say } from '../../shared/i18n/phrases';
import type { SongList } from '../../shared/sources/song-catalog';
import { actorOf, type Principal, principalOf, requesterOf } from '../access/principal';
import type { BotClient } from '../bots/bot-client';
import { findBot } from '../bots/find-bot';
import type { BotStatusView } from '../bots/status-view';
import type { AppDeps, AppEnv } from '../env';
import { validationHook } from '../errors';
import type { ListenHub } from '../listen/listen-hub';
import { requestLocale } from '../locale';
import type { SongFinder } from '../music/song-finder';
import { type ReceiptBody, receiptBody, undoField } from '../receipt-body';

type SongOp = 'playSong' | 'playNowSong' | 'playNextSong' | 'addSong';
/** A play's answer; `undoToken` when it replaced a queue that had songs. */
type Played = { ok: boolean; undoToken?: string } & ReceiptBody;
const isPlatform = (p: string): p is Platform => (PLATFORMS as readonly string[]).includes(p);
const HISTORY_DEFAULT_LIMIT = 50;

/** One player call: who asks, for which bot, in which language its receipt is worded. */
class PlayerCall {
  private readonly actor: Actor;

  constructor(
    private readonly bots: BotClient,
    private readonly statuses: BotStatusView,
    private readonly principal: Principal,
    readonly botId: string,
    private readonly locale: Locale,
  ) {
    this.actor = actorOf(principal);
  }

  /** Runs an op; `ok` is false when it answered but did not do what was asked (a song that cannot play). */
  run<Op extends BotOp>(op: Op, args: BotOpArgs<Op>) {
    return this.bots.call(this.botId, op, args, this.actor);
  }

  /** Runs an op and returns its receipt. */
  async receipt<Op extends BotOp>(op: Op, args: BotOpArgs<Op>): Promise<ReceiptBody> {
    return receiptBody((await this.run(op, args)).said, this.locale);
  }

  /**
   * Enqueues or plays the given song, recording who asked: one bus request, and the daemon's answer
   * decides (it refuses a disconnected bot with 409, as SPEC Player rule 9 says).
   */
  async song(op: SongOp, song: Song): Promise<Played> {
    const { ok, said, data } = await this.run(op, { song, requestedBy: requesterOf(this.principal) });
    return { ok, ...receiptBody(said, this.locale), ...undoField(data) };
  }

  /** Enqueues or plays a song looked up on its platform; it is looked up only for a connected bot. */
  async foundSong(op: SongOp, findSong: () => Promise<Song>): Promise<Played> {
    const { ok, said, data } = await this.lookedUp(op, async () => ({
      song: await findSong(),
      requestedBy: requesterOf(this.principal),
    }));
    return { ok, ...receiptBody(said, this.locale), ...undoField(data) };
  }

  /** Loads a collection under a label (playlist, album, FM); it is fetched only for a connected bot. */
  async load(
    mode: 'replace' | 'append',
    labelPhrase: Phrase,
    fetchList: () => Promise<SongList>,
  ): Promise<Played> {
    const label = renderPhrase(labelPhrase, this.locale);
    const { ok, said, data } = await this.lookedUp('loadSongs', async () => {
      const list = await fetchList().catch(async (error: unknown) => {
        // SPEC Player rule 7: a replace stops the playback first, so a list the platform would not
        // give (unreachable, unknown id) stops it too; the queue stays, the caller hears why.
        if (mode === 'replace') await this.run('stopPlayback', {});
        throw error;
      });
      // A source that plays only some of the listed songs: load those, and say of how many.
      const totalCount = list.playable ? list.songs.length : list.totalCount;
      return {
        songs: list.playable ?? list.songs,
        mode,
        label,
        requestedBy: requesterOf(this.principal),
        ...(totalCount !== undefined && { totalCount }),
      };
    });
    return { ok, ...receiptBody(said, this.locale), ...undoField(data) };
  }

  /** An op whose arguments a platform gives: sent at once to a bot this process heard connected. */
  private lookedUp<Op extends BotOp>(op: Op, resolveArgs: () => Promise<BotOpArgs<Op>>) {
    const heardConnected = this.statuses.heardConnected(this.botId);
    return this.bots.callResolving(this.botId, op, this.actor, resolveArgs, heardConnected);
  }
}

/** The receipt alone, for the calls whose answer SPEC gives as `{message}` without `ok`. */
const withoutOk = ({ ok: _, ...receipt }: { ok: boolean } & ReceiptBody): ReceiptBody => receipt;

export function playerRoutes(
  deps: AppDeps,
  botClient: BotClient,
  statuses: BotStatusView,
  finder: SongFinder,
  listenHub: ListenHub,
) {
  type Ctx = {
    get(key: 'principal'): Principal | undefined;
    req: { param(name: 'botId'): string; header(name: string): string | undefined };
  };
  const call = (c: Ctx) =>
    new PlayerCall(botClient, statuses, principalOf(c), c.req.param('botId'), requestLocale(c));

  return (
    new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
      // Search or look up first, then enqueue.
      .openapi(routes.play, async (c) => {
        const { query, platform } = c.req.valid('json');
        const receipt = withoutOk(
          await call(c).foundSong('playSong', () => finder.firstResult(query, platform)),
        );
        return c.json(receipt, 200);
      })
      .openapi(routes.add, async (c) => {
        const { query, platform } = c.req.valid('json');
        const receipt = withoutOk(
          await call(c).foundSong('addSong', () => finder.firstResult(query, platform)),
        );
        return c.json(receipt, 200);
      })
      .openapi(routes.playById, async (c) => {
        const { songId, platform } = c.req.valid('json');
        const receipt = withoutOk(await call(c).foundSong('playSong', () => finder.byId(songId, platform)));
        return c.json(receipt, 200);
      })
      .openapi(routes.addById, async (c) => {
        const { songId, platform } = c.req.valid('json');
        const receipt = withoutOk(await call(c).foundSong('addSong', () => finder.byId(songId, platform)));
        return c.json(receipt, 200);
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
        c.json(withoutOk(await call(c).song('addSong', c.req.valid('json').song)), 200),
      )

      // Collections.
      .openapi(routes.playPlaylist, async (c) => {
        const { playlistId, platform } = c.req.valid('json');
        const load = () => finder.collection('playlist', playlistId, platform);
        return c.json(await call(c).load('replace', say.playlistLabel(playlistId), load), 200);
      })
      .openapi(routes.playAlbum, async (c) => {
        const { albumId, platform } = c.req.valid('json');
        const load = () => finder.collection('album', albumId, platform);
        return c.json(await call(c).load('replace', say.albumLabel(albumId), load), 200);
      })
      .openapi(routes.appendPlaylist, async (c) => {
        const { playlistId, platform } = c.req.valid('json');
        const load = () => finder.collection('playlist', playlistId, platform);
        return c.json(withoutOk(await call(c).load('append', say.playlistLabel(playlistId), load)), 200);
      })
      .openapi(routes.startFm, async (c) => {
        // SPEC Player rule 8: a disconnected bot is refused before FM is fetched (loadSongs starts audio).
        const { platform } = c.req.valid('json');
        const fm = async () => ({ songs: await finder.personalFm(platform, principalOf(c).userId) });
        return c.json(await call(c).load('replace', say.personalFmLabel(), fm), 200);
      })

      // Transport and queue edits.
      .openapi(routes.pause, async (c) => c.json(await call(c).receipt('pause', {}), 200))
      .openapi(routes.resume, async (c) => c.json(await call(c).receipt('resume', {}), 200))
      .openapi(routes.next, async (c) => c.json(await call(c).receipt('next', {}), 200))
      .openapi(routes.voteSkip, async (c) => {
        const voter = { kind: 'web' as const, id: principalOf(c).userId };
        const { said, data } = await call(c).run('voteSkip', { voter });
        return c.json({ ...receiptBody(said, requestLocale(c)), ...data }, 200);
      })
      .openapi(routes.prev, async (c) => c.json(await call(c).receipt('prev', {}), 200))
      .openapi(routes.stop, async (c) => c.json(await call(c).receipt('stopPlayback', {}), 200))
      .openapi(routes.clear, async (c) => {
        const { said, data } = await call(c).run('clear', {});
        return c.json({ ...receiptBody(said, requestLocale(c)), ...undoField(data) }, 200);
      })
      .openapi(routes.undo, async (c) =>
        c.json(await call(c).receipt('undoReplace', c.req.valid('json')), 200),
      )
      .openapi(routes.volume, async (c) => c.json(await call(c).receipt('volume', c.req.valid('json')), 200))
      .openapi(routes.autoplay, async (c) =>
        c.json(await call(c).receipt('autoplay', c.req.valid('json')), 200),
      )
      .openapi(routes.crossfade, async (c) =>
        c.json(await call(c).receipt('crossfade', c.req.valid('json')), 200),
      )
      .openapi(routes.loudness, async (c) =>
        c.json(await call(c).receipt('loudness', c.req.valid('json')), 200),
      )
      .openapi(routes.mode, async (c) => c.json(await call(c).receipt('mode', c.req.valid('json')), 200))
      .openapi(routes.playAt, async (c) => c.json(await call(c).receipt('playAt', c.req.valid('json')), 200))
      .openapi(routes.move, async (c) => c.json(await call(c).receipt('move', c.req.valid('json')), 200))
      .openapi(routes.seek, async (c) => {
        const { said, data } = await call(c).run('seek', c.req.valid('json'));
        return c.json({ ...receiptBody(said, requestLocale(c)), seekOffset: data.seekOffset }, 200);
      })
      .openapi(routes.removeAt, async (c) =>
        c.json(await call(c).receipt('remove', { index: c.req.valid('param').index }), 200),
      )

      // Reads.
      .openapi(routes.getQueue, async (c) => c.json((await call(c).run('queue', {})).data, 200))
      .openapi(routes.listen, async (c) => {
        const stream = await listenHub.open(c.req.valid('param').botId, actorOf(principalOf(c)));
        return c.body(stream, 200, {
          'content-type': 'audio/ogg; codecs=opus',
          'cache-control': 'no-store',
          // Proxies (nginx) pass each page on at once instead of buffering the endless answer.
          'x-accel-buffering': 'no',
        });
      })
      .openapi(routes.getElapsed, async (c) => c.json((await call(c).run('elapsed', {})).data, 200))
      .openapi(routes.getHistory, async (c) => {
        const bot = await findBot(deps.db, c.req.valid('param').botId);
        const rows = await deps.db
          .select()
          .from(playHistory)
          .where(eq(playHistory.botId, bot.id))
          .orderBy(desc(playHistory.playedAt), desc(playHistory.id))
          .limit(c.req.valid('query').limit ?? HISTORY_DEFAULT_LIMIT);
        // A play on a platform this build no longer has is left out: it could be neither labelled nor played.
        const history = rows.flatMap((row) => {
          const { platform } = row;
          if (!isPlatform(platform)) return [];
          const { id, songId, name, artist, album, coverUrl, requestedBy, duration } = row;
          return [
            {
              id,
              songId,
              name,
              artist,
              album,
              coverUrl,
              platform,
              requestedBy,
              duration,
              playedAt: row.playedAt.toISOString(),
            },
          ];
        });
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
