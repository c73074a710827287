/**
 * Defect 11 of issue 22 in the browser: a bot configured for a channel the TS3 test server does not
 * have lands in the server's default channel (Lobby); connecting it from its card says so in a toast,
 * and the card shows the channel joined with a note naming the missing one, in English and in 中文, on
 * a desktop and a phone. A bot whose channel exists shows its channel and no note. A bot whose nickname
 * another client already has joins under a suffixed one, and its card says so (issue 40).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { screenshot, seriousViolations, signedInPage, startUiHarness, type UiHarness } from './ui-harness';

let ui: UiHarness;
let admin: Session;
let page: Page;

async function createBot(name: string, defaultChannel: string, nickname = `DJ ${name}`): Promise<void> {
  const bot = await admin.api.POST('/api/bot', {
    body: {
      name,
      nickname,
      serverAddress: '127.0.0.1',
      serverPort: ui.server.port,
      defaultChannel,
    },
  });
  expect(bot.response.status).toBe(201);
}

beforeAll(async () => {
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  await createBot('Echo', 'Nowhere');
  await createBot('Quill', 'Music/Quiet');
  await createBot('Twin', 'Lobby', 'DJ Quill');
  page = await signedInPage(ui, 'owner');
  await page.setViewportSize({ width: 1280, height: 800 });
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

const card = (on: Page, name: string) =>
  on.getByRole('listitem').filter({ has: on.getByRole('heading', { name }) });
const toasts = (on: Page) => on.getByRole('status');

describe('the channel a bot actually joined, on its card', () => {
  it('tells in a toast and on the card that the configured channel does not exist', async () => {
    const echo = card(page, 'Echo');
    expect(await echo.getByText(/^Channel: /).count()).toBe(0);
    await echo.getByRole('button', { name: /^Connect/ }).click();
    await toasts(page).getByText('Connected. Channel Nowhere does not exist; joined Lobby.').waitFor();
    await echo.getByText('Channel: Lobby').waitFor();
    await echo.getByText('Channel Nowhere does not exist; joined Lobby.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'joined-channel-01-desktop-en');
  });

  it('shows the channel joined and no note when the configured channel exists', async () => {
    const quill = card(page, 'Quill');
    await quill.getByRole('button', { name: /^Connect/ }).click();
    await quill.getByText('Channel: Quiet').waitFor();
    expect(await quill.getByText(/does not exist/).count()).toBe(0);
    // The channel and the queue summary read as one block of lines, with no empty band between them.
    const channel = await quill.getByText('Channel: Quiet').boundingBox();
    const summary = await quill.getByText(/in the queue/).boundingBox();
    expect(summary!.y - (channel!.y + channel!.height)).toBeLessThan(8);
  });

  it('joins under a suffixed nickname when another bot has its nickname, and says so', async () => {
    const twin = card(page, 'Twin');
    await twin.getByRole('button', { name: /^Connect/ }).click();
    const note = 'Nickname DJ Quill is already in use on the server; connected as DJ Quill (2).';
    await toasts(page).getByText(`Connected. ${note}`).waitFor();
    await twin.getByText(note).waitFor();
    expect(ui.server.clientByName('DJ Quill (2)')).toBeDefined();
    expect(
      await card(page, 'Quill')
        .getByText(/already in use/)
        .count(),
    ).toBe(0);
    await screenshot(page, 'joined-channel-04-nickname-taken');
  });

  it('says the same in 中文 on a phone, the toast included', async () => {
    const phone = await ui.phonePage(page);
    await phone.goto(`${ui.baseUrl}/`);
    await phone.getByLabel('Language').selectOption('zh');
    const echo = card(phone, 'Echo');
    await echo.getByText('频道：Lobby').waitFor();
    await echo.getByText('频道 Nowhere 不存在，已进入 Lobby。').waitFor();
    await card(phone, 'Twin')
      .getByText('昵称 DJ Quill 在服务器上已被使用，已改用 DJ Quill (2) 连接。')
      .waitFor();
    await screenshot(phone, 'joined-channel-02-phone-zh');
    await echo.getByRole('button', { name: /^断开/ }).click();
    await echo.getByRole('button', { name: /^连接/ }).click();
    await toasts(phone)
      .getByText(/频道 Nowhere 不存在，已进入 Lobby。/)
      .waitFor();
    await screenshot(phone, 'joined-channel-03-phone-zh-toast');
    await phone.context().close();
  });
});
