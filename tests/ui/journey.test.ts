/**
 * The browser UI against the real service, daemon and a TS3 test server, in the order a new owner
 * meets it: first-run setup with the first bot, sign-out and sign-in, playing an uploaded file, live
 * progress and queue pushes, drag-to-reorder, volume, an API key shown once, guest mode, a `/bot/<id>`
 * link, a phone-sized screen and an axe-core scan of every page.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '../../shared/domain/schemas';
import { PASSWORD } from '../../testkit/accounts';
import { addToneUpload } from '../../testkit/tone-uploads';
import {
  resumeSetupWizard,
  screenshot,
  seriousViolations,
  startUiHarness,
  type UiHarness,
} from './ui-harness';

let ui: UiHarness;
let page: Page;
let botId = '';
const songs: Song[] = [];

beforeAll(async () => {
  ui = await startUiHarness();
  for (const [name, frequencyHz] of [
    ['Alpha', 440],
    ['Beta', 660],
    ['Gamma', 880],
  ] as const) {
    songs.push(await addToneUpload(ui.t.db, ui.t.dataDir, `${name} Tone`, [{ frequencyHz, seconds: 60 }]));
  }
  page = await ui.newPage();
  page.setDefaultTimeout(8000);
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

/** The admin's own API client, signed in like a second browser tab. */
async function adminApi() {
  const { api } = ui.t.browser();
  await api.POST('/api/session/login', { body: { username: 'owner', password: PASSWORD } });
  return api;
}

describe('entry', () => {
  it('runs the first-run wizard: admin, language and theme, a connected bot, platforms, done', async () => {
    await page.goto(ui.baseUrl);
    await page.waitForURL(/\/setup/);
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    await page.getByLabel('Username').fill('owner');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await screenshot(page, '01-setup-account');
    await page.getByRole('button', { name: 'Create the admin account' }).click();

    await page.getByRole('heading', { name: 'Language and theme' }).waitFor();
    // A reload half-way keeps the wizard where it was.
    await page.reload();
    await page.getByRole('heading', { name: 'Language and theme' }).waitFor();
    await page.getByLabel('Light').check();
    await screenshot(page, '02-setup-language');
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByLabel('Name', { exact: true }).fill('Lounge');
    await page.getByLabel('Nickname on the server').fill('DJ Lounge');
    await page.getByLabel('Server address').fill('127.0.0.1');
    await page.getByLabel('Port').fill(String(ui.server.port));
    await screenshot(page, '03-setup-bot');
    await page.getByRole('button', { name: 'Create the bot' }).click();

    await page.getByRole('heading', { name: 'Music platforms' }).waitFor({ timeout: 20_000 });
    await screenshot(page, '04-setup-platforms');
    expect(ui.server.clientByName('DJ Lounge')).toBeDefined();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();

    const card = page.getByRole('listitem').filter({ hasText: 'Lounge' });
    await card.getByText('idle').waitFor();
    await screenshot(page, '05-dashboard');
    // A finished wizard does not open again.
    await page.goto(`${ui.baseUrl}/setup`);
    await page.getByRole('heading', { name: 'Bots' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    const bots = await (await adminApi()).GET('/api/bot');
    botId = bots.data!.bots[0]!.id;
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  }, 40_000);

  it('signs out and back in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login/);
    await page.getByLabel('Username').fill('owner');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Wrong username or password.').waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await screenshot(page, '06-login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Bots' }).waitFor();
  });
});

describe('music and player', () => {
  it('plays an uploaded file found by search, and the progress moves', async () => {
    await page.getByRole('link', { name: 'Music', exact: true }).click();
    await page.getByLabel('Search for songs, albums or playlists').fill('Tone');
    await page.getByLabel('Source').selectOption('local');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: 'Play, replacing the queue: Alpha Tone' }).click();
    await page.getByText(/Now playing: Alpha Tone/).waitFor();
    await page.getByRole('button', { name: 'Add to the queue: Beta Tone' }).click();
    await screenshot(page, '07-search');

    await page.getByRole('link', { name: 'Player', exact: true }).click();
    await page.locator('.now-title', { hasText: 'Alpha Tone' }).waitFor();
    const slider = page.getByRole('slider', { name: 'Position' });
    const before = Number(await slider.getAttribute('aria-valuenow'));
    await page.waitForTimeout(2500);
    const after = Number(await slider.getAttribute('aria-valuenow'));
    expect(after).toBeGreaterThan(before);
    await screenshot(page, '08-player');
  });

  it('shows a queue change made elsewhere at once (WebSocket push)', async () => {
    const api = await adminApi();
    const added = await api.POST('/api/player/{botId}/add-song', {
      params: { path: { botId } },
      body: { song: songs[2]! },
    });
    expect(added.response.status).toBe(200);
    await page.getByRole('listitem').filter({ hasText: 'Gamma Tone' }).waitFor({ timeout: 5000 });
    expect(await page.locator('.song-row .song-title').allTextContents()).toEqual([
      'Alpha Tone',
      'Beta Tone',
      'Gamma Tone',
    ]);
  });

  it('reorders the queue by dragging a song', async () => {
    const handle = page.getByRole('button', { name: 'Drag Gamma Tone to reorder' });
    const target = page.locator('.song-row').nth(1);
    const from = (await handle.boundingBox())!;
    const to = (await target.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, to.y + 4, { steps: 8 });
    await screenshot(page, '09-dragging');
    await page.mouse.up();
    const api = await adminApi();
    await expect
      .poll(async () =>
        (await api.GET('/api/player/{botId}/queue', { params: { path: { botId } } })).data?.queue.map(
          (s) => s.name,
        ),
      )
      .toEqual(['Alpha Tone', 'Gamma Tone', 'Beta Tone']);
    await expect
      .poll(() => page.locator('.song-row .song-title').allTextContents())
      .toEqual(['Alpha Tone', 'Gamma Tone', 'Beta Tone']);
  });

  it('changes the volume with the slider and the arrow keys', async () => {
    const api = await adminApi();
    const volume = async () =>
      (await api.GET('/api/bot/{id}', { params: { path: { id: botId } } })).data?.volume;
    const slider = page.getByRole('slider', { name: 'Volume' });
    const box = (await slider.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.3, box.y + box.height / 2);
    // Polled down from the default 50: the click's answer may land after the first poll.
    await expect.poll(volume).toBeLessThan(40);
    expect(await volume()).toBeGreaterThan(20);
    const set = (await volume())!;
    await page.locator('h1').click();
    await page.keyboard.press('ArrowUp');
    await expect.poll(volume).toBe(set + 5);
    await expect.poll(() => page.locator('.volume output').textContent()).toBe(`${set + 5}%`);
    await screenshot(page, '10-volume');
  });
});

