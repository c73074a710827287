/**
 * Play never destroys (issue 38): a single-song Play says that it replaces the queue, its receipt
 * offers Undo, and Undo brings back the queue with its current song; the Behaviour settings ask
 * `playKeepsQueue` in plain words, and the Play control then says it keeps the queue; clearing the
 * queue offers Undo too. Against the real service, daemon and TS3 test server, in English and 中文.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '../../shared/domain/schemas';
import { createMember, type Session, setupAdmin } from '../../testkit/accounts';
import { addNamedTones } from '../../testkit/tone-uploads';
import { connectedBot, screenshot, signedInPage, startUiHarness, type UiHarness } from './ui-harness';

let ui: UiHarness;
let admin: Session;
let botId = '';
let page: Page;
const songs: Song[] = [];

const queueIds = async () =>
  (await admin.api.GET('/api/player/{botId}/queue', { params: { path: { botId } } })).data!.queue.map(
    (song) => song.id,
  );
const current = async () =>
  (await admin.api.GET('/api/player/{botId}/queue', { params: { path: { botId } } })).data!.status.currentSong
    ?.id;

/** Alpha, Beta and Gamma queued with Beta playing. */
async function threeQueuedBetaPlaying() {
  const path = { params: { path: { botId } } };
  await admin.api.POST('/api/player/{botId}/clear', path);
  for (const song of songs.slice(0, 3))
    await admin.api.POST('/api/player/{botId}/add-song', { ...path, body: { song } });
  await admin.api.POST('/api/player/{botId}/play-at', { ...path, body: { index: 1 } });
  expect(await current()).toBe(songs[1]!.id);
}

async function searchUploads(query: string) {
  await page.goto(`${ui.baseUrl}/music`);
  await page.getByLabel('Search for songs, albums or playlists').fill(query);
  await page.getByLabel('Source').selectOption('local');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

beforeAll(async () => {
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  const tones = [
    ['Alpha', 440],
    ['Beta', 660],
    ['Gamma', 880],
    ['Delta', 990],
  ] as const;
  songs.push(...(await addNamedTones(ui.t.db, ui.t.dataDir, tones, 60)));
  botId = await connectedBot(ui, admin, 'Jukebox');
  page = await signedInPage(ui, 'owner');
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

describe('a single-song Play', () => {
  it('says it replaces the queue, and its receipt offers Undo, which brings the queue back', async () => {
    await threeQueuedBetaPlaying();
    await searchUploads('Delta');
    await page.getByRole('button', { name: 'Play, replacing the queue: Delta Tone' }).click();
    const toast = page.locator('.toast', { hasText: 'Now playing: Delta Tone' });
    await toast.waitFor();
    expect(await queueIds()).toEqual([songs[3]!.id]);
    await screenshot(page, 'play-undo-01-receipt');

    await toast.getByRole('button', { name: 'Undo' }).click();
    await page.locator('.toast', { hasText: 'The previous queue is back (3 songs).' }).waitFor();
    expect(await queueIds()).toEqual(songs.slice(0, 3).map((song) => song.id));
    expect(await current()).toBe(songs[1]!.id);
  });

  it('offers no Undo when there was no queue to lose', async () => {
    await admin.api.POST('/api/player/{botId}/clear', { params: { path: { botId } } });
    await searchUploads('Alpha');
    await page.getByRole('button', { name: 'Play, replacing the queue: Alpha Tone' }).click();
    const toast = page.locator('.toast', { hasText: 'Now playing: Alpha Tone' });
    await toast.waitFor();
    expect(await toast.getByRole('button', { name: 'Undo' }).count()).toBe(0);
  });
});

describe('clearing the queue', () => {
  it('offers Undo on its receipt', async () => {
    await threeQueuedBetaPlaying();
    await page.goto(`${ui.baseUrl}/player`);
    await page.getByRole('button', { name: 'Clear the queue' }).click();
    const toast = page.locator('.toast', { hasText: 'Queue cleared.' });
    await toast.waitFor();
    expect(await queueIds()).toEqual([]);
    await toast.getByRole('button', { name: 'Undo' }).click();
    await page.locator('.toast', { hasText: 'The previous queue is back (3 songs).' }).waitFor();
    expect(await queueIds()).toHaveLength(3);
  });
});

describe('the behaviour settings', () => {
  it('ask what Play on one song does in plain words, and the Play control then says it keeps the queue', async () => {
    await page.goto(`${ui.baseUrl}/settings/behaviour`);
    const choice = page.getByRole('group', { name: 'Playing a single song' });
    expect(await choice.getByLabel('Replace the queue with it').isChecked()).toBe(true);
    await choice.getByLabel('Keep the queue and play it now').check();
    await screenshot(page, 'play-undo-02-behaviour');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.toast', { hasText: 'Saved.' }).waitFor();
    expect((await admin.api.GET('/api/bot/settings')).data?.playKeepsQueue).toBe(true);

    await threeQueuedBetaPlaying();
    await searchUploads('Delta');
    await page.getByRole('button', { name: 'Play now, keeping the queue: Delta Tone' }).click();
    await page.locator('.toast', { hasText: 'Now playing: Delta Tone' }).waitFor();
    expect(await queueIds()).toEqual([songs[0]!.id, songs[1]!.id, songs[3]!.id, songs[2]!.id]);
    await admin.api.POST('/api/bot/settings', { body: { playKeepsQueue: false } });
  });

  it('name in 中文 what the Play controls will do', async () => {
    const zh = await ui.newPage({ storageState: await page.context().storageState() });
    await zh.goto(ui.baseUrl);
    await zh.evaluate(() => localStorage.setItem('tsmb.locale', 'zh'));
    await zh.goto(`${ui.baseUrl}/settings/behaviour`);
    await zh.getByRole('group', { name: '播放单首歌曲时' }).getByLabel('保留队列，立即播放它').waitFor();
    await zh.close();
  });
});

describe('the member settings', () => {
  it('say that playing may replace the queue, not only editing it', async () => {
    const member = await createMember(ui.t, admin);
    await page.goto(`${ui.baseUrl}/settings/users`);
    await page.getByRole('button', { name: `Permissions: ${member.username}` }).click();
    await page
      .getByText('Play, skip and pause (playing a song or a playlist may replace the queue)')
      .first()
      .waitFor();
  });
});
