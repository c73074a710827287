/**
 * Every chat command that mirrors a REST call replies with that call's receipt. Each REST call runs
 * first, the state is put back, then the chat command runs on the same state through a real voice
 * client in the bot's channel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TextMessage, Ts3Client } from '../../daemon/ts3';
import type { Song } from '../../shared/domain/schemas';
import { addToneUpload } from '../../testkit/tone-uploads';
import { startVoiceApp, type VoiceApp } from '../helpers/voice-app';
import { makeClient, nextEvent } from '../ts3/helpers';

let app: VoiceApp;
let listener: Ts3Client;
const songs: Song[] = [];
const bot = () => ({ params: { path: { botId: app.botId } } });

async function chat(line: string): Promise<string> {
  const reply = nextEvent<TextMessage>(
    listener,
    'textMessage',
    (m) => m.invokerName === 'Parity Bot',
    10_000,
  );
  await listener.sendChannelText(line);
  return (await reply).message;
}

const rest = {
  post: async (path: '/pause' | '/resume' | '/next' | '/prev' | '/stop' | '/clear') =>
    (await app.admin.api.POST(`/api/player/{botId}${path}`, bot())).data?.message,
  mode: async (mode: 'seq' | 'loop') =>
    (await app.admin.api.POST('/api/player/{botId}/mode', { ...bot(), body: { mode } })).data?.message,
  move: async (from: number, to: number) =>
    (await app.admin.api.POST('/api/player/{botId}/move', { ...bot(), body: { from, to } })).data?.message,
  remove: async (index: number) =>
    (
      await app.admin.api.DELETE('/api/player/{botId}/queue/{index}', {
        params: { path: { botId: app.botId, index } },
      })
    ).data?.message,
  add: (song: Song) => app.admin.api.POST('/api/player/{botId}/add-song', { ...bot(), body: { song } }),
  playAt: (index: number) => app.admin.api.POST('/api/player/{botId}/play-at', { ...bot(), body: { index } }),
};

async function freshQueue(): Promise<void> {
  await rest.post('/clear');
  for (const song of songs) await rest.add(song);
  await rest.playAt(0);
}

beforeAll(async () => {
  app = await startVoiceApp({ name: 'Parity', nickname: 'Parity Bot' });
  for (const [name, frequencyHz] of [
    ['One', 330],
    ['Two', 550],
    ['Three', 770],
  ] as const) {
    songs.push(await addToneUpload(app.t.db, app.t.dataDir, name, [{ frequencyHz, seconds: 30 }]));
  }
  // The uploads are the local source; make it the default so `!play One` finds them as `/play` does.
  await app.admin.api.POST('/api/bot/settings', { body: { defaultPlatform: 'local' } });
  await app.admin.api.POST('/api/bot/{id}/start', { params: { path: { id: app.botId } } });
  listener = makeClient(app.server.port, app.server.rootPublicKey, { nickname: 'Parity Listener' });
  await listener.connect();
  await freshQueue();
}, 60_000);

afterAll(async () => {
  await listener?.disconnect().catch(() => undefined);
  await app?.close();
});

describe('chat replies are the REST receipts', () => {
  it('pause and resume', async () => {
    const [pause, resume] = [await rest.post('/pause'), await rest.post('/resume')];
    expect(pause).toBe('Paused.');
    expect(await chat('!pause')).toBe(pause);
    expect(await chat('!resume')).toBe(resume);
  });

  it('next and prev', async () => {
    const [next, prev] = [await rest.post('/next'), await rest.post('/prev')];
    expect(next).toContain('Two');
    expect(await chat('!next')).toBe(next);
    expect(await chat('!prev')).toBe(prev);
  });

  it('mode', async () => {
    const loop = await rest.mode('loop');
    await rest.mode('seq');
    expect(await chat('!mode loop')).toBe(loop);
    await rest.mode('seq');
  });

  it('move (chat counts from 1)', async () => {
    const [there, back] = [await rest.move(2, 1), await rest.move(1, 2)];
    expect(there).toContain('Three');
    expect(await chat('!move 3 2')).toBe(there);
    expect(await chat('!move 2 3')).toBe(back);
  });

  it('remove (chat counts from 1)', async () => {
    const removed = await rest.remove(2);
    expect(removed).toContain('Three');
    await rest.add(songs[2]!);
    expect(await chat('!remove 3')).toBe(removed);
  });

  it('stop, then clear', async () => {
    await freshQueue();
    const stopped = await rest.post('/stop');
    await rest.playAt(0);
    expect(await chat('!stop')).toBe(stopped);
    const cleared = await rest.post('/clear');
    await freshQueue();
    expect(await chat('!clear')).toBe(cleared);
  });

  it('play and playnext', async () => {
    await freshQueue();
    const played = (
      await app.admin.api.POST('/api/player/{botId}/play', { ...bot(), body: { query: 'Two' } })
    ).data?.message;
    expect(played).toBe('Now playing: Two');
    await freshQueue();
    expect(await chat('!play Two')).toBe(played);
    await freshQueue();
    const found = (await app.admin.api.GET('/api/music/search', { params: { query: { q: 'Three' } } })).data!
      .songs[0]!;
    const next = (
      await app.admin.api.POST('/api/player/{botId}/play-next-song', { ...bot(), body: { song: found } })
    ).data?.message;
    expect(next).toContain('Three');
    await freshQueue();
    expect(await chat('!playnext Three')).toBe(next);
  });

  it('queue and now describe what REST reports', async () => {
    await freshQueue();
    const view = (await app.admin.api.GET('/api/player/{botId}/queue', bot())).data!;
    const lines = (await chat('!queue')).split('\n');
    expect(lines).toHaveLength(view.queue.length);
    expect(lines[0]).toBe('▶1. One - tests');
    expect(await chat('!now')).toMatch(/^Now playing: One - tests \[0:\d\d\/0:30\]$/);
  });
});
