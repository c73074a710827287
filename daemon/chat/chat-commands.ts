/**
 * The chat commands (DECISIONS.md "Chat commands"). Each runs through the typed REST client, so its
 * reply is the receipt the matching REST call returns in `message` (or its `error`). Positions in
 * chat count from 1; the API counts from 0.
 */
import type { ApiClient, Schemas } from '../../openapi/client';
import type { PlayMode } from '../../shared/domain/constants';
import { CROSSFADE_SECONDS_RANGE, PLAY_MODES } from '../../shared/domain/constants';
import { LOUDNESS_TARGET_RANGE } from '../../shared/domain/loudness';
import { PLATFORM_FLAGS } from '../../shared/domain/platforms';
import { formatTime, receipts } from '../../shared/receipts';
import { splitPlatformDetail } from '../../shared/sources/http/platform-detail';
import { saysUnreachable } from '../../shared/sources/http/unreachable';
import { lineAt, parseLrc } from '../../shared/sources/lrc';
import type { ChatCommand } from './parse-command';

/** A failed call's answer: its text, and the phrase's params (a platform's failure has a `detail`). */
interface ErrorAnswer {
  error: string;
  params?: Record<string, string | number>;
}
/** What a REST call answered: a receipt on success, the error text otherwise. */
interface Answer {
  /** `undoToken`: the call replaced a queue with songs in it, which `POST /undo` gives back. */
  data?: { message: string; undoToken?: string } | undefined;
  error?: ErrorAnswer | undefined;
}
/**
 * The error text of a failed call. A platform the server could not reach is said in plain words: the
 * API's text names it by its internal value and carries the network's own reason, which is for admins
 * (the web page words it the same way, web/src/api/platform-errors.ts).
 */
function errorText(error: ErrorAnswer | undefined): string {
  if (!error) return receipts.requestFailed();
  const detail = error.params?.detail;
  const failed = typeof detail === 'string' ? splitPlatformDetail(detail) : undefined;
  return failed && saysUnreachable(failed.reason)
    ? receipts.chatPlatformUnreachable(failed.platform)
    : error.error;
}
const replyOf = (answer: Answer): string => answer.data?.message ?? errorText(answer.error);
/**
 * The reply of a call that may have replaced the queue: the REST receipt as it is (a chat reply is the
 * REST receipt), and when it replaced one, `!undo` can take it back.
 */
function replyReplacing(ctx: CommandContext, answer: Answer): string {
  const token = answer.data?.undoToken;
  if (token) ctx.undo.token = token;
  return replyOf(answer);
}
/** The platform flags a command takes, as its usage shows them (`[-n|-q|…]`): one per platform that has one. */
const PLATFORM_CHOICE = `[${Object.keys(PLATFORM_FLAGS).join('|')}]`;

/** A voice-server channel by its id and its name. */
export interface ChannelRef {
  id: number;
  name: string;
}

/**
 * The bot's own place on the voice server, for `!where` and `!come`. Only the connection knows the
 * channels and who is in which, so these ask the bot itself (no REST call), as `!skip` does.
 */
export interface ChatChannels {
  /** The channel the bot is in; undefined while it is not connected. */
  current(): ChannelRef | undefined;
  /** Moves the bot into channel `id`; rejects with the voice server's refusal. */
  moveTo(id: number): Promise<void>;
}

export interface CommandContext {
  api: ApiClient;
  botId: string;
  command: ChatCommand;
  prefix: string;
  /** Casts the sender's vote to skip the current song; the reply is the tally or the skip. */
  voteSkip(): Promise<string>;
  /** The channel the sender is in, when the bot's connection sees them. */
  senderChannel: ChannelRef | undefined;
  channels: ChatChannels;
  /** The Undo of the last chat command that replaced this bot's queue, for `!undo`. */
  undo: UndoSlot;
}

/** One bot's last Undo token from the chat (the REST call checks it is still good). */
export interface UndoSlot {
  token: string | undefined;
}

interface CommandSpec {
  usage: string;
  /** Restricted to `adminGroups` members when that list is not empty. */
  adminOnly?: boolean;
  run(ctx: CommandContext): Promise<string>;
}

