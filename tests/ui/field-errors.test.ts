/**
 * Errors beside the field they concern in every form, against the real service: first-run setup,
 * sign-in, the password change, users and their password reset, API keys, saved queues, Behaviour and
 * the platform settings (Jellyfin, Spotify, a cookie, an SMS login). A value the page can judge
 * (blank, only spaces, too short, out of range, passwords that differ) is caught before sending; a
 * field the server refuses is said beside it too. Either way the input is marked aria-invalid, points
 * at its message, has focus when it is the first in error, and nothing is stored. In English and
 * 中文, on a desktop and a phone, with no axe violation of any impact.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, PASSWORD, type Session } from '../../testkit/accounts';
import {
  axeViolations,
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

beforeAll(async () => {
  ui = await startUiHarness();
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

const settings = async () => (await admin.api.GET('/api/bot/settings')).data!;

describe('before there is an account', () => {
  it('catches a blank user name, a short password and a wrong repeat in first-run setup', async () => {
    const setup = await ui.newPage();
    setup.setDefaultTimeout(8000);
    await setup.goto(`${ui.baseUrl}/setup`);
    const username = setup.getByLabel('Username');
    await username.fill('   ');
    await setup.getByLabel('Password', { exact: true }).fill('short');
    await setup.getByLabel('Repeat the password').fill('shorter');
    await setup.getByRole('button', { name: 'Create the admin account' }).click();
    await expect
      .poll(() => fieldError(username))
      .toBe('Enter a user name of 3 to 32 characters: letters, digits, _ . and -.');
    expect(await fieldError(setup.getByLabel('Password', { exact: true }))).toBe(
      'Enter a password of 8 to 256 characters.',
    );
    expect(await fieldError(setup.getByLabel('Repeat the password'))).toBe('The two passwords differ.');
    expect(await hasFocus(username)).toBe(true);
    expect(await axeViolations(setup)).toEqual([]);
    await screenshot(setup, 'field-errors-01-setup');
    // Nothing was sent: the account is still to be made, and fixing the fields makes it.
    expect((await ui.t.browser().api.GET('/api/session/needs-setup')).data?.needsSetup).toBe(true);
    await username.fill('owner');
    await setup.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await setup.getByLabel('Repeat the password').fill(PASSWORD);
    await setup.getByRole('button', { name: 'Create the admin account' }).click();
    await setup.getByRole('heading', { name: 'Language and theme' }).waitFor();
    await setup.context().close();
    admin = await login(ui.t, 'owner');
  });

  it('asks for the user name and the password beside them when signing in', async () => {
    const signIn = await ui.newPage();
    signIn.setDefaultTimeout(8000);
    await signIn.goto(`${ui.baseUrl}/login`);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    const username = signIn.getByLabel('Username');
    await expect.poll(() => fieldError(username)).toBe('Enter your user name.');
    expect(await fieldError(signIn.getByLabel('Password'))).toBe('Enter your password.');
    expect(await hasFocus(username)).toBe(true);
    // A wrong password is no field's fault: it is said for the form, and the marks go.
    await username.fill('owner');
    await signIn.getByLabel('Password').fill('not the password');
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await signIn.getByRole('alert').filter({ hasText: 'Wrong username or password.' }).waitFor();
    expect(await fieldError(username)).toBeNull();
    await signIn.context().close();
  });
});

describe('signed in (English)', () => {
  beforeAll(async () => {
    page = await signedInPage(ui, 'owner');
  }, 30_000);

  it('says a short new password and a wrong current password beside them', async () => {
    await page.goto(`${ui.baseUrl}/settings/account`);
    const current = page.getByLabel('Current password');
    const next = page.getByLabel('New password (8 characters or more)');
    const repeat = page.getByLabel('Repeat the password');
    await next.fill('short');
    await repeat.fill('short');
    await page.getByRole('button', { name: 'Change the password' }).click();
    await expect.poll(() => fieldError(current)).toBe('Enter your current password.');
    expect(await fieldError(next)).toBe('Enter a password of 8 to 256 characters.');
    expect(await fieldError(repeat)).toBeNull();
    expect(await hasFocus(current)).toBe(true);
    // The server's refusal of the current password lands beside that field.
    await current.fill('not my password');
    await next.fill('a brand new password');
    await repeat.fill('a brand new password');
    await page.getByRole('button', { name: 'Change the password' }).click();
    // The server hashes the wrong password before it refuses it: slow on a loaded machine.
    await expect.poll(() => fieldError(current), { timeout: 15_000 }).toBe('The current password is wrong.');
    expect(await fieldError(next)).toBeNull();
    expect(await hasFocus(current)).toBe(true);
    expect((await login(ui.t, 'owner')).api).toBeDefined();
  });

  it('catches passwords that differ in the password reset dialog', async () => {
    await page.goto(`${ui.baseUrl}/settings/users`);
    await page.getByRole('button', { name: 'Reset the password: owner' }).click();
    const dialog = page.getByRole('dialog');
    const password = dialog.getByLabel('New password (8 characters or more)');
    const repeat = dialog.getByLabel('Repeat the password');
    // The title stands apart from the first field's label, not pressed against it.
    const title = (await dialog.getByRole('heading').boundingBox())!;
    const label = (await dialog.getByText('New password (8 characters or more)').boundingBox())!;
    expect(label.y - (title.y + title.height)).toBeGreaterThanOrEqual(10);
    await password.fill('long enough password');
    await repeat.fill('another long password');
    await dialog.getByRole('button', { name: 'Reset the password' }).click();
    await expect.poll(() => fieldError(repeat)).toBe('The two passwords differ.');
    expect(await fieldError(password)).toBeNull();
    expect(await hasFocus(repeat)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'field-errors-02-reset-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('catches a key name of only spaces, and stores no key', async () => {
    await page.goto(`${ui.baseUrl}/settings/keys`);
    const name = page.getByLabel('Key name');
    await name.fill('    ');
    await page.getByRole('button', { name: 'Create a key' }).click();
    await expect.poll(() => fieldError(name)).toBe('Give the key a name of 1 to 64 characters.');
    expect(await hasFocus(name)).toBe(true);
    expect((await admin.api.GET('/api/keys')).data!.keys).toEqual([]);
  });

  it('says out-of-range Behaviour values beside them and saves nothing', async () => {
    const before = await settings();
    await page.goto(`${ui.baseUrl}/settings/behaviour`);
    const idle = page.getByLabel('Disconnect after this many minutes in an empty channel (0: never)');
    const groups = page.locator('input[name="adminGroups"]');
    const voteSkip = page.locator('input[name="voteSkipPercent"]');
    await idle.fill('5000');
    await groups.fill('6, seven');
    await voteSkip.fill('150');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(() => fieldError(idle))
      .toBe('Enter whole minutes from 0 to 1440 (0 never disconnects).');
    expect(await fieldError(groups)).toBe('Server group ids are whole numbers.');
    expect(await fieldError(voteSkip)).toBe('Enter a whole number from 0 to 100.');
    expect(await hasFocus(idle)).toBe(true);
    expect(await settings()).toEqual(before);
    await screenshot(page, 'field-errors-03-behaviour');
  });

  it('says platform settings beside their fields: Jellyfin, Spotify, a cookie, an SMS login', async () => {
    const before = await settings();
    await page.goto(`${ui.baseUrl}/settings/sources`);
    const card = (name: string) =>
      page.locator('li.source-card').filter({ has: page.getByRole('heading', { name, exact: true }) });

    const jellyfin = card('Jellyfin');
    const serverUrl = jellyfin.getByLabel('Server address');
    await serverUrl.fill('media.example.com');
    await jellyfin.getByRole('button', { name: 'Save the server' }).click();
    await expect
      .poll(() => fieldError(serverUrl))
      .toBe("Enter the server's full address, e.g. https://media.example.com.");
    expect(await hasFocus(serverUrl)).toBe(true);
    // Only the server knows this one is too long: its refusal is said beside the field as well.
    await serverUrl.fill('https://media.example.com');
    const user = jellyfin.getByRole('textbox', { name: 'Username' });
    await user.fill('u'.repeat(200));
    await jellyfin.getByRole('button', { name: 'Save the server' }).click();
    await expect.poll(() => fieldError(user)).toBe('Use at most 128 characters for the user name.');
    expect(await fieldError(serverUrl)).toBeNull();
    expect(await hasFocus(user)).toBe(true);

    const spotify = card('Spotify');
    const device = spotify.getByLabel('Device name in Spotify');
    await device.fill('  ');
    await spotify.getByRole('button', { name: 'Save the Spotify app' }).click();
    await expect.poll(() => fieldError(device)).toBe('Give the device a name of 1 to 64 characters.');

    const netease = card('NetEase Cloud Music');
    await netease.getByText('Paste a cookie').click();
    await netease.getByRole('button', { name: 'Save the cookie' }).click();
    const cookie = netease.locator('input[name="cookie"]');
    await expect.poll(() => fieldError(cookie)).toBe('Paste the cookie from a signed-in browser.');
    await netease.getByText('Log in with a texted code').click();
    const phone = netease.getByLabel('Phone number (mainland China)');
    await phone.fill('138 0000');
    await netease.getByRole('button', { name: 'Text me a code' }).click();
    await expect
      .poll(() => fieldError(phone))
      .toBe('Enter the phone number as 5 to 20 digits, without spaces or +86.');

    expect(await settings()).toEqual(before);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'field-errors-04-sources');
  });

  it('catches a saved queue name of only spaces', async () => {
    await admin.api.POST('/api/bot/settings', { body: { savedQueuesEnabled: true } });
    const bot = await admin.api.POST('/api/bot', {
      body: { name: 'Shelf', nickname: 'DJ Shelf', serverAddress: '127.0.0.1', serverPort: ui.server.port },
    });
    expect(bot.response.status).toBe(201);
    await page.goto(`${ui.baseUrl}/music`);
    await page.getByRole('tab', { name: 'Saved queues' }).click();
    const name = page.getByLabel('Save the current queue as');
    await name.fill('   ');
    await page.getByRole('button', { name: 'Save the queue' }).click();
    await expect.poll(() => fieldError(name)).toBe('Give the queue a name of 1 to 64 characters.');
    expect(await hasFocus(name)).toBe(true);
    expect((await admin.api.GET('/api/saved-queues')).data!.queues).toEqual([]);
  });
});

describe('中文, on a phone', () => {
  let phone: Page;
  beforeAll(async () => {
    phone = await ui.phonePage(page);
    await phone.goto(`${ui.baseUrl}/settings/users`);
    await phone.evaluate(() => localStorage.setItem('tsmb.locale', 'zh'));
    await phone.reload();
  }, 30_000);

  it('says a user name of only spaces and a short password in Chinese, and adds no user', async () => {
    const users = async () => (await admin.api.GET('/api/users')).data!.users.map((user) => user.username);
    const before = await users();
    const username = phone.getByLabel('用户名');
    const password = phone.getByLabel('密码', { exact: true });
    await username.fill('   ');
    await password.fill('short');
    await phone.getByRole('button', { name: '添加用户' }).click();
    await expect
      .poll(() => fieldError(username))
      .toBe('请输入 3 到 32 个字符的用户名：字母、数字、_ . 和 -。');
    expect(await fieldError(password)).toBe('请输入 8 到 256 个字符的密码。');
    expect(await hasFocus(username)).toBe(true);
    expect(await users()).toEqual(before);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeViolations(phone)).toEqual([]);
    await screenshot(phone, 'field-errors-05-zh-phone-users');
  });

  it('words a key name of only spaces in Chinese, beside the field', async () => {
    await phone.goto(`${ui.baseUrl}/settings/keys`);
    const name = phone.getByLabel('密钥名称');
    await name.fill('  ');
    await phone.getByRole('button', { name: '创建密钥' }).click();
    await expect.poll(() => fieldError(name)).toBe('请为密钥起一个 1 到 64 个字符的名称。');
    expect(await hasFocus(name)).toBe(true);
    expect(await axeViolations(phone)).toEqual([]);
    await screenshot(phone, 'field-errors-06-zh-phone-keys');
  });
});
