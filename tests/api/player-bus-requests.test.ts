/**
 * What one play costs on the bus, on the real app, daemon and TS3 test server, counted by a spy on the
 * bus the api talks through: one request to the bot, the play itself, whose answer decides (the daemon
 * checks the connection on arrival). Only a play whose song a platform must first give, for a bot this
 * api has not heard connected, asks for its status first, so that no platform is asked for a bot that
 * could not play the answer; either way a disconnected bot gets the same 409.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { botCommandSubject } from '../../shared/bus/subjects';
import type { Song } from '../../shared/domain/schemas';
import { receipts } from '../../shared/receipts';
import { addToneUpload } from '../../testkit/tone-uploads';
import { startVoiceApp, type VoiceApp } from '../helpers/voice-app';

let app: VoiceApp;
let song: Song;
/** Every request the app's bus carried since the last test began: subject and command. */
const sent: { subject: string; command: unknown }[] = [];
const bot = () => ({ params: { path: { botId: app.botId } } });
const botPath = () => ({ params: { path: { id: app.botId } } });

/** The ops sent to the bot since `sent` was last emptied, in order. */
const opsSent = () =>
  sent
    .filter(({ subject }) => subject === botCommandSubject(app.botId))
    .map(({ command }) => (command as { op: string }).op);

const notConnected = { error: receipts.notConnected(), message: receipts.notConnected(), ok: false };

beforeAll(async () => {
  app = await startVoiceApp({ name: 'Counted', nickname: 'Counted Bot' });
  song = await addToneUpload(app.t.db, app.t.dataDir, 'Counted Tone', [{ frequencyHz: 440, seconds: 30 }]);
  // A spy on the bus the api and the daemon share: it notes each request, then sends it on.
  const bus = app.t.bus;
  const request = bus.request.bind(bus);
  bus.request = (subject, command, options) => {
    sent.push({ subject, command });
    return request(subject, command, options);
  };
}, 60_000);
afterAll(() => app?.close());
beforeEach(() => {
  sent.length = 0;
});

describe('one play, one bus request', () => {
  it('a song not heard connected: its status first, and no lookup for a disconnected bot', async () => {
    const played = await app.admin.api.POST('/api/player/{botId}/play', {
      ...bot(),
      body: { query: 'Counted', platform: 'local' },
    });
    expect(played.response.status).toBe(409);
    expect(played.error).toMatchObject(notConnected);
    expect(opsSent()).toEqual(['status']);
  });

  it('a given song on a disconnected bot: the daemon refuses it, with the same 409', async () => {
    const played = await app.admin.api.POST('/api/player/{botId}/play-song', { ...bot(), body: { song } });
    expect(played.response.status).toBe(409);
    expect(played.error).toMatchObject(notConnected);
    expect(opsSent()).toEqual(['playSong']);
  });

  it('a given song on a connected bot', async () => {
    const started = await app.admin.api.POST('/api/bot/{id}/start', botPath());
    expect(started.data?.connected).toBe(true);
    sent.length = 0;
    const played = await app.admin.api.POST('/api/player/{botId}/play-song', { ...bot(), body: { song } });
    expect(played.response.status).toBe(200);
    expect(played.data?.ok).toBe(true);
    expect(opsSent()).toEqual(['playSong']);
  });

  it('a song looked up for a bot this api heard connected', async () => {
    // What the page does anyway: it shows the bot, so the api hears how the bot is.
    expect((await app.admin.api.GET('/api/bot/{id}', botPath())).data?.connected).toBe(true);
    sent.length = 0;
    const played = await app.admin.api.POST('/api/player/{botId}/play', {
      ...bot(),
      body: { query: 'Counted', platform: 'local' },
    });
    expect(played.response.status).toBe(200);
    expect(played.data?.message).toBe('Now playing: Counted Tone');
    expect(opsSent()).toEqual(['playSong']);
  });
});
