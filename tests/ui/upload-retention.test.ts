/**
 * Uploads stay where people expect (issue 38, section 2), in the browser against the real service,
 * its daemon and a TS3 test server: the upload page says what happens to a file after it plays and
 * how much of the quota the uploads use; a played upload a saved queue lists survives the janitor's
 * sweep, is still listed and plays when the saved queue is loaded, and goes once that saved queue is
 * deleted; with "Keep played uploads as a library" switched on in Behaviour the page says so.
 *
 * The sweep is the daemon janitor's own (daemon/upload-janitor.ts), run at once by a second janitor
 * over the same database and bus instead of waiting out the daemon's 30 s delay; it reads the bot's
 * queue from the daemon over the bus, as another daemon's janitor would.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UploadJanitor } from '../../daemon/upload-janitor';
import { queueSnapshots, uploads } from '../../shared/db/schema';
import type { Song } from '../../shared/domain/schemas';
import { logger } from '../../shared/logger';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { addToneUpload } from '../../testkit/tone-uploads';
import { plainWav } from '../uploads/media-files';
import {
  connectedBot,
  screenshot,
  seriousViolations,
  signedInPage,
  startUiHarness,
  type UiHarness,
} from './ui-harness';

let ui: UiHarness;
let admin: Session;
let botId: string;
let page: Page;
let janitor: UploadJanitor;

beforeAll(async () => {
  ui = await startUiHarness({ UPLOAD_QUOTA_MB: '50' });
  admin = await setupAdmin(ui.t, 'owner');
  botId = await connectedBot(ui, admin, 'Shelf');
  const saved = await admin.api.POST('/api/bot/settings', { body: { savedQueuesEnabled: true } });
  expect(saved.response.status).toBe(200);
  janitor = new UploadJanitor({
    db: ui.t.db,
    bus: ui.t.bus,
    dataDir: ui.t.dataDir,
    log: logger('test'),
    ownQueues: () => new Map(),
  });
  page = await signedInPage(ui, 'owner');
}, 90_000);

afterAll(async () => {
  janitor?.stop();
  await ui?.close();
});

const openUploads = async () => {
  await page.goto(`${ui.baseUrl}/music`);
  await page.getByRole('tab', { name: 'Upload' }).click();
};
const stored = () => page.locator('.uploaded');
const quotaLine = () => stored().getByText(/ of 50 MB used$/);
/** The bot's stored queue snapshot as text ('' while there is none). */
const snapshotSongs = async () =>
  (await ui.t.db.query.queueSnapshots.findFirst({ where: eq(queueSnapshots.botId, botId) }))?.songs ?? '';
const isStored = async (song: Song) =>
  (await ui.t.db.query.uploads.findFirst({ where: eq(uploads.id, song.id) })) !== undefined;

describe('the upload page', () => {
  it('says a played file is deleted unless a queue or a saved queue lists it, and shows the quota used', async () => {
    await openUploads();
    await stored()
      .getByText('A file is deleted after it has played, unless a queue or a saved queue still lists it.')
      .waitFor();
    const before = await quotaLine().textContent();

    // 30 s of WAV, about 2.6 MB: the figure moves once it is stored.
    const wav = plainWav(mkdtempSync(join(tmpdir(), 'ui-retention-')), 30, 'long.wav');
    await page
      .getByLabel('Choose files')
      .setInputFiles({ name: 'long.wav', mimeType: 'audio/wav', buffer: wav });
    await stored().getByText('long', { exact: true }).waitFor();
    await expect.poll(() => quotaLine().textContent()).not.toBe(before);
    expect(await quotaLine().textContent()).toMatch(/^[1-9][\d.]* MB of 50 MB used$/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'upload-retention-01-sentence-and-quota');

    const phone = await ui.phonePage(page);
    await phone.goto(`${ui.baseUrl}/music`);
    await phone.getByRole('tab', { name: 'Upload' }).click();
    await phone.getByText(/ of 50 MB used$/).waitFor();
    await screenshot(phone, 'upload-retention-02-phone');
    await phone.context().close();
  }, 30_000);
});

