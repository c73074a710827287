/**
 * The channel watch against a small fake of the client's events: the TS3 client cannot be made to sit
 * in an empty channel for minutes here, and the watch takes its idle timeout in milliseconds.
 */
import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientInfo, Ts3ClientEvents } from '../../ts3';
import { ChannelWatch } from './channel-watch';

const OWN_ID = 1;
const CHANNEL_ID = 10;
const OTHER_CHANNEL_ID = 20;
const IDLE_MS = 150;
/** Timers on a shared machine fire late; a margin this wide still tells "fired" from "never fired". */
const SLACK_MS = 250;

class FakeClient extends EventEmitter<Ts3ClientEvents> {
  readonly clientId = OWN_ID;
  private readonly present = new Map<number, number>([[OWN_ID, CHANNEL_ID]]);

  clientsInChannel(channelId = CHANNEL_ID): ClientInfo[] {
    return [...this.present]
      .filter(([, channel]) => channel === channelId)
      .map(([id, channel]) => clientInfo(id, channel));
  }

  enter(id: number): void {
    this.present.set(id, CHANNEL_ID);
    this.emit('clientEnter', clientInfo(id, CHANNEL_ID));
  }

  leave(id: number): void {
    this.present.delete(id);
    this.emit('clientLeave', { clientId: id, reasonId: 8, message: '', fromChannelId: CHANNEL_ID });
  }

  moveAway(id: number): void {
    this.present.set(id, OTHER_CHANNEL_ID);
    this.emit('clientMoved', {
      clientId: id,
      reasonId: 0,
      toChannelId: OTHER_CHANNEL_ID,
      fromChannelId: CHANNEL_ID,
    });
  }

  talk(id: number, talking: boolean): void {
    this.emit('talkStatus', { clientId: id, talking });
  }
}

function clientInfo(id: number, channelId: number): ClientInfo {
  return {
    id,
    channelId,
    nickname: `client${id}`,
    uid: `uid${id}`,
    databaseId: id,
    type: 0,
    serverGroups: [],
    channelGroupId: 0,
    away: false,
    awayMessage: '',
    description: '',
    avatarHash: '',
    talkPower: 0,
  };
}

const watches: ChannelWatch[] = [];
afterEach(() => {
  for (const watch of watches.splice(0)) watch.dispose();
});

function watch(client: FakeClient, idleTimeoutMs: number) {
  const w = new ChannelWatch(client);
  watches.push(w);
  const events: string[] = [];
  w.on('alone', (alone) => events.push(alone ? 'alone' : 'company'));
  w.on('othersTalking', (talking) => events.push(talking ? 'talking' : 'quiet'));
  w.on('idle', () => events.push('idle'));
  w.setIdleTimeout(idleTimeoutMs);
  return { w, events };
}

describe('ChannelWatch', () => {
  it('fires idle once the channel has stayed empty for the timeout', async () => {
    const client = new FakeClient();
    const { w, events } = watch(client, IDLE_MS);
    expect(w.alone).toBe(true);
    await sleep(IDLE_MS + SLACK_MS);
    expect(events).toEqual(['idle']);
  });

  it('restarts the timer when someone comes and goes, and never fires while someone stays', async () => {
    const client = new FakeClient();
    client.enter(2);
    const { events } = watch(client, IDLE_MS);
    await sleep(IDLE_MS + SLACK_MS);
    expect(events).toEqual([]);
    client.leave(2);
    await sleep(IDLE_MS / 2);
    client.enter(3);
    await sleep(IDLE_MS + SLACK_MS);
    expect(events).toEqual(['alone', 'company']);
    client.moveAway(3);
    await sleep(IDLE_MS + SLACK_MS);
    expect(events).toEqual(['alone', 'company', 'alone', 'idle']);
  });

  it('never fires with a timeout of 0, and switching it on later arms it', async () => {
    const client = new FakeClient();
    const { w, events } = watch(client, 0);
    await sleep(IDLE_MS + SLACK_MS);
    expect(events).toEqual([]);
    w.setIdleTimeout(IDLE_MS);
    await sleep(IDLE_MS + SLACK_MS);
    expect(events).toEqual(['idle']);
  });

  it('reports talk of others in the channel only, and stops it when they leave', () => {
    const client = new FakeClient();
    client.enter(2);
    const { events } = watch(client, 0);
    client.talk(OWN_ID, true);
    client.talk(99, true);
    expect(events).toEqual([]);
    client.talk(2, true);
    client.talk(2, true);
    client.leave(2);
    expect(events).toEqual(['talking', 'quiet', 'alone']);
  });
});