const QUEUE_LINES = 10;
const SEARCH_LINES = 5;
/** The line playing now and the next ones. */
const LYRIC_LINES = 3;

const path = (botId: string) => ({ params: { path: { botId } } });
const needText = (ctx: CommandContext, usage: string) =>
  ctx.command.text ? undefined : receipts.chatUsage(`${ctx.prefix}${usage}`);
/** A 1-based position from chat as a 0-based index, or undefined when it is not a positive whole number. */
const position = (word: string | undefined) =>
  word && /^\d+$/.test(word) && Number(word) >= 1 ? Number(word) - 1 : undefined;
const songLine = (s: { name: string; artist: string }) => (s.artist ? `${s.name} - ${s.artist}` : s.name);

async function currentQueue(ctx: CommandContext): Promise<Schemas['QueueView'] | string> {
  const { data, error } = await ctx.api.GET('/api/player/{botId}/queue', path(ctx.botId));
  return data ?? errorText(error);
}

const CROSSFADE_USAGE = `crossfade [${CROSSFADE_SECONDS_RANGE.min}-${CROSSFADE_SECONDS_RANGE.max}]`;
const NORM_USAGE = `norm [on|off|${LOUDNESS_TARGET_RANGE.min}…${LOUDNESS_TARGET_RANGE.max}]`;
const LOUDNESS_LINES = {
  platform: receipts.chatLoudnessPlatform,
  tags: receipts.chatLoudnessTags,
  measured: receipts.chatLoudnessMeasured,
} as const;

/** The `!norm` line: off, on at its target, or what the song playing gets and by which figure. */
function loudnessLine(loudness: Schemas['LoudnessStatus'] | undefined): string {
  if (!loudness?.enabled) return receipts.chatLoudnessOff();
  const { targetLufs, gainDb, source } = loudness;
  if (gainDb === undefined || source === undefined) return receipts.chatLoudnessOn(targetLufs);
  return LOUDNESS_LINES[source](targetLufs, `${gainDb >= 0 ? '+' : ''}${gainDb.toFixed(1)}`);
}

/** Songs for the command's text on its platform, or the text to reply when there are none. */
async function searchSongs(ctx: CommandContext, limit: number): Promise<Schemas['Song'][] | string> {
  const { data, error } = await ctx.api.GET('/api/music/search', {
    params: {
      query: {
        q: ctx.command.text,
        limit,
        ...(ctx.command.platform ? { platform: ctx.command.platform } : {}),
      },
    },
  });
  if (!data) return errorText(error);
  return data.songs.length ? data.songs : receipts.noResults(ctx.command.text);
}

const simple = (
  route: '/pause' | '/resume' | '/next' | '/prev' | '/stop' | '/clear',
  adminOnly = false,
): CommandSpec => ({
  usage: route.slice(1),
  adminOnly,
  // `/clear` can be undone; the others answer no Undo.
  run: async (ctx) => replyReplacing(ctx, await ctx.api.POST(`/api/player/{botId}${route}`, path(ctx.botId))),
});

const searchBody = (ctx: CommandContext) => ({
  query: ctx.command.text,
  ...(ctx.command.platform ? { platform: ctx.command.platform } : {}),
});

/** `!come`: the bot joins the sender's channel (a private message reaches it from anywhere). */
async function comeToSender(ctx: CommandContext): Promise<string> {
  const here = ctx.channels.current();
  const target = ctx.senderChannel;
  if (!here || !target) return receipts.notConnected();
  if (here.id === target.id) return receipts.chatAlreadyThere(target.name);
  try {
    await ctx.channels.moveTo(target.id);
  } catch (error) {
    return receipts.chatCannotMove(target.name, error instanceof Error ? error.message : String(error));
  }
  return receipts.chatCame(target.name);
}

