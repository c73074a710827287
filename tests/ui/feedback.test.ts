/**
 * How the UI answers, against the real service, daemon and TS3 test server: receipts that coalesce
 * and fade, errors that can be dismissed and go with the page and the session, the app's own
 * dialogs for a password reset and a delete (never the browser's prompt or confirm), disabled
 * fields that look disabled, a blank name caught beside its field, and settings on a phone (tables as cards, names in full, the account link).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createMember, login, PASSWORD, type Session, setupAdmin } from '../../testkit/accounts';
import { addToneUpload } from '../../testkit/tone-uploads';
import {
  connectedBot,
  fieldError,
  hasFocus,
  screenshot,
  signedInPage,
  startUiHarness,
  type UiHarness,
} from './ui-harness';

let ui: UiHarness;
let admin: Session;
let page: Page;
let botId = '';
/** Native dialogs the page opened: there must be none. */
const nativeDialogs: string[] = [];

beforeAll(async () => {
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  const song = await addToneUpload(ui.t.db, ui.t.dataDir, 'Alpha Tone', [{ frequencyHz: 440, seconds: 60 }]);
  botId = await connectedBot(ui, admin, 'Deck');
  const played = await admin.api.POST('/api/player/{botId}/play-song', {
    params: { path: { botId } },
    body: { song },
  });
  expect(played.response.status).toBe(200);
  page = await signedInPage(ui, 'owner');
  page.on('dialog', (dialog) => {
    nativeDialogs.push(dialog.type());
    void dialog.dismiss();
  });
}, 90_000);

afterAll(async () => {
  expect(nativeDialogs).toEqual([]);
  await ui?.close();
});

const toasts = () => page.locator('.toast');
const volume = async () =>
  (await admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } })).data!.volume;

describe('toasts', () => {
  it('coalesces volume steps into one receipt, which then fades', async () => {
    await page.goto(`${ui.baseUrl}/player/${botId}`);
    await page.locator('h1').click();
    const start = await volume();
    for (let step = 0; step < 3; step++) await page.keyboard.press('ArrowUp');
    await expect.poll(volume).toBe(start + 15);
    await expect.poll(() => toasts().allTextContents()).toEqual([`Volume set to ${start + 15}%.`]);
    await expect.poll(() => toasts().count(), { timeout: 6000 }).toBe(0);
  });

  it('keeps an error until dismissed, and clears errors on leaving the page and on sign-out', async () => {
    const stopped = await admin.api.POST('/api/bot/{id}/stop', { params: { path: { id: botId } } });
    expect(stopped.response.status).toBe(200);
    const notConnected = toasts().filter({ hasText: 'The bot is not connected to the voice server.' });
    const failSkip = async () => {
      await page.locator('h1').click();
      await page.keyboard.press('n');
      await notConnected.waitFor();
    };

    await failSkip();
    await page.waitForTimeout(4000);
    expect(await notConnected.count()).toBe(1);
    await screenshot(page, 'feedback-01-error-toast');
    await notConnected.getByRole('button', { name: 'Dismiss' }).click();
    await notConnected.waitFor({ state: 'detached' });

    await failSkip();
    await page.getByRole('link', { name: 'Music', exact: true }).click();
    await notConnected.waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Player', exact: true }).click();
    await failSkip();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login/);
    expect(await toasts().count()).toBe(0);
    await page.getByLabel('Username').fill('owner');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Bots' }).waitFor();
    expect(await toasts().count()).toBe(0);
  });
});

