/**
 * Issue 40, crowded servers: ten bots play, each in its own channel, while twenty listeners come and go
 * (join, move between channels, leave, come back), every datagram through a proxy that drops 5 % each
 * way. It runs CHURN_SECONDS (120 in `make test`, 1800 in `make soak`) and checks, all along:
 *
 * - no bot disconnects;
 * - auto-pause follows the channel: a bot is paused only when its channel has no listener, and pauses
 *   once it has none (both within GRACE_MS, what a notification may take to get through the loss);
 * - no silent bot: while a listener is in a bot's channel, the bot's voice keeps arriving at that
 *   listener (from GRACE_MS after it entered, with no gap over MAX_GAP_MS).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ts3Client } from '../../daemon/ts3';
import { TALK_IDLE_MS } from '../../daemon/ts3/talk-tracker';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { makeClient } from '../ts3/helpers';
import { LossyProxy, random } from '../ts3/lossy-proxy';
import { DaemonHarness } from './harness';

const SECONDS = Number(process.env.CHURN_SECONDS ?? 120);
const BOTS = 10;
const LISTENERS = 20;
const DROP_RATE = 0.05;
/** What a listener's arrival or departure may take to reach the bot (resent through the loss) and act. */
const GRACE_MS = 3000;
/**
 * The longest a listener may hear nothing of the bot in its channel. Runs on a busy two-core machine
 * saw silences of 1.5-4 s now and then, a few bots at a time (the track restarts every 30 s in loop
 * mode; a resume may also land late): worth a look, but not the bot that goes silent for good that this
 * test is for.
 */
const MAX_GAP_MS = 5000;
/** How long a listener stays before it moves or leaves, and how long it stays away. */
const DWELL_MS = { min: 3000, max: 10_000 };
const AWAY_MS = { min: 1000, max: 5000 };
const STATUS_POLL_MS = 500;

const roomName = (i: number) => `Room ${i + 1}`;

let server: Ts3TestServer;
let proxy: LossyProxy;
let h: DaemonHarness;
const botIds: string[] = [];
/** The channel id of each bot's room, by bot index. */
const rooms: number[] = [];
let lobby: number;
/** The server's client ids of the bots whose voice has reached the server. */
const sounding = new Set<number>();
/** The server's client id of each bot, by bot index. */
const botClients: number[] = [];
const botDisconnects: string[] = [];

beforeAll(async () => {
  server = await Ts3TestServer.start({
    channels: [
      { name: 'Lobby', isDefault: true },
      ...Array.from({ length: BOTS }, (_, i) => ({ name: roomName(i) })),
    ],
    // Nothing is recorded (ten bots for half an hour would be gigabytes of decoded voice): only who sounds.
    voiceListener: ({ clientId }) => sounding.add(clientId),
  });
  proxy = await LossyProxy.start({
    targetPort: server.port,
    dropRate: DROP_RATE,
    seed: 40,
    idleCloseMs: 30_000,
  });
  lobby = [...server.channels.values()].find((c) => c.name === 'Lobby')!.id;
  h = await DaemonHarness.create(server);
  await h.startDaemon();
  for (let i = 0; i < BOTS; i++) {
    botIds.push(
      await h.addBot(proxy.port, {
        name: `Churn ${i + 1}`,
        defaultChannel: roomName(i),
        loudnessNormalization: false,
      }),
    );
    rooms.push([...server.channels.values()].find((c) => c.name === roomName(i))!.id);
  }
  const starts = await Promise.all(botIds.map((id) => h.command(id, 'start')));
  if (!starts.every((reply) => reply.ok)) throw new Error(`a bot did not start: ${JSON.stringify(starts)}`);
}, 60_000);

afterAll(async () => {
  await h?.close();
  proxy?.close();
  await server?.close();
});

/** One listener's stay in a channel, and the longest it heard nothing of that channel's bot. */
interface Stay {
  room: number;
  bot: number | undefined;
  enteredAt: number;
  silentSince: number | undefined;
  heard: boolean;
  maxGapMs: number;
  /** When the longest silence began, after the listener entered. */
  worstGapAfterMs?: number;
  leftAt?: number;
}

/** A person who comes and goes; each visit is a new client (a new nickname generation). */
class Listener {
  client: Ts3Client | undefined;
  stay: Stay | undefined;
  readonly stays: Stay[] = [];
  /**
   * Who this listener hears talking now, kept apart from the stays: the first voice of a channel may
   * arrive before the move or the connect that led there has been answered.
   */
  private readonly talking = new Set<number>();
  private visits = 0;

  constructor(
    private readonly index: number,
    private readonly next: () => number,
  ) {}

