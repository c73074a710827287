/**
 * A 中文 walk through the player and the uploads, against the real service, daemon and TS3 test
 * server: every receipt and error the server sends for these actions reaches the page in Chinese
 * (worded from the shared catalog by its code), and a guest's request reads "由 访客 点播".
 * Chromium here has no CJK font, so the texts are checked, not looked at.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { addToneUpload } from '../../testkit/tone-uploads';
import {
  connectedBot,
  fieldError,
  screenshot,
  signedInPage,
  startUiHarness,
  type UiHarness,
} from './ui-harness';

let ui: UiHarness;
let admin: Session;
let page: Page;
let botId = '';

beforeAll(async () => {
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  const tone = (name: string, frequencyHz: number) =>
    addToneUpload(ui.t.db, ui.t.dataDir, name, [{ frequencyHz, seconds: 60 }]);
  const [alpha, beta] = [await tone('Alpha Tone', 440), await tone('Beta Tone', 660)];
  botId = await connectedBot(ui, admin, 'Deck');
  const path = { params: { path: { botId } } };
  expect(
    (await admin.api.POST('/api/player/{botId}/play-song', { ...path, body: { song: alpha } })).response
      .status,
  ).toBe(200);
  await admin.api.POST('/api/bot/settings', { body: { guestMode: { enabled: true, bots: 'all' } } });
  const guest = ui.t.browser();
  expect((await guest.api.POST('/api/session/guest')).response.status).toBe(200);
  expect(
    (await guest.api.POST('/api/player/{botId}/add-song', { ...path, body: { song: beta } })).response.status,
  ).toBe(200);

  page = await signedInPage(ui, 'owner');
  await page.evaluate(() => localStorage.setItem('tsmb.locale', 'zh'));
}, 90_000);

afterAll(() => ui?.close());

const toast = (text: string) => page.locator('.toast').filter({ hasText: text });
const volume = async () =>
  (await admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } })).data!.volume;

describe('a 中文 walk', () => {
  it('shows who asked for a song in Chinese, the guest as 访客', async () => {
    await page.goto(`${ui.baseUrl}/player/${botId}`);
    const queue = page.locator('.song-list');
    await queue.getByText('由 访客 点播').waitFor();
    expect(await queue.textContent()).not.toContain('Guest');
  });

  it('words the receipts of volume, play mode and a removal in Chinese', async () => {
    await page.locator('h1').click();
    const start = await volume();
    await page.keyboard.press('ArrowUp');
    await expect.poll(volume).toBe(start + 5);
    await toast(`音量已设为 ${start + 5}%。`).waitFor();

    await page.locator('select[name="mode"]').selectOption('random');
    await toast('播放模式：随机播放。').waitFor();

    await page.getByRole('button', { name: '移除 Beta Tone' }).click();
    await toast('已移除：Beta Tone - tests').waitFor();
    await screenshot(page, 'language-01-zh-receipts');
  });

  it('words a refusal of the bot in Chinese', async () => {
    expect(
      (await admin.api.POST('/api/bot/{id}/stop', { params: { path: { id: botId } } })).response.status,
    ).toBe(200);
    await page.locator('h1').click();
    await page.keyboard.press('n');
    await toast('机器人未连接到语音服务器。').waitFor();
  });

  it('words upload refusals in Chinese', async () => {
    await page.goto(`${ui.baseUrl}/music`);
    await page.getByRole('tab', { name: '上传' }).click();
    const picker = page.locator('input[name="files"]');
    await picker.setInputFiles([
      { name: 'notes.txt', mimeType: 'audio/mpeg', buffer: Buffer.from('not a song') },
      { name: 'noise.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from('not a song either') },
    ]);
    await page.getByText(/^只能上传以 \.mp3, .* 结尾的文件（或 \.lrc，同名上传歌曲的歌词）。$/).waitFor();
    await page.getByText('这个文件不是可以播放的音频。').waitFor();
    await screenshot(page, 'language-02-zh-upload-errors');
  });

  it('says a field the server refused beside that field, in words about it', async () => {
    await page.goto(`${ui.baseUrl}/settings/bots`);
    await page.getByRole('button', { name: '添加机器人' }).click();
    await page.getByLabel('名称').fill('Lobby');
    await page.getByLabel('服务器上的昵称').fill('Lobby DJ');
    // Spaces inside a host name: only the server's schema knows this is no address.
    await page.getByLabel('服务器地址').fill('ts example org');
    await page.getByRole('button', { name: '创建' }).click();
    const address = page.getByLabel('服务器地址');
    await expect
      .poll(() => fieldError(address))
      .toBe('请输入 TeamSpeak 服务器的主机名或 IP 地址，例如 ts.example.com。');
    await screenshot(page, 'language-03-zh-field-error');
  });

  it('showed no English sentence of the server on the way', async () => {
    const shown = await page.locator('body').innerText();
    for (const english of [
      'Volume set',
      'Play mode:',
      'Removed:',
      'not connected',
      'x-filename',
      'no audio',
      'serverAddress',
    ])
      expect(shown).not.toContain(english);
  });
});

describe('signed out', () => {
  it('lets a visitor choose 中文 and the theme on the sign-in card, under the service’s name', async () => {
    const visitor = await ui.newPage({ locale: 'en-US' });
    await visitor.goto(`${ui.baseUrl}/login`);
    await visitor.getByText('TS3 Music Bot').waitFor();
    await visitor.getByRole('combobox', { name: 'Language' }).selectOption('zh');
    await visitor.getByRole('heading', { name: '登录' }).waitFor();
    await visitor.getByRole('button', { name: '以访客身份进入' }).waitFor();
    const theme = async () => visitor.evaluate(() => document.documentElement.dataset.theme);
    const before = await theme();
    await visitor.getByRole('button', { name: /^切换到/ }).click();
    expect(await theme()).not.toBe(before);
    await screenshot(visitor, 'language-04-zh-sign-in');
    await visitor.context().close();
  });
});