describe("the app's own dialogs", () => {
  it('resets a password in a dialog that asks twice and never shows it', async () => {
    const member = await createMember(ui.t, admin);
    await page.goto(`${ui.baseUrl}/settings/users`);
    await page.getByRole('button', { name: `Reset the password: ${member.username}` }).click();
    const dialog = page.getByRole('dialog', { name: `New password for ${member.username}` });
    await dialog.getByLabel('New password').fill('a fresh password');
    await dialog.getByLabel('Repeat the password').fill('a fresh passwort');
    await dialog.getByRole('button', { name: 'Reset the password' }).click();
    const repeat = dialog.getByLabel('Repeat the password');
    await expect.poll(() => fieldError(repeat)).toBe('The two passwords differ.');
    expect(await hasFocus(repeat)).toBe(true);
    expect(await dialog.locator('input[type="password"]').count()).toBe(2);
    await screenshot(page, 'feedback-02-reset-dialog');
    await repeat.fill('a fresh password');
    await dialog.getByRole('button', { name: 'Reset the password' }).click();
    await dialog.waitFor({ state: 'detached' });
    await toasts()
      .filter({ hasText: `The password of ${member.username} was reset` })
      .waitFor();
    await login(ui.t, member.username, 'a fresh password');
  });

  it('asks before deleting, and Cancel or Escape keeps the item', async () => {
    await createKey(admin, 'doomed key');
    await page.goto(`${ui.baseUrl}/settings/keys`);
    const deleteButton = page.getByRole('button', { name: 'Delete the key doomed key' });
    const dialog = page.getByRole('dialog', { name: 'Delete doomed key?' });
    await deleteButton.click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await deleteButton.click();
    await dialog.waitFor();
    await screenshot(page, 'feedback-03-confirm-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await admin.api.GET('/api/keys')).data!.keys.map((key) => key.name)).toContain('doomed key');

    await deleteButton.click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await deleteButton.waitFor({ state: 'detached' });
    expect((await admin.api.GET('/api/keys')).data!.keys.map((key) => key.name)).not.toContain('doomed key');
  });

  it('shows a disabled field as disabled', async () => {
    await page.goto(`${ui.baseUrl}/settings/behaviour`);
    const ducking = page.getByLabel('Lower the music while people talk');
    const percent = page.getByLabel('Volume while people talk (%)');
    const opacity = () => percent.evaluate((input) => Number(getComputedStyle(input).opacity));
    await ducking.uncheck();
    expect(await percent.isDisabled()).toBe(true);
    expect(await opacity()).toBeLessThan(0.7);
    await ducking.check();
    expect(await opacity()).toBe(1);
  });
});

describe('errors next to their field', () => {
  it('catches a bot name of only spaces before sending, beside the field', async () => {
    await page.goto(`${ui.baseUrl}/settings/bots`);
    await page.getByRole('button', { name: 'Add a bot' }).click();
    await page.getByLabel('Name', { exact: true }).fill('   ');
    await page.getByLabel('Nickname on the server').fill('DJ Spaces');
    await page.getByLabel('Server address').fill('127.0.0.1');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const name = page.getByLabel('Name', { exact: true });
    await expect.poll(() => fieldError(name)).toBe('Name: type more than spaces.');
    expect(await hasFocus(name)).toBe(true);
    expect((await admin.api.GET('/api/bot')).data!.bots.map((bot) => bot.name)).toEqual(['Deck']);
    await screenshot(page, 'feedback-06-blank-name');
  });
});

describe('settings on a phone', () => {
  it('shows keys as cards with every field on screen, user names in full and the account link', async () => {
    await createKey(admin, 'home automation');
    const phone = await ui.phonePage(page);
    await phone.goto(`${ui.baseUrl}/settings/keys`);
    const card = phone.getByRole('row').filter({ hasText: 'home automation' });
    await card.waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    for (const part of [
      card.locator('td[data-label="Last used"]'),
      card.getByRole('button', { name: /^Delete the key/ }),
    ]) {
      const box = (await part.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await screenshot(phone, 'feedback-04-phone-keys');
    const account = phone.getByRole('link', { name: /^owner\W+Your account/ });
    expect(await account.isVisible()).toBe(true);

    await phone.goto(`${ui.baseUrl}/settings/users`);
    const name = phone.locator('.user-row .song-title', { hasText: /^owner$/ });
    await name.waitFor();
    expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await screenshot(phone, 'feedback-05-phone-users');
    await phone.context().close();
  });
});