  async join(room: number): Promise<void> {
    const client = makeClient(proxy.port, server.rootPublicKey, {
      nickname: `Listener ${this.index}.${this.visits++}`,
      defaultChannel: room,
      connectTimeoutMs: 20_000,
    });
    this.talking.clear();
    client.on('talkStatus', ({ clientId, talking }) => this.onTalk(clientId, talking));
    await client.connect();
    this.client = client;
    this.enter(client.channelId);
  }

  async moveTo(room: number): Promise<void> {
    this.leaveStay();
    await this.client?.moveTo(room);
    this.enter(room);
  }

  async leave(): Promise<void> {
    this.leaveStay();
    const client = this.client;
    this.client = undefined;
    await client?.disconnect();
  }

  /** Anywhere but where it is: a bot's room or the Lobby, which has none. */
  pickRoom(): number {
    const choices = [lobby, ...rooms].filter((room) => room !== this.stay?.room);
    return choices[Math.floor(this.next() * choices.length)]!;
  }

  /** A number in [0, 1) from this listener's own seeded sequence, so a run is repeatable. */
  chance(): number {
    return this.next();
  }

  pause(range: { min: number; max: number }): Promise<void> {
    return sleep(range.min + this.next() * (range.max - range.min));
  }

  private enter(room: number): void {
    const index = rooms.indexOf(room);
    const bot = index < 0 ? undefined : botClients[index];
    this.stay = { room, bot, enteredAt: 0, silentSince: 0, heard: false, maxGapMs: 0 };
    this.restartStay(performance.now());
    this.stays.push(this.stay);
  }

  /** Counts the current stay from `now`, as heard or silent by what this listener hears at that moment. */
  restartStay(now: number): void {
    const stay = this.stay;
    if (!stay) return;
    const hearing = stay.bot !== undefined && this.talking.has(stay.bot);
    Object.assign(stay, { enteredAt: now, silentSince: hearing ? undefined : now, heard: hearing });
  }

  private onTalk(clientId: number, talking: boolean): void {
    if (talking) this.talking.add(clientId);
    else this.talking.delete(clientId);
    const stay = this.stay;
    if (!stay || clientId !== stay.bot) return;
    const now = performance.now();
    if (talking) {
      this.endGap(stay, now);
      stay.heard = true;
    } else if (stay.silentSince === undefined) {
      // The tracker says "stopped" once it has heard nothing for TALK_IDLE_MS.
      stay.silentSince = now - TALK_IDLE_MS;
    }
  }

  private leaveStay(): void {
    const stay = this.stay;
    if (!stay) return;
    const now = performance.now();
    this.endGap(stay, now);
    stay.leftAt = now;
    this.stay = undefined;
  }

  /** A silence counts from GRACE_MS after the listener entered: the bot may have been paused then. */
  private endGap(stay: Stay, now: number): void {
    if (stay.silentSince === undefined) return;
    const from = Math.max(stay.silentSince, stay.enteredAt + GRACE_MS);
    const gap = now - from;
    if (gap > stay.maxGapMs) stay.worstGapAfterMs = from - stay.enteredAt;
    stay.maxGapMs = Math.max(stay.maxGapMs, gap);
    stay.silentSince = undefined;
  }
}

/** What the status polls saw against who the server says is in each room. */
interface Watch {
  falsePauses: string[];
  missedPauses: string[];
  notPlaying: string[];
  disconnected: string[];
  pausedPolls: number;
  playingPolls: number;
}

async function watchStatuses(until: number): Promise<Watch> {
  const watch: Watch = {
    falsePauses: [],
    missedPauses: [],
    notPlaying: [],
    disconnected: [],
    pausedPolls: 0,
    playingPolls: 0,
  };
  // Since when each room has been empty, or occupied, as the server has it: noted at every join, move
  // and leave, not at the polls, which miss a room that empties and fills again between two of them
  // (the bot rightly pauses and resumes then).
  const since = rooms.map(() => ({ occupied: true, at: performance.now() }));
  const noteOccupancy = () => {
    const now = performance.now();
    for (const [i, room] of since.entries()) {
      const occupied = server.clients.some(
        (c) => c.channelId === rooms[i] && c.nickname.startsWith('Listener'),
      );
      if (occupied !== room.occupied) Object.assign(room, { occupied, at: now });
    }
  };
  const events = ['clientConnected', 'clientMoved', 'clientDisconnected'] as const;
  for (const event of events) server.on(event, noteOccupancy);
  /**
   * Polls in a row each bot was neither playing nor paused: up to two may fall between two tracks (a
   * song change that was not joined ahead goes through idle while the next song starts).
   */
  const idlePolls = rooms.map(() => 0);
  while (performance.now() < until) {
    const statuses = await Promise.all(botIds.map((id) => h.status(id)));
    const now = performance.now();
    for (const [i, status] of statuses.entries()) {
      const room = since[i]!;
      const { occupied } = room;
      const settled = now - room.at > GRACE_MS;
      const at = `${status.name} at ${Math.round(now / 1000)} s, ${occupied ? 'occupied' : 'empty'} for ${Math.round(now - room.at)} ms`;
      if (!status.connected) watch.disconnected.push(at);
      idlePolls[i] = status.paused || status.playing ? 0 : idlePolls[i]! + 1;
      if (status.paused) watch.pausedPolls++;
      else if (status.playing) watch.playingPolls++;
      else if (idlePolls[i]! > 2) watch.notPlaying.push(at);
      if (status.paused && occupied && settled) watch.falsePauses.push(at);
      if (!status.paused && !occupied && settled) watch.missedPauses.push(at);
    }
    await sleep(STATUS_POLL_MS);
  }
  for (const event of events) server.off(event, noteOccupancy);
  return watch;
}