export const CHAT_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  play: {
    usage: `play <song> ${PLATFORM_CHOICE}`,
    run: async (ctx) =>
      needText(ctx, 'play <song>') ??
      replyReplacing(
        ctx,
        await ctx.api.POST('/api/player/{botId}/play', { ...path(ctx.botId), body: searchBody(ctx) }),
      ),
  },
  add: {
    usage: `add <song> ${PLATFORM_CHOICE}`,
    run: async (ctx) =>
      needText(ctx, 'add <song>') ??
      replyOf(await ctx.api.POST('/api/player/{botId}/add', { ...path(ctx.botId), body: searchBody(ctx) })),
  },
  playnext: {
    usage: 'playnext <song>',
    run: async (ctx) => {
      const missing = needText(ctx, 'playnext <song>');
      if (missing) return missing;
      const found = await searchSongs(ctx, 1);
      const song = typeof found === 'string' ? undefined : found[0];
      if (!song) return typeof found === 'string' ? found : receipts.noResults(ctx.command.text);
      return replyOf(
        await ctx.api.POST('/api/player/{botId}/play-next-song', { ...path(ctx.botId), body: { song } }),
      );
    },
  },
  search: {
    usage: 'search <words>',
    run: async (ctx) => {
      const missing = needText(ctx, 'search <words>');
      if (missing) return missing;
      const found = await searchSongs(ctx, SEARCH_LINES);
      if (typeof found === 'string') return found;
      return found.map((s, i) => `${i + 1}. ${songLine(s)}`).join('\n');
    },
  },
  // Anyone may vote; an immediate skip is an admin-type command.
  skip: { usage: 'skip', run: (ctx) => ctx.voteSkip() },
  next: simple('/next', true),
  prev: simple('/prev'),
  pause: simple('/pause'),
  resume: simple('/resume'),
  stop: simple('/stop', true),
  clear: simple('/clear', true),
  remove: {
    usage: 'remove <position>',
    adminOnly: true,
    run: async (ctx) => {
      const index = position(ctx.command.args[0]);
      if (index === undefined) return receipts.chatUsage(`${ctx.prefix}remove <position>`);
      return replyOf(
        await ctx.api.DELETE('/api/player/{botId}/queue/{index}', {
          params: { path: { botId: ctx.botId, index } },
        }),
      );
    },
  },
  move: {
    usage: 'move <from> <to>',
    adminOnly: true,
    run: async (ctx) => {
      const from = position(ctx.command.args[0]);
      const to = position(ctx.command.args[1]);
      if (from === undefined || to === undefined) return receipts.chatUsage(`${ctx.prefix}move <from> <to>`);
      return replyOf(
        await ctx.api.POST('/api/player/{botId}/move', { ...path(ctx.botId), body: { from, to } }),
      );
    },
  },
  vol: {
    usage: 'vol [0-100]',
    adminOnly: true,
    run: async (ctx) => {
      const word = ctx.command.args[0];
      if (word === undefined) {
        const view = await currentQueue(ctx);
        return typeof view === 'string' ? view : receipts.chatVolumeIs(view.status.volume);
      }
      if (!/^\d+(\.\d+)?$/.test(word)) return receipts.chatUsage(`${ctx.prefix}vol [0-100]`);
      return replyOf(
        await ctx.api.POST('/api/player/{botId}/volume', {
          ...path(ctx.botId),
          body: { volume: Number(word) },
        }),
      );
    },
  },
  mode: {
    usage: `mode [${PLAY_MODES.join('|')}]`,
    adminOnly: true,
    run: async (ctx) => {
      const word = ctx.command.args[0];
      if (word === undefined) {
        const view = await currentQueue(ctx);
        return typeof view === 'string' ? view : receipts.chatModeIs(view.status.playMode);
      }
      if (!(PLAY_MODES as readonly string[]).includes(word))
        return receipts.chatUsage(`${ctx.prefix}mode [${PLAY_MODES.join('|')}]`);
      return replyOf(
        await ctx.api.POST('/api/player/{botId}/mode', {
          ...path(ctx.botId),
          body: { mode: word as PlayMode },
        }),
      );
    },
  },
  autoplay: {
    usage: 'autoplay [on|off]',
    adminOnly: true,
    run: async (ctx) => {
      const word = ctx.command.args[0]?.toLowerCase();
      if (word === undefined) {
        const view = await currentQueue(ctx);
        if (typeof view === 'string') return view;
        return view.status.autoplay === 'related' ? receipts.autoplayOn() : receipts.autoplayOff();
      }
      if (word !== 'on' && word !== 'off') return receipts.chatUsage(`${ctx.prefix}autoplay [on|off]`);
      return replyOf(
        await ctx.api.POST('/api/player/{botId}/autoplay', {
          ...path(ctx.botId),
          body: { mode: word === 'on' ? 'related' : 'off' },
        }),
      );
    },
  },
  crossfade: {
    usage: CROSSFADE_USAGE,
    adminOnly: true,
    run: async (ctx) => {
      const word = ctx.command.args[0];
      if (word === undefined) {
        const view = await currentQueue(ctx);
        if (typeof view === 'string') return view;
        const seconds = view.status.crossfadeSeconds ?? 0;
        return seconds > 0 ? receipts.crossfadeOn(seconds) : receipts.crossfadeOff();
      }
      // Any number goes to the API, so one out of range gets the same refusal as there.
      if (!/^\d+(\.\d+)?$/.test(word)) return receipts.chatUsage(`${ctx.prefix}${CROSSFADE_USAGE}`);
      return replyOf(
        await ctx.api.POST('/api/player/{botId}/crossfade', {
          ...path(ctx.botId),
          body: { seconds: Number(word) },
        }),
      );
    },
  },
  norm: {
    usage: NORM_USAGE,
    adminOnly: true,
    run: async (ctx) => {
      const word = ctx.command.args[0]?.toLowerCase();
      if (word === undefined) {
        const view = await currentQueue(ctx);
        return typeof view === 'string' ? view : loudnessLine(view.status.loudness);
      }
      const body =
        word === 'on' || word === 'off'
          ? { enabled: word === 'on' }
          : /^[+-]?\d+$/.test(word)
            ? { enabled: true, targetLufs: Number(word) }
            : undefined;
      if (!body) return receipts.chatUsage(`${ctx.prefix}${NORM_USAGE}`);
      return replyOf(await ctx.api.POST('/api/player/{botId}/loudness', { ...path(ctx.botId), body }));
    },
  },
  queue: {
    usage: 'queue',
    run: async (ctx) => {
      const view = await currentQueue(ctx);
      if (typeof view === 'string') return view;
      if (!view.queue.length) return receipts.chatQueueEmpty();
      const current = view.status.currentSong;
      const lines = view.queue
        .slice(0, QUEUE_LINES)
        .map((s, i) => `${s === current || s.id === current?.id ? '▶' : ' '}${i + 1}. ${songLine(s)}`);
      if (view.queue.length > QUEUE_LINES)
        lines.push(receipts.chatQueueMore(view.queue.length - QUEUE_LINES));
      return lines.join('\n');
    },
  },
  now: {
    usage: 'now',
    run: async (ctx) => {
      const view = await currentQueue(ctx);
      if (typeof view === 'string') return view;
      const { currentSong, elapsed, effectiveDuration } = view.status;
      if (!currentSong) return receipts.nothingPlaying();
      return receipts.chatNowPlaying(
        currentSong,
        formatTime(elapsed),
        formatTime(effectiveDuration ?? currentSong.duration),
      );
    },
  },
  playlist: {
    usage: `playlist <id> [-a] ${PLATFORM_CHOICE}`,
    run: async (ctx) => {
      const playlistId = ctx.command.args[0];
      if (!playlistId) return receipts.chatUsage(`${ctx.prefix}playlist <id> [-a]`);
      const body = { playlistId, ...(ctx.command.platform ? { platform: ctx.command.platform } : {}) };
      const route = ctx.command.append ? '/api/player/{botId}/playlist' : '/api/player/{botId}/play-playlist';
      return replyReplacing(ctx, await ctx.api.POST(route, { ...path(ctx.botId), body }));
    },
  },
  album: {
    usage: `album <id> ${PLATFORM_CHOICE}`,
    run: async (ctx) => {
      const albumId = ctx.command.args[0];
      if (!albumId) return receipts.chatUsage(`${ctx.prefix}album <id>`);
      const body = { albumId, ...(ctx.command.platform ? { platform: ctx.command.platform } : {}) };
      return replyReplacing(
        ctx,
        await ctx.api.POST('/api/player/{botId}/play-album', { ...path(ctx.botId), body }),
      );
    },
  },
  fm: {
    usage: `fm ${PLATFORM_CHOICE}`,
    run: async (ctx) =>
      replyReplacing(
        ctx,
        await ctx.api.POST('/api/player/{botId}/fm', {
          ...path(ctx.botId),
          body: ctx.command.platform ? { platform: ctx.command.platform } : {},
        }),
      ),
  },
  lyrics: {
    usage: 'lyrics',
    run: async (ctx) => {
      const view = await currentQueue(ctx);
      if (typeof view === 'string') return view;
      const { currentSong, elapsed } = view.status;
      if (!currentSong) return receipts.nothingPlaying();
      const { data, error, response } = await ctx.api.GET('/api/music/lyrics/{id}', {
        params: { path: { id: currentSong.id }, query: { platform: currentSong.platform } },
      });
      if (!data)
        return response.status === 404 || response.status === 501
          ? receipts.chatNoLyrics(currentSong)
          : errorText(error);
      const lines = parseLrc(data.lyrics);
      const from = Math.max(0, lineAt(lines, elapsed));
      const shown = lines.slice(from, from + LYRIC_LINES);
      if (!shown.length) return receipts.chatNoLyrics(currentSong);
      return shown.map((l) => (l.translation ? `${l.text} / ${l.translation}` : l.text)).join('\n');
    },
  },
  save: {
    usage: 'save <name>',
    run: async (ctx) => {
      const missing = needText(ctx, 'save <name>');
      if (missing) return missing;
      const { data, error } = await ctx.api.POST('/api/saved-queues', {
        body: { botId: ctx.botId, name: ctx.command.text },
      });
      return data ? receipts.queueSaved(data.queue.name, data.queue.songCount) : errorText(error);
    },
  },
  load: {
    usage: 'load [-a] <name>',
    run: async (ctx) => {
      const missing = needText(ctx, 'load [-a] <name>');
      if (missing) return missing;
      const list = await ctx.api.GET('/api/saved-queues');
      if (!list.data) return errorText(list.error);
      const wanted = ctx.command.text.toLowerCase();
      const saved = list.data.queues.find((q) => q.name.toLowerCase() === wanted);
      if (!saved) return receipts.noSavedQueue(ctx.command.text);
      const { data, error } = await ctx.api.POST('/api/saved-queues/{id}/load', {
        params: { path: { id: saved.id } },
        body: { botId: ctx.botId, mode: ctx.command.append ? 'append' : 'replace' },
      });
      // A load where nothing could play says why, in the bot's own receipt.
      if (!data) return errorText(error);
      if (!data.ok) return data.message;
      return replyReplacing(ctx, {
        data: { ...data, message: receipts.savedQueueLoaded(saved.name, data.loaded) },
      });
    },
  },
  undo: {
    usage: 'undo',
    run: async (ctx) => {
      const token = ctx.undo.token;
      if (!token) return receipts.chatNothingToUndo();
      ctx.undo.token = undefined;
      return replyOf(await ctx.api.POST('/api/player/{botId}/undo', { ...path(ctx.botId), body: { token } }));
    },
  },
  queues: {
    usage: 'queues',
    run: async (ctx) => {
      const { data, error } = await ctx.api.GET('/api/saved-queues');
      if (!data) return errorText(error);
      if (!data.queues.length) return receipts.noSavedQueues();
      return data.queues.map((q) => `${q.name} (${q.songCount})`).join('\n');
    },
  },
  // Moving the bot takes it away from whoever listens where it is: an admin-type command.
  come: { usage: 'come', adminOnly: true, run: comeToSender },
  where: {
    usage: 'where',
    run: async (ctx) => {
      const here = ctx.channels.current();
      return here ? receipts.chatWhere(here.name) : receipts.notConnected();
    },
  },
  help: {
    usage: 'help',
    run: async (ctx) =>
      receipts.chatHelp(
        Object.values(CHAT_COMMANDS)
          .map((c) => `${ctx.prefix}${c.usage}`)
          .join('\n'),
      ),
  },
};