describe("a saved queue's upload", () => {
  it('is still listed and plays after it was played, and goes once the saved queue is deleted', async () => {
    const song = await addToneUpload(ui.t.db, ui.t.dataDir, 'Keepsake Tone', [
      { frequencyHz: 523, seconds: 20 },
    ]);
    const play = await admin.api.POST('/api/player/{botId}/play-song', {
      params: { path: { botId } },
      body: { song },
    });
    expect(play.response.status).toBe(200);
    // A play marks the upload as played when its track starts.
    await expect
      .poll(async () => (await ui.t.db.query.uploads.findFirst({ where: eq(uploads.id, song.id) }))?.playedAt)
      .toBeInstanceOf(Date);
    const saved = await admin.api.POST('/api/saved-queues', { body: { botId, name: 'Keepsakes' } });
    expect(saved.response.status).toBe(200);
    const cleared = await admin.api.POST('/api/player/{botId}/clear', { params: { path: { botId } } });
    expect(cleared.response.status).toBe(200);
    // Neither the live queue nor its snapshot holds it any more: only the saved queue does.
    await expect.poll(snapshotSongs).not.toContain(song.id);

    expect(await janitor.sweep()).toEqual([]);
    expect(await isStored(song)).toBe(true);
    await openUploads();
    await stored().getByText('Keepsake Tone', { exact: true }).waitFor();

    await page.getByRole('tab', { name: 'Saved queues' }).click();
    await page.getByRole('button', { name: 'Load: Keepsakes' }).click();
    await page.getByText('1 songs loaded.').waitFor();
    await page.getByRole('link', { name: 'Player', exact: true }).click();
    await page.locator('.now-title', { hasText: 'Keepsake Tone' }).waitFor();
    const slider = page.getByRole('slider', { name: 'Position' });
    const at = Number(await slider.getAttribute('aria-valuenow'));
    await expect.poll(async () => Number(await slider.getAttribute('aria-valuenow'))).toBeGreaterThan(at);
    await screenshot(page, 'upload-retention-03-saved-queue-plays');

    // The saved queue was its last reference: deleted, the next sweep takes the played file. The song
    // leaves the live queue by a removal (a clear could be undone, so its songs would still be held).
    await admin.api.DELETE('/api/player/{botId}/queue/{index}', { params: { path: { botId, index: 0 } } });
    await page.goto(`${ui.baseUrl}/music`);
    await page.getByRole('tab', { name: 'Saved queues' }).click();
    await page.getByRole('button', { name: 'Delete Keepsakes' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No saved queues yet.').waitFor();
    await expect.poll(snapshotSongs).not.toContain(song.id);
    expect(await janitor.sweep()).toEqual([song.id]);
    await openUploads();
    await stored().getByText('long', { exact: true }).waitFor();
    expect(await stored().getByText('Keepsake Tone', { exact: true }).count()).toBe(0);
  }, 60_000);
});

describe('keepUploads', () => {
  it('is switched on in Behaviour with a sentence of what it does, and the upload page then says files are kept', async () => {
    await page.goto(`${ui.baseUrl}/settings/behaviour`);
    const keep = page.getByRole('checkbox', { name: 'Keep played uploads as a library' });
    expect(await keep.isChecked()).toBe(false);
    // Its description is tied to it, so a screen reader reads what it does with it.
    expect(await keep.getAttribute('aria-describedby')).toBeTruthy();
    await page.getByText(/^Off: an uploaded file is deleted after it has played/).waitFor();
    await keep.check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').first().waitFor();
    expect((await admin.api.GET('/api/bot/settings')).data?.keepUploads).toBe(true);
    await screenshot(page, 'upload-retention-04-behaviour');

    await openUploads();
    await stored()
      .getByText('Files are kept as a library; the oldest unused files go when the space runs out.')
      .waitFor();
    await quotaLine().waitFor();
    await screenshot(page, 'upload-retention-05-kept');

    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh');
    await stored().getByText('文件保留为曲库；空间用完时，最早且未被使用的文件先被删除。').waitFor();
    await stored()
      .getByText(/^已用 [\d.]+ MB，共 50 MB$/)
      .waitFor();
    await screenshot(page, 'upload-retention-06-kept-zh');
    await page.getByRole('combobox', { name: '语言' }).selectOption('en');
  }, 30_000);
});
