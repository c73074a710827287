/**
 * Which bot a page is about, against the real service, daemon and TS3 test server: adding a bot leaves
 * the player on the bot it shows (what plays is what the bar controls); a `/bot/<id>` or `/player/<id>`
 * link to a bot that does not exist, or no longer does, says so with a way to the bot list, and asks
 * the api nothing about that bot (no 404 in the console).
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { addToneUpload } from '../../testkit/tone-uploads';
import {
  connectedBot,
  consoleErrors,
  screenshot,
  seriousViolations,
  signedInPage,
  startUiHarness,
  type UiHarness,
} from './ui-harness';

let ui: UiHarness;
let admin: Session;
let page: Page;
let zulu = '';

beforeAll(async () => {
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  zulu = await connectedBot(ui, admin, 'Zulu');
  const song = await addToneUpload(ui.t.db, ui.t.dataDir, 'Zulu Tone', [{ frequencyHz: 440, seconds: 90 }]);
  const played = await admin.api.POST('/api/player/{botId}/play-song', {
    params: { path: { botId: zulu } },
    body: { song },
  });
  expect(played.response.status).toBe(200);
  page = await signedInPage(ui, 'owner');
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

const bar = (on: Page, botName: string) => on.getByRole('region', { name: `Player of ${botName}` });
const botIdNamed = async (name: string) =>
  (await admin.api.GET('/api/bot')).data!.bots.find((bot) => bot.name === name)!.id;

describe('adding a bot', () => {
  it('leaves the player on the bot it shows; the new bot waits in the bot menu', async () => {
    await bar(page, 'Zulu').getByRole('link', { name: 'Zulu Tone' }).waitFor();
    await page.goto(`${ui.baseUrl}/settings/bots`);
    await page.getByRole('button', { name: 'Add a bot' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Newbie');
    await page.getByLabel('Nickname on the server').fill('DJ Newbie');
    await page.getByLabel('Server address').fill('127.0.0.1');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('.toast').filter({ hasText: 'Newbie was created.' }).waitFor();
    await bar(page, 'Zulu').waitFor();
    expect(await bar(page, 'Newbie').count()).toBe(0);
    await screenshot(page, 'bot-links-01-added-bar-stays');
    await page.getByRole('link', { name: 'Player', exact: true }).click();
    await page.getByRole('heading', { name: 'Zulu', level: 1 }).waitFor();
    const menu = page.getByRole('combobox', { name: /^Bot/ });
    expect(await menu.locator('option').allTextContents()).toEqual(['Zulu', 'Newbie (disconnected)']);
    expect(await page.evaluate(() => localStorage.getItem('tsmb.bot'))).toBe(zulu);
  });
});

describe('a link to a bot that does not exist', () => {
  /** Requests this page makes that name `id`: none is wanted. */
  function requestsNaming(on: Page, id: string): string[] {
    const seen: string[] = [];
    on.on('request', (request) => {
      if (request.url().includes('/api/') && request.url().includes(id)) seen.push(request.url());
    });
    return seen;
  }

  it('/bot/<unknown> says the bot does not exist, leads to the bot list and asks nothing about it', async () => {
    const unknown = randomUUID();
    const fresh = await ui.newPage({ storageState: await page.context().storageState() });
    fresh.setDefaultTimeout(8000);
    const errors = consoleErrors(fresh);
    const asked = requestsNaming(fresh, unknown);
    await fresh.goto(`${ui.baseUrl}/bot/${unknown}`);
    const missing = fresh.getByRole('status').filter({ hasText: 'This bot does not exist (any more)' });
    await missing.waitFor();
    expect(await fresh.locator('body').innerText()).not.toContain(unknown);
    expect((await seriousViolations(fresh)).map((v) => v.id)).toEqual([]);
    await screenshot(fresh, 'bot-links-02-unknown-bot');
    await missing.getByRole('link', { name: 'See all bots' }).click();
    await fresh.getByRole('heading', { name: 'Bots' }).waitFor();
    expect(asked).toEqual([]);
    expect(errors).toEqual([]);
    await fresh.context().close();
  });

  it('/player/<deleted> says so too, on a phone and in 中文', async () => {
    const newbie = await botIdNamed('Newbie');
    const deleted = await admin.api.DELETE('/api/bot/{id}', { params: { path: { id: newbie } } });
    expect(deleted.response.status).toBe(204);
    const phone = await ui.phonePage(page);
    const errors = consoleErrors(phone);
    const asked = requestsNaming(phone, newbie);
    await phone.goto(`${ui.baseUrl}/player/${newbie}`);
    await phone.getByText('This bot does not exist (any more), or it is not shared with you.').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, 'bot-links-03-deleted-bot-phone');
    await phone.getByLabel('Language').selectOption('zh');
    await phone.getByText('此机器人不存在（或已被删除），或未与你共享。').waitFor();
    await phone.getByRole('link', { name: '查看所有机器人' }).waitFor();
    await screenshot(phone, 'bot-links-04-deleted-bot-phone-zh');
    expect(asked).toEqual([]);
    expect(errors).toEqual([]);
    await phone.context().close();
  });

  it('a player page open on a bot that is then deleted says it is gone, with no failed request', async () => {
    const gone = await connectedBot(ui, admin, 'Gone');
    const errors = consoleErrors(page);
    await page.goto(`${ui.baseUrl}/player/${gone}`);
    await page.getByRole('heading', { name: 'Gone', level: 1 }).waitFor();
    const deleted = await admin.api.DELETE('/api/bot/{id}', { params: { path: { id: gone } } });
    expect(deleted.response.status).toBe(204);
    await page.getByText('This bot does not exist (any more)').waitFor();
    await page.getByRole('link', { name: 'See all bots' }).waitFor();
    expect(errors).toEqual([]);
  });
});