/** Stays, then moves on (three times in five) or leaves for a while and comes back somewhere. */
async function churn(listener: Listener, until: number): Promise<void> {
  while (performance.now() < until) {
    await listener.pause(DWELL_MS);
    if (performance.now() >= until) break;
    if (listener.chance() < 0.6) await listener.moveTo(listener.pickRoom());
    else {
      await listener.leave();
      await listener.pause(AWAY_MS);
      await listener.join(listener.pickRoom());
    }
  }
  await listener.leave();
}

describe(`ten bots, twenty listeners coming and going for ${SECONDS} s, 5 % loss each way`, () => {
  it(
    'keeps every bot connected, pauses only empty channels and never goes silent for a listener',
    async () => {
      server.on('clientDisconnected', ({ clientId, reason }) => {
        if (botClients.includes(clientId)) botDisconnects.push(`client ${clientId}: ${reason}`);
      });
      // Two listeners in every room before the music starts, so every pause afterwards follows a leave.
      const listeners = Array.from({ length: LISTENERS }, (_, i) => new Listener(i + 1, random(100 + i)));
      await Promise.all(listeners.map((listener, i) => listener.join(rooms[i % BOTS]!)));
      const song = await h.toneSong('churn', [{ frequencyHz: 440, seconds: 30 }]);
      for (const [i, id] of botIds.entries()) {
        botClients.push(server.clientByName(`Churn ${i + 1}`)!.id);
        await h.command(id, 'mode', { mode: 'loop' });
        await h.command(id, 'playSong', { song, requestedBy: 'churn' });
      }
      // A bot's first track starts its decoder and encoder; ten at once on two cores take seconds. The
      // churn is about what follows: it starts once every bot's voice reaches the server.
      await h.waitFor(() => botClients.every((id) => sounding.has(id)), 30_000, 'every bot sounding');
      // The bots' client ids are known now, and the music has started: the first stays count from here.
      const started = performance.now();
      for (const listener of listeners) {
        const stay = listener.stay;
        if (stay) stay.bot = botClients[rooms.indexOf(stay.room)];
        listener.restartStay(started);
      }

      const until = performance.now() + SECONDS * 1000;
      const [watch] = await Promise.all([watchStatuses(until), ...listeners.map((l) => churn(l, until))]);

      const stays = listeners.flatMap((l) => l.stays).filter((s) => s.bot !== undefined);
      const long = stays.filter((s) => (s.leftAt ?? 0) - s.enteredAt > GRACE_MS + 1000);
      const unheard = long.filter((s) => !s.heard).map((s) => `bot ${s.bot} in ${s.room}`);
      const gaps = stays
        .filter((s) => s.maxGapMs > MAX_GAP_MS)
        .map(
          (s) =>
            `${Math.round(s.maxGapMs)} ms of bot ${s.bot}, from ${Math.round(s.worstGapAfterMs ?? 0)} ms after entering`,
        );
      const worstGap = Math.max(...stays.map((s) => s.maxGapMs));
      console.log(
        `churn: silences over ${MAX_GAP_MS} ms: ${gaps.join('; ') || 'none'}; ${stays.length} stays with a bot, worst silence ${Math.round(worstGap)} ms; ` +
          `${watch.pausedPolls} paused and ${watch.playingPolls} playing polls; dropped ` +
          `${proxy.dropped.toServer} to the server, ${proxy.dropped.toClient} to clients`,
      );
      expect(botDisconnects).toEqual([]);
      expect(watch.disconnected).toEqual([]);
      expect(watch.notPlaying).toEqual([]);
      expect(watch.falsePauses).toEqual([]);
      expect(watch.missedPauses).toEqual([]);
      expect(unheard).toEqual([]);
      expect(gaps).toEqual([]);
      // The run did what it is for: rooms emptied and filled again, and listeners heard their bots.
      expect(watch.pausedPolls).toBeGreaterThan(0);
      expect(long.length).toBeGreaterThan(LISTENERS);
    },
    (SECONDS + 90) * 1000,
  );
});
