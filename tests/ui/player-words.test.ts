/**
 * The words and numbers the player shows, against the real service, daemon and TS3 test server: a
 * play mode's receipt names the mode as the mode menu does (English and 中文), and every percentage
 * (the bot's volume in the bar and on its dashboard card, the Listen volume, an upload's progress) is
 * written one way, the locale's.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAY_MODES } from '../../shared/domain/constants';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { addToneUpload } from '../../testkit/tone-uploads';
import { plainWav } from '../uploads/media-files';
import { connectedBot, screenshot, signedInPage, startUiHarness, type UiHarness } from './ui-harness';

let ui: UiHarness;
let admin: Session;
let page: Page;
let botId: string;

beforeAll(async () => {
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  botId = await connectedBot(ui, admin, 'Words');
  const song = await addToneUpload(ui.t.db, ui.t.dataDir, 'Words Tone', [{ frequencyHz: 440, seconds: 90 }]);
  const played = await admin.api.POST('/api/player/{botId}/play-song', {
    params: { path: { botId } },
    body: { song },
  });
  expect(played.response.status).toBe(200);
  const volume = await admin.api.POST('/api/player/{botId}/volume', {
    params: { path: { botId } },
    body: { volume: 42 },
  });
  expect(volume.response.status).toBe(200);
  page = await signedInPage(ui, 'owner');
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

const toast = (on: Page, text: string) => on.locator('.toast').filter({ hasText: text });

describe('the play mode', () => {
  it('is named in its receipt as the mode menu names it', async () => {
    await page.goto(`${ui.baseUrl}/player/${botId}`);
    const menu = page.getByRole('combobox', { name: 'Play mode' });
    await menu.waitFor();
    expect(await menu.locator('option').allTextContents()).toEqual([
      'In order',
      'Repeat queue',
      'Shuffle',
      'Shuffle forever',
    ]);
    for (const mode of [...PLAY_MODES.slice(1), PLAY_MODES[0]]) {
      await menu.selectOption(mode);
      const name = (await menu.locator(`option[value="${mode}"]`).textContent())!.trim();
      await toast(page, `Play mode: ${name}.`).waitFor();
      await expect
        .poll(
          async () =>
            (await admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } })).data?.playMode,
        )
        .toBe(mode);
    }
    await menu.selectOption('loop');
    await screenshot(page, 'words-01-mode-receipt');
  });

  it('says the same words in 中文', async () => {
    await page.getByLabel('Language').selectOption('zh');
    const menu = page.getByRole('combobox', { name: '播放模式' });
    await menu.selectOption('rloop');
    expect((await menu.locator('option[value="rloop"]').textContent())!.trim()).toBe('随机循环');
    await toast(page, '播放模式：随机循环。').waitFor();
    const phone = await ui.phonePage(page);
    await phone.goto(`${ui.baseUrl}/player/${botId}`);
    await phone.getByRole('combobox', { name: '播放模式' }).selectOption('loop');
    await toast(phone, '播放模式：列表循环。').waitFor();
    await screenshot(phone, 'words-02-mode-receipt-phone-zh');
    await phone.context().close();
    await page.getByLabel('语言').selectOption('en');
    await page.getByRole('combobox', { name: 'Play mode' }).waitFor();
  });
});

describe('even loudness', () => {
  it("says what the song gets and by which figure; the switch and the target are the bot's", async () => {
    await page.goto(`${ui.baseUrl}/player/${botId}`);
    await page.getByText(/^This song: [+−]\d+\.\d dB, as measured$/).waitFor();
    const even = page.getByRole('checkbox', { name: 'Even loudness' });
    expect(await even.isChecked()).toBe(true);
    await page.getByRole('combobox', { name: 'Target' }).selectOption('-20');
    await toast(page, 'Even loudness is on: every song plays at -20 LUFS.').waitFor();
    await even.uncheck();
    await toast(page, 'Even loudness is off: songs play as loud as they were made.').waitFor();
    await expect
      .poll(async () => (await admin.api.GET('/api/bot')).data?.bots.find((b) => b.id === botId)?.loudness)
      .toEqual({
        enabled: false,
        targetLufs: -20,
      });
    expect(await page.getByRole('combobox', { name: 'Target' }).isDisabled()).toBe(true);
    await screenshot(page, 'words-loudness-off');
    await even.check();
    await toast(page, 'Even loudness is on: every song plays at -20 LUFS.').waitFor();
  });
});

describe('autoplay', () => {
  it('is a switch of the bot, off until turned on, its receipt saying what it does', async () => {
    await page.goto(`${ui.baseUrl}/player/${botId}`);
    const auto = page.getByRole('checkbox', { name: 'Autoplay' });
    expect(await auto.isChecked()).toBe(false);
    await auto.check();
    await toast(page, 'Autoplay is on: when the queue runs out, songs like the last one follow.').waitFor();
    await expect
      .poll(async () => (await admin.api.GET('/api/bot')).data?.bots.find((b) => b.id === botId)?.autoplay)
      .toBe('related');
    await auto.uncheck();
    await toast(page, 'Autoplay is off: the bot stops when the queue runs out.').waitFor();
  });
});

describe('crossfade', () => {
  it('is a menu of the bot from Off to 12 s, its receipt saying what it does', async () => {
    await page.goto(`${ui.baseUrl}/player/${botId}`);
    const fade = page.getByRole('combobox', { name: 'Crossfade' });
    expect(await fade.inputValue()).toBe('0');
    expect(await fade.locator('option').allTextContents()).toEqual([
      'Off',
      ...Array.from({ length: 12 }, (_, i) => `${i + 1} s`),
    ]);
    expect(
      await fade.getAttribute('aria-describedby').then((id) => page.locator(`#${id}`).textContent()),
    ).toBe('The next song starts under the end of the one playing; off joins songs without a gap');
    // By keyboard, as a listener without a mouse sets it.
    await fade.focus();
    await page.keyboard.press('ArrowDown');
    await toast(page, 'Crossfade is 1 s: the next song starts under the end of the one playing.').waitFor();
    await fade.selectOption('6');
    await toast(page, 'Crossfade is 6 s: the next song starts under the end of the one playing.').waitFor();
    await expect
      .poll(
        async () =>
          (await admin.api.GET('/api/bot')).data?.bots.find((b) => b.id === botId)?.crossfadeSeconds,
      )
      .toBe(6);
    await screenshot(page, 'words-crossfade');
    await fade.selectOption('0');
    await toast(page, 'Crossfade is off: each song follows the last without a gap.').waitFor();
  });

  it('says the same in 中文, on a phone', async () => {
    await page.getByLabel('Language').selectOption('zh');
    const phone = await ui.phonePage(page);
    await phone.goto(`${ui.baseUrl}/player/${botId}`);
    const fade = phone.getByRole('combobox', { name: '淡入淡出' });
    // Read once the page has drawn it: allTextContents does not wait.
    await fade.waitFor();
    expect((await fade.locator('option').allTextContents()).slice(0, 2)).toEqual(['关闭', '1 秒']);
    await fade.selectOption('3');
    await toast(phone, '淡入淡出为 3 秒：下一首会在当前歌曲结尾时渐入。').waitFor();
    // It fits the phone's width beside the other controls.
    const box = (await fade.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await screenshot(phone, 'words-crossfade-phone-zh');
    await fade.selectOption('0');
    await toast(phone, '淡入淡出已关闭：歌曲之间无缝衔接。').waitFor();
    await phone.context().close();
    await page.getByLabel('语言').selectOption('en');
    await page.getByRole('combobox', { name: 'Play mode' }).waitFor();
  });
});

describe('percentages', () => {
  /** Every text on the page that holds a percent sign, trimmed. */
  const percentTexts = (on: Page) =>
    on.evaluate(() => {
      const found: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim() ?? '';
        if (text.includes('%')) found.push(text);
      }
      for (const element of document.querySelectorAll('[aria-valuetext]'))
        found.push(element.getAttribute('aria-valuetext')!);
      return found.filter((text) => text.includes('%'));
    });

  it("writes the bot's volume the same way on its card, in the bar and in the queue drawer", async () => {
    await page.goto(ui.baseUrl);
    await page.getByText('volume 42%').waitFor();
    const bar = page.getByRole('region', { name: 'Player of Words' });
    expect(await bar.locator('.volume output').textContent()).toBe('42%');
    expect(await bar.getByRole('slider', { name: 'Volume' }).getAttribute('aria-valuetext')).toBe('42%');
    // The receipt of a volume step says the volume the same way.
    await page.locator('h1').click();
    await page.keyboard.press('ArrowUp');
    await toast(page, 'Volume set to 47%.').waitFor();
    await expect.poll(() => bar.locator('.volume output').textContent()).toBe('47%');
    await page.keyboard.press('ArrowDown');
    await toast(page, 'Volume set to 42%.').waitFor();
    await page.getByText('volume 42%').waitFor();
    await expect.poll(() => bar.locator('.volume output').textContent()).toBe('42%');
    const texts = await percentTexts(page);
    expect(texts).toEqual(
      expect.arrayContaining([
        '1 in the queue · volume 42% · 0 listening in browsers',
        '42%',
        'Volume set to 42%.',
      ]),
    );
    expect(texts.filter((text) => /\d\s+%/.test(text))).toEqual([]);
    await screenshot(page, 'words-03-volume-percent');
    const phone = await ui.phonePage(page);
    await phone.goto(ui.baseUrl);
    await phone.getByText('volume 42%').waitFor();
    await phone
      .getByRole('region', { name: 'Player of Words' })
      .getByRole('button', { name: 'Queue' })
      .click();
    const drawer = phone.getByRole('complementary', { name: 'Queue' });
    expect(await drawer.locator('.volume output').textContent()).toBe('42%');
    await screenshot(phone, 'words-04-volume-percent-phone');
    await phone.context().close();
  });

  it('writes the Listen volume and an upload under way in the same format', async () => {
    await page.goto(`${ui.baseUrl}/player/${botId}`);
    await page.getByRole('button', { name: 'Listen', exact: true }).click();
    const listenLevel = page.locator('input[name="listenVolume"]');
    await listenLevel.waitFor();
    const valueText = (await listenLevel.getAttribute('aria-valuetext'))!;
    expect(valueText).toMatch(/^\d{1,3}%$/);
    expect(await page.locator('output', { hasText: '%' }).allTextContents()).toContain(valueText);
    await page.getByRole('button', { name: 'Stop listening' }).click();

    await page.goto(`${ui.baseUrl}/music`);
    await page.getByRole('tab', { name: 'Upload' }).click();
    // Held: the upload stays under way, its bytes sent.
    await page.route('**/api/music/local/upload', () => {});
    const wav = plainWav(mkdtempSync(join(tmpdir(), 'ui-words-')), 1);
    await page
      .getByLabel('Choose files')
      .setInputFiles([{ name: 'held.wav', mimeType: 'audio/wav', buffer: wav }]);
    const progress = page.getByRole('list', { name: 'Uploads on their way' }).locator('.upload-progress');
    await expect.poll(() => progress.textContent()).toMatch(/^\s*\d{1,3}%\s*$/);
    await screenshot(page, 'words-05-upload-percent');
    for (const text of await percentTexts(page)) expect(text).toMatch(/(^|\s)\d{1,3}%(\s|$)/);
    await page.getByRole('button', { name: 'Cancel the upload of held.wav' }).click();
    await page.unroute('**/api/music/local/upload');
  });
});