describe('settings', () => {
  it('creates an API key and shows the raw key exactly once', async () => {
    await page.goto(`${ui.baseUrl}/settings/keys`);
    await page.getByLabel('Key name').fill('home automation');
    await page.getByRole('button', { name: 'Create a key' }).click();
    const raw = (await page.getByTestId('raw-key').textContent())!.trim();
    expect(raw).toMatch(/^tsmb_\w{32,}$/);
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await screenshot(page, '11-api-key');
    const withKey = await fetch(`${ui.baseUrl}/api/bot`, { headers: { authorization: `Bearer ${raw}` } });
    expect(withKey.status).toBe(200);
    await page.reload();
    await page.getByRole('cell', { name: 'home automation', exact: true }).waitFor();
    expect(await page.getByTestId('raw-key').count()).toBe(0);
    expect(await page.content()).not.toContain(raw);
  });

  it('switches guest mode on; a guest sees only what the flags allow', async () => {
    await page.goto(`${ui.baseUrl}/settings/guest`);
    await page.getByLabel('Allow guests').check();
    await page.getByLabel('Skip and jump in the queue').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    await screenshot(page, '12-guest-settings');

    const guest = await ui.newPage();
    guest.setDefaultTimeout(8000);
    await guest.goto(ui.baseUrl);
    await guest.getByRole('button', { name: 'Enter as a guest' }).click();
    await guest.getByRole('heading', { name: 'Bots' }).waitFor();
    const card = guest.getByRole('listitem').filter({ hasText: 'Lounge' });
    await card.getByRole('link', { name: /Open the player/ }).waitFor();
    expect(await card.getByRole('button', { name: /Disconnect/ }).count()).toBe(0);
    expect(await guest.getByRole('link', { name: 'Settings' }).count()).toBe(0);

    await card.getByRole('link', { name: /Open the player/ }).click();
    await guest.locator('.now-title', { hasText: 'Alpha Tone' }).waitFor();
    // skip is allowed; transport (pause, seek, volume) and queue edits are not.
    await guest.getByRole('button', { name: 'Next song' }).waitFor();
    expect(await guest.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    expect(await guest.getByRole('slider', { name: 'Volume' }).isDisabled()).toBe(true);
    expect(await guest.getByRole('slider', { name: 'Position' }).getAttribute('aria-disabled')).toBe('true');
    expect(await guest.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    expect(await guest.getByRole('button', { name: /^Drag / }).count()).toBe(0);
    await screenshot(guest, '13-guest-player');

    await guest.getByRole('link', { name: 'Music', exact: true }).click();
    await guest.getByLabel('Search for songs, albums or playlists').fill('Tone');
    await guest.getByLabel('Source').selectOption('local');
    await guest.getByRole('button', { name: 'Search', exact: true }).click();
    await guest.getByRole('button', { name: 'Add to the queue: Beta Tone' }).waitFor();
    expect(await guest.getByRole('button', { name: /^Play, replacing the queue: / }).count()).toBe(0);
    expect(await guest.getByRole('button', { name: /^Play next: / }).count()).toBe(0);
    expect(await guest.getByRole('tab', { name: 'Upload' }).count()).toBe(0);
    await screenshot(guest, '14-guest-music');
    await guest.context().close();
  });
});

describe('links and screens', () => {
  it('a /bot/<id> link locks the UI to that bot', async () => {
    await page.goto(`${ui.baseUrl}/bot/${botId}`);
    await page.locator('.now-title', { hasText: 'Alpha Tone' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Player', 'Music']);
    expect(await page.getByLabel('Bot', { exact: true }).count()).toBe(0);
    await nav.getByRole('link', { name: 'Music' }).click();
    await page.waitForURL(new RegExp(`/bot/${botId}/music$`));
    await screenshot(page, '15-bot-link');
  });

  it('fits a phone screen', async () => {
    const phone = await ui.phonePage(page);
    for (const path of ['/', `/player/${botId}`, '/music', '/settings/bots']) {
      await phone.goto(`${ui.baseUrl}${path}`);
      await phone.locator('h1').first().waitFor();
      expect(await phone.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
    }
    // The Chinese catalog on the phone: the locale is a choice kept in the browser.
    await phone.getByLabel('Language').selectOption('zh');
    await phone.goto(`${ui.baseUrl}/player/${botId}`);
    await phone.locator('.now-title', { hasText: 'Alpha Tone' }).waitFor();
    await phone.getByRole('link', { name: '播放器' }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    // This machine's Chromium has no CJK font, so the picture is taken in English.
    await phone.getByLabel('语言').selectOption('en');
    await phone.getByRole('link', { name: 'Player', exact: true }).waitFor();
    await screenshot(phone, '16-phone-player');
    await phone.context().close();
  });

  it('has no serious or critical axe-core violation on any page, in both themes', async () => {
    const pages = [
      '/',
      `/player/${botId}`,
      `/bot/${botId}`,
      '/music',
      '/settings/bots',
      '/settings/behaviour',
      '/settings/guest',
      '/settings/users',
      '/settings/keys',
      '/settings/audit',
      '/settings/account',
      '/setup?step=language',
    ];
    await resumeSetupWizard(ui, page);
    const found: string[] = [];
    // Every page in the light theme, the main ones again in the dark theme (its own colours).
    const runs = [
      { theme: 'light', paths: pages },
      { theme: 'dark', paths: pages.slice(0, 5) },
    ];
    for (const { theme, paths } of runs) {
      await page.evaluate((value) => localStorage.setItem('tsmb.theme', value), theme);
      for (const path of paths) {
        await page.goto(`${ui.baseUrl}${path}`);
        await page.locator('h1').first().waitFor();
        await page
          .locator('[aria-busy="true"]')
          .waitFor({ state: 'detached' })
          .catch(() => undefined);
        for (const v of await seriousViolations(page))
          found.push(`${theme} ${path}: ${v.id} (${v.help}) ${JSON.stringify(v.nodes.slice(0, 3))}`);
      }
    }
    const signedOut = await ui.newPage();
    await signedOut.goto(`${ui.baseUrl}/login`);
    await signedOut.locator('h1').waitFor();
    for (const v of await seriousViolations(signedOut)) found.push(`/login: ${v.id} (${v.help})`);
    await signedOut.context().close();
    expect(found).toEqual([]);
  }, 60_000);
});
