/**
 * SPEC Persisted playback settings: with `savedQueuesEnabled` on, the live queue is snapshotted, and
 * "the snapshot is cancelled on disconnect". Over REST on the real app and daemon: a playing bot's
 * snapshot is written; the voice server goes away; once the bot shows disconnected the snapshot is
 * gone, while the live queue stays for a reconnect to play on from.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queueSnapshots } from '../../shared/db/schema';
import { addToneUpload } from '../../testkit/tone-uploads';
import { startVoiceApp, type VoiceApp } from '../helpers/voice-app';

let app: VoiceApp;
beforeAll(async () => {
  app = await startVoiceApp({ name: 'Keeper', nickname: 'Keeper Bot' });
}, 60_000);
afterAll(async () => {
  // The test closed the voice server already.
  await app?.t.close();
});

it('cancels the saved-queue snapshot when the bot loses its connection', async () => {
  const { t, admin, botId, server } = app;
  const bot = { params: { path: { botId } } };
  expect(
    (await admin.api.POST('/api/bot/settings', { body: { savedQueuesEnabled: true } })).response.status,
  ).toBe(200);
  expect(
    (await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } })).data?.connected,
  ).toBe(true);
  const song = await addToneUpload(t.db, t.dataDir, 'Kept Tone', [{ frequencyHz: 600, seconds: 30 }]);
  expect((await admin.api.POST('/api/player/{botId}/play-song', { ...bot, body: { song } })).data?.ok).toBe(
    true,
  );
  const snapshot = () => t.db.query.queueSnapshots.findFirst({ where: eq(queueSnapshots.botId, botId) });
  await expect.poll(async () => (await snapshot())?.songs).toContain(song.id);

  await server.close();
  await expect
    .poll(
      async () => (await admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } })).data?.connected,
    )
    .toBe(false);
  await expect.poll(snapshot).toBeUndefined();
  expect((await admin.api.GET('/api/player/{botId}/queue', bot)).data?.queue.map((s) => s.id)).toEqual([
    song.id,
  ]);
});
