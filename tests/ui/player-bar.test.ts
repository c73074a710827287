/**
 * The player bar under every page and the bot it acts on, against the real service, daemon and TS3
 * test server: which bot a browser shows (a playing one first, then its own choice, never switched
 * silently), the bar's transport, seek, volume and queue drawer driving the real bot, live pushes, the
 * Connect button of a disconnected bot, Copy link, the `?` and `/` keys, a phone-sized bar, both themes
 * and both languages.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '../../shared/domain/schemas';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { addToneUpload } from '../../testkit/tone-uploads';
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
let page: Page;
let zulu = '';
const songs: Song[] = [];

const TONE_SECONDS = 60;

beforeAll(async () => {
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  // Zulu plays on alone in its channel once the other bot is deleted.
  const settings = await admin.api.POST('/api/bot/settings', { body: { autoPauseOnEmpty: false } });
  expect(settings.response.status).toBe(200);
  for (const [name, frequencyHz] of [
    ['Alpha', 440],
    ['Beta', 660],
  ] as const) {
    songs.push(
      await addToneUpload(ui.t.db, ui.t.dataDir, `${name} Tone`, [{ frequencyHz, seconds: TONE_SECONDS }]),
    );
  }
  zulu = await connectedBot(ui, admin, 'Zulu');
  const played = await admin.api.POST('/api/player/{botId}/play-song', {
    params: { path: { botId: zulu } },
    body: { song: songs[0]! },
  });
  expect(played.response.status).toBe(200);
  // Alphabetically first, connected and idle: the bot the UI used to fall back to.
  await connectedBot(ui, admin, 'Able');
  page = await signedInPage(ui, 'owner');
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

const bar = (on: Page, botName: string) => on.getByRole('region', { name: `Player of ${botName}` });
const status = async (botId: string) =>
  (await admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } })).data!;

describe('the bot a browser shows', () => {
  it('starts with the playing bot, not the first listed, and keeps it on every page', async () => {
    await bar(page, 'Zulu').getByRole('link', { name: 'Alpha Tone' }).waitFor();
    await page.getByRole('link', { name: 'Player', exact: true }).click();
    await page.getByRole('heading', { name: 'Zulu', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Music', exact: true }).click();
    await bar(page, 'Zulu').waitFor();
    await page.reload();
    await bar(page, 'Zulu').getByRole('link', { name: 'Alpha Tone' }).waitFor();
  });

  it("marks the page's section in the navigation, below its own path too", async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    const current = () => nav.locator('[aria-current="page"]').allTextContents();
    for (const [path, section] of [
      ['/', 'Dashboard'],
      [`/player/${zulu}`, 'Player'],
      ['/music', 'Music'],
      ['/settings/keys', 'Settings'],
    ]) {
      await page.goto(`${ui.baseUrl}${path}`);
      await expect.poll(current).toEqual([section]);
    }
  });

  it('remembers the bot chosen in this browser across pages and visits', async () => {
    await page.goto(`${ui.baseUrl}/player`);
    await page.getByRole('combobox', { name: /^Bot/ }).selectOption({ label: 'Able' });
    await page.getByRole('heading', { name: 'Able', level: 1 }).waitFor();
    await bar(page, 'Able').waitFor();
    await page.goto(`${ui.baseUrl}/music`);
    await bar(page, 'Able').waitFor();
    await page.goto(`${ui.baseUrl}/player`);
    await page.getByRole('heading', { name: 'Able', level: 1 }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('tsmb.bot'))).not.toBe(zulu);
  });

  it('says so when the chosen bot is gone, and shows which bot replaced it', async () => {
    const able = (await admin.api.GET('/api/bot')).data!.bots.find((bot) => bot.name === 'Able')!.id;
    const deleted = await admin.api.DELETE('/api/bot/{id}', { params: { path: { id: able } } });
    expect(deleted.response.status).toBe(204);
    await page
      .getByRole('status')
      .getByText('The bot this browser showed is gone; now showing Zulu.')
      .waitFor();
    await bar(page, 'Zulu').waitFor();
  });
});

describe('the player bar', () => {
  it('moves live and drives the bot: pause, play, seek, next, volume', async () => {
    await page.goto(ui.baseUrl);
    const zuluBar = bar(page, 'Zulu');
    const position = zuluBar.getByRole('slider', { name: 'Position' });
    const before = Number(await position.getAttribute('aria-valuenow'));

    await expect
      .poll(async () => Number(await position.getAttribute('aria-valuenow')), { timeout: 5000 })
      .toBeGreaterThan(before);

    await zuluBar.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(async () => (await status(zulu)).paused).toBe(true);
    await zuluBar.getByRole('button', { name: 'Play' }).click();
    await expect.poll(async () => (await status(zulu)).paused).toBe(false);

    // A click three quarters along the track seeks the bot there.
    const track = (await position.boundingBox())!;
    await page.mouse.click(track.x + track.width * 0.75, track.y + track.height / 2);
    await expect.poll(async () => (await status(zulu)).elapsed).toBeGreaterThan(TONE_SECONDS * 0.7);
    expect((await status(zulu)).elapsed).toBeLessThan(TONE_SECONDS * 0.85);

    const added = await admin.api.POST('/api/player/{botId}/add-song', {
      params: { path: { botId: zulu } },
      body: { song: songs[1]! },
    });
    expect(added.response.status).toBe(200);
    await zuluBar.getByRole('button', { name: 'Next song' }).click();
    await zuluBar.getByRole('link', { name: 'Beta Tone' }).waitFor();
    expect((await status(zulu)).currentSong?.name).toBe('Beta Tone');

    const volume = zuluBar.getByRole('slider', { name: 'Volume' });
    const box = (await volume.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.2, box.y + box.height / 2);
    await expect.poll(async () => (await status(zulu)).volume).toBeLessThan(35);
    await screenshot(page, 'bar-01-dashboard');
  });

  it('opens the queue in a drawer that follows pushes, marks the copy playing, closes with Escape', async () => {
    const toggle = bar(page, 'Zulu').getByRole('button', { name: 'Queue' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const drawer = page.getByRole('complementary', { name: 'Queue' });
    await expect
      .poll(() => drawer.locator('.song-row .song-title').allTextContents())
      .toEqual(['Alpha Tone', 'Beta Tone']);
    const added = await admin.api.POST('/api/player/{botId}/add-song', {
      params: { path: { botId: zulu } },
      body: { song: songs[0]! },
    });
    expect(added.response.status).toBe(200);
    // The push goes daemon → bus → api → WebSocket → store: seconds on a machine running every suite.
    await expect.poll(() => drawer.locator('.song-row').count(), { timeout: 15_000 }).toBe(3);
    // Two copies of Alpha: playing the second marks that row only, and the first stays playable.
    await drawer.getByRole('button', { name: 'Play Alpha Tone' }).nth(1).click();
    const rows = drawer.getByRole('listitem');
    await expect.poll(() => rows.nth(2).getAttribute('aria-current')).toBe('true');
    expect(await rows.nth(0).getAttribute('aria-current')).toBeNull();
    expect(await rows.nth(0).getByRole('button', { name: 'Play Alpha Tone' }).isEnabled()).toBe(true);
    expect(await rows.nth(2).getByRole('button', { name: 'Play Alpha Tone' }).isDisabled()).toBe(true);
    // The playing row is tinted apart from its cover tile, which would otherwise vanish into it.
    const background = (selector: string) =>
      rows
        .nth(2)
        .evaluate((row, s) => getComputedStyle(s ? row.querySelector(s)! : row).backgroundColor, selector);
    expect(await background('')).not.toBe(await background('.cover'));
    await screenshot(page, 'bar-02-queue-drawer');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Queue');
  });

  it('offers Connect on the player of a disconnected bot', async () => {
    const stopped = await admin.api.POST('/api/bot/{id}/stop', { params: { path: { id: zulu } } });
    expect(stopped.response.status).toBe(200);
    await page.goto(`${ui.baseUrl}/player/${zulu}`);
    await page.getByText('The bot is not connected: connect it to play music.').waitFor();
    await page.getByRole('button', { name: /^Connect/ }).click();
    await expect.poll(async () => (await status(zulu)).connected, { timeout: 20_000 }).toBe(true);
    await page.getByText('The bot is not connected').waitFor({ state: 'detached' });
  }, 30_000);
});

describe('the player page', () => {
  it("copies the bot's own /bot/<id> link", async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ui.baseUrl });
    await page.goto(`${ui.baseUrl}/player/${zulu}`);
    await page.getByRole('button', { name: /^Copy link\W+Zulu$/ }).click();
    await page.getByRole('status').getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${ui.baseUrl}/bot/${zulu}`);
  });
});

describe('keyboard', () => {
  it('lists the shortcuts on ?, and / goes to the music search from any page', async () => {
    await page.goto(`${ui.baseUrl}/settings/bots`);
    await page.locator('h1').click();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Search for music').waitFor();
    await screenshot(page, 'bar-06-shortcuts');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    await page.keyboard.press('/');
    await page.waitForURL(/\/music$/);
    const search = page.getByLabel('Search for songs, albums or playlists');
    await expect.poll(() => search.evaluate((input) => input === document.activeElement)).toBe(true);
    // Typed into the field, `/` and `?` are text, not shortcuts.
    await page.keyboard.type('a/b?');
    expect(await search.inputValue()).toBe('a/b?');
    expect(await help.count()).toBe(0);
  });
});

describe('screens', () => {
  it('fits a phone, with the volume in the queue drawer', async () => {
    const phone = await ui.phonePage(page);
    await phone.goto(ui.baseUrl);
    const phoneBar = bar(phone, 'Zulu');
    await phoneBar.getByRole('button', { name: 'Next song' }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await phoneBar.getByRole('slider', { name: 'Volume' }).count()).toBe(0);
    // The song's name keeps a row of its own beside the transport buttons, room for a name to be read.
    expect((await phoneBar.locator('.bar-title').boundingBox())!.width).toBeGreaterThan(120);
    await phoneBar.getByRole('button', { name: 'Queue' }).click();
    await phone
      .getByRole('complementary', { name: 'Queue' })
      .getByRole('slider', { name: 'Volume' })
      .waitFor();
    await screenshot(phone, 'bar-03-phone-drawer');
    await phone.keyboard.press('Escape');
    await phone.getByLabel('Language').selectOption('zh');
    await phone
      .getByRole('region', { name: 'Zulu 的播放栏' })
      .getByRole('button', { name: '下一首' })
      .waitFor();
    await screenshot(phone, 'bar-04-phone-zh');
    // The player's bot and its Copy link share the row under the title, both on the screen (with a
    // second bot, so there is a bot to choose).
    const second = await admin.api.POST('/api/bot', {
      body: { name: 'Yankee', nickname: 'DJ Yankee', serverAddress: '127.0.0.1', serverPort: ui.server.port },
    });
    expect(second.response.status).toBe(201);
    await phone.goto(`${ui.baseUrl}/player/${zulu}`);
    const copy = (await phone.getByRole('button', { name: /^复制链接/ }).boundingBox())!;
    const choice = (await phone.getByRole('combobox', { name: '机器人' }).boundingBox())!;
    expect(Math.abs(copy.y + copy.height / 2 - (choice.y + choice.height / 2))).toBeLessThanOrEqual(2);
    expect(copy.x + copy.width).toBeLessThanOrEqual(390);
    await screenshot(phone, 'bar-05-phone-player-zh');
    await admin.api.DELETE('/api/bot/{id}', { params: { path: { id: second.data!.id } } });
    await phone.context().close();
  });

  it('has no axe-core violation with the bar and the drawer open, in both themes', async () => {
    const found: string[] = [];
    for (const theme of ['light', 'dark']) {
      await page.evaluate((value) => localStorage.setItem('tsmb.theme', value), theme);
      for (const path of ['/', `/player/${zulu}`, '/music']) {
        await page.goto(`${ui.baseUrl}${path}`);
        await bar(page, 'Zulu').getByRole('button', { name: 'Queue' }).click();
        await page.getByRole('complementary', { name: 'Queue' }).waitFor();
        for (const v of await seriousViolations(page)) found.push(`${theme} ${path}: ${v.id} (${v.help})`);
      }
      await screenshot(page, `bar-05-music-${theme}`);
    }
    expect(found).toEqual([]);
  }, 40_000);
});
