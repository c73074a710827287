/**
 * Live bot state over `/ws` (DECISIONS.md "WebSocket"): the bots this principal may reach, each bot's
 * queue, and whether the socket is up. It reconnects with capped exponential backoff and resyncs on
 * every `hello`; queues of bots being watched are re-read after a reconnect, since pushes during the
 * outage were missed. `elapsedOf` moves the position smoothly between pushes, and stands still while
 * the connection is lost: what the page shows then is the last known state, not a guess. The browser's
 * own offline and online events drop the socket and reconnect at once, without waiting for a timeout.
 */
import type { Schemas } from '@api/index';
import type { WsMessage } from '@shared/ws-messages';
import { reactive } from 'vue';
import { api, call } from '../api/client';
import { socketUrl } from '../base';

type BotStatus = Schemas['BotStatus'];
type QueuedSong = Schemas['QueuedSong'];

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 15_000;

export const live = reactive({
  connection: 'connecting' as 'connecting' | 'online' | 'offline',
  bots: {} as Record<string, BotStatus>,
  /** Bot ids in the order the server listed them. */
  order: [] as string[],
  /** True once a full bot list arrived (REST or `hello`): only then does a missing bot mean gone. */
  loaded: false,
  queues: {} as Record<string, QueuedSong[]>,
  /** performance.now() when each bot's status arrived: the base of the smooth elapsed clock. */
  receivedAt: {} as Record<string, number>,
  /** A clock that ticks a few times a second, so views re-read `elapsedOf`. */
  now: performance.now(),
});

let socket: WebSocket | undefined;
let retryMs = FIRST_RETRY_MS;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let wanted = false;
let stillSignedIn: () => Promise<boolean> = async () => true;
const watchedQueues = new Set<string>();

/** The frames come from our own gateway (shared/ws-messages.ts); only their tag is checked here. */
function parseFrame(text: string): WsMessage | undefined {
  try {
    const frame: unknown = JSON.parse(text);
    if (frame && typeof frame === 'object' && 'type' in frame) return frame as WsMessage;
  } catch {
    // not JSON: ignored
  }
  return undefined;
}

function putBot(bot: BotStatus): void {
  if (!(bot.id in live.bots)) live.order.push(bot.id);
  live.bots[bot.id] = bot;
  live.receivedAt[bot.id] = performance.now();
}

function apply(frame: WsMessage): void {
  switch (frame.type) {
    case 'hello':
      live.bots = {};
      live.order = [];
      for (const bot of frame.bots) putBot(bot);
      live.loaded = true;
      for (const botId of watchedQueues) void loadQueue(botId);
      break;
    case 'status':
      putBot(frame.bot);
      break;
    case 'queue':
      live.queues[frame.botId] = frame.queue;
      break;
    case 'botRemoved':
      delete live.bots[frame.botId];
      delete live.queues[frame.botId];
      live.order = live.order.filter((id) => id !== frame.botId);
      break;
  }
}

function open(): void {
  clearTimeout(retryTimer);
  live.connection = live.connection === 'online' ? 'connecting' : live.connection;
  const ws = new WebSocket(socketUrl());
  socket = ws;
  ws.onopen = () => {
    retryMs = FIRST_RETRY_MS;
    live.connection = 'online';
  };
  ws.onmessage = (event) => {
    const frame = parseFrame(String(event.data));
    if (frame) apply(frame);
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = undefined;
    if (!wanted) return;
    live.connection = 'offline';
    // Without a network the browser's `online` event reconnects; retrying meanwhile only fails.
    if (!navigator.onLine) return;
    // A refused upgrade (401) and the signed-out close (4401) both mean the session ended.
    void stillSignedIn().then((signedIn) => {
      if (!signedIn || !wanted) return;
      retryTimer = setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    });
  };
}

/** Closes the socket without its close handler scheduling a retry (this one decides what follows). */
function dropSocket(): void {
  const old = socket;
  socket = undefined;
  clearTimeout(retryTimer);
  old?.close();
}

window.addEventListener('offline', () => {
  if (!wanted) return;
  dropSocket();
  live.connection = 'offline';
});
window.addEventListener('online', () => {
  if (!wanted) return;
  dropSocket();
  retryMs = FIRST_RETRY_MS;
  open();
});

/** The live connection is lost: the bots' state shown is the last known, and controls wait for it. */
export const connectionLost = (): boolean => live.connection === 'offline';

/**
 * Opens the socket (once signed in). After a drop, `checkSession` says whether to keep retrying;
 * it is where the app notices a session the server ended.
 */
export function connectLive(checkSession: () => Promise<boolean>): void {
  stillSignedIn = checkSession;
  if (wanted) return;
  wanted = true;
  live.connection = 'connecting';
  open();
}

export function disconnectLive(): void {
  wanted = false;
  clearTimeout(retryTimer);
  socket?.close();
  socket = undefined;
  live.bots = {};
  live.order = [];
  live.queues = {};
  live.loaded = false;
}

/** Reads a bot's queue now; afterwards queue pushes keep it current. */
export async function loadQueue(botId: string): Promise<void> {
  watchedQueues.add(botId);
  const view = await call(api.GET('/api/player/{botId}/queue', { params: { path: { botId } } }));
  if (view.ok) {
    live.queues[botId] = view.value.queue;
    putBot(view.value.status);
  }
}

/** Seconds played of the bot's current song, advanced by the time since its last push while playing. */
export function elapsedOf(bot: BotStatus): number {
  const duration = bot.effectiveDuration ?? bot.currentSong?.duration ?? 0;
  // A status that arrives while the clock stands still (just reconnected) is newer than `now`: no time
  // has passed since it.
  const since =
    bot.playing && !bot.paused ? Math.max(0, live.now - (live.receivedAt[bot.id] ?? live.now)) / 1000 : 0;
  const elapsed = bot.elapsed + since;
  return duration > 0 ? Math.min(elapsed, duration) : elapsed;
}

/** Marks a local change (seek) until the daemon's next push confirms it. */
export function setElapsed(botId: string, seconds: number): void {
  const bot = live.bots[botId];
  if (!bot) return;
  live.bots[botId] = { ...bot, elapsed: seconds };
  live.receivedAt[botId] = performance.now();
}

/** Shows a volume change at once, so quick steps build on each other; the daemon's push confirms it. */
export function setLocalVolume(botId: string, volume: number): void {
  const bot = live.bots[botId];
  if (bot) live.bots[botId] = { ...bot, volume };
}

/** Progress bars ease between ticks with a CSS transition of the same length. */
export const TICK_MS = 250;
setInterval(() => {
  if (connectionLost()) return;
  if (Object.values(live.bots).some((bot) => bot.playing && !bot.paused)) live.now = performance.now();
}, TICK_MS);

/** Reads the bot list over REST: the first paint need not wait for the socket's `hello`. */
export async function loadBots(): Promise<void> {
  const list = await call(api.GET('/api/bot'));
  if (!list.ok) return;
  for (const bot of list.value.bots) putBot(bot);
  live.loaded = true;
}

/** Records a status a REST call answered with (start, stop). */
export const rememberBot = putBot;
