/**
 * A bot deleted through the API is gone at once for whoever asks next: `GET /api/bot/{id}` right after
 * `DELETE /api/bot/{id}` answers 404, never the daemon's last word on it (a 200) and never a 500 from a
 * command that reached the daemon while it was letting the bot go. The layout is `make run`'s: the api
 * on this thread, the real daemon on its own thread, the bus between them over a port; the sequence
 * runs many times, since each run is a race between the two threads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotStatus } from '../../shared/domain/schemas';
import { addToneUpload } from '../../testkit/tone-uploads';
import { type RunLayout, startRunLayout } from '../helpers/run-layout';

const ROUNDS = 40;

describe('a deleted bot, asked for right away', () => {
  let run: RunLayout;
  const send = (method: string, path: string, body?: unknown) => run.send(method, path, body);

  async function createBot(name: string): Promise<string> {
    const answer = await send('POST', '/api/bot', {
      name,
      nickname: name,
      serverAddress: '127.0.0.1',
      serverPort: run.server.port,
    });
    expect(answer.status).toBe(201);
    return ((await answer.json()) as { id: string }).id;
  }

  /** Deletes the bot and asks for it at once: what the GET answered. */
  async function deleteThenGet(botId: string): Promise<{ status: number; body: string }> {
    expect((await send('DELETE', `/api/bot/${botId}`)).status).toBe(204);
    const answer = await send('GET', `/api/bot/${botId}`);
    return { status: answer.status, body: await answer.text() };
  }

  beforeAll(async () => {
    run = await startRunLayout('bot-removal');
  }, 60_000);

  afterAll(() => run?.close());

  it('answers 404 for an idle bot, every time', async () => {
    const answers: { status: number; body: string }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const botId = await createBot(`Gone${round}`);
      // Heard of once, so the api has a recent status of it that the delete must not outlive.
      expect((await send('GET', `/api/bot/${botId}`)).status).toBe(200);
      answers.push(await deleteThenGet(botId));
    }
    expect(answers.filter((answer) => answer.status !== 404)).toEqual([]);
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ error: expect.any(String) });
  }, 120_000);

  it('answers 404 for a bot playing in a voice session, every time', async () => {
    const song = await addToneUpload(run.backends.db, run.dataDir, 'long tone', [
      { frequencyHz: 440, seconds: 30 },
    ]);
    const answers: { status: number; body: string }[] = [];
    for (let round = 0; round < ROUNDS / 4; round++) {
      const botId = await createBot(`Live${round}`);
      expect((await send('POST', `/api/bot/${botId}/start`)).status).toBe(200);
      expect((await send('POST', `/api/player/${botId}/play-song`, { song })).status).toBe(200);
      // Stopping its playback on the way out is a change the daemon would tell of, after the delete.
      await expect
        .poll(async () => ((await (await send('GET', `/api/bot/${botId}`)).json()) as BotStatus).playing)
        .toBe(true);
      answers.push(await deleteThenGet(botId));
    }
    expect(answers.filter((answer) => answer.status !== 404)).toEqual([]);
  }, 120_000);
});
