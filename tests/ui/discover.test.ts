/**
 * The browser UI's music home, collection pages and lyrics against the real service, its daemon and a
 * TS3 test server, with NetEase's weapi and a Jellyfin server stood in by msw (in the api's process,
 * where the platform calls are made) and NetEase's audio CDN by a loopback tone server: the home's
 * NetEase and Jellyfin shelves (NetEase's account shelves neither asked for nor failing without a login:
 * the admin reads where to sign in, in English and Chinese, a member nothing), a NetEase search with its songs, albums and
 * playlists, a playlist's and an album's page with play all and favorites, a lyrics line that seeks,
 * the full-screen lyrics (bar button and L key, line centred, click to seek, phone)
 * the bot there, axe-core scans of the new views in both themes and a phone-sized home.
 */
import { HttpResponse } from 'msw';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMember, login, type Session, setupAdmin } from '../../testkit/accounts';
import { type AudioCdn, startAudioCdn } from '../helpers/audio-cdn';
import { ALICE_LOGIN, useJellyfinApi } from '../helpers/jellyfin-api';
import { neteaseFixture, useNeteaseApi } from '../helpers/netease-api';
import {
  connectedBot,
  consoleErrors,
  screenshot,
  seriousViolations,
  signedInPage,
  standInCovers,
  startUiHarness,
  type UiHarness,
} from './ui-harness';

const SECRET = vi.hoisted(() => 'PinnedLoginKey16');
vi.mock(import('../../shared/sources/netease/weapi'), async (importOriginal) => {
  const real = await importOriginal();
  return { ...real, weapi: (payload: object) => real.weapi(payload, SECRET) };
});

const netease = useNeteaseApi({ weapiSecret: SECRET });
useJellyfinApi();

/** cloudsearch answers by its `type`: 1 songs, 10 albums, 1000 playlists (netease-catalog.ts). */
const SEARCH_FIXTURES: Record<number, string> = {
  1: 'search',
  10: 'search-albums',
  1000: 'search-playlists',
};
const PAPER_BOATS = 1901371647;

let ui: UiHarness;
let admin: Session;
let page: Page;
let botId = '';
let cdn: AudioCdn;

beforeAll(async () => {
  cdn = await startAudioCdn(60);
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  const saved = await admin.api.POST('/api/bot/settings', {
    body: { enabledProviders: ['music_a', 'library_a'], defaultPlatform: 'music_a', jellyfin: ALICE_LOGIN },
  });
  expect(saved.response.status).toBe(200);
  botId = await connectedBot(ui, admin, 'Deck');
  page = await signedInPage(ui, 'owner');
  await standInCovers(page.context());
}, 90_000);

afterAll(async () => {
  await ui?.close();
  await cdn?.close();
});

const source = (name: string) => page.getByRole('region', { name, exact: true });
const shelf = (sourceName: string, title: string) =>
  source(sourceName)
    .locator('.home-section')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });

function answerSearch() {
  netease.answer('/eapi/cloudsearch/pc', ({ payload }) =>
    HttpResponse.json(neteaseFixture(SEARCH_FIXTURES[Number(payload?.type)] ?? 'search')),
  );
}

async function searchNetease() {
  answerSearch();
  await page.goto(`${ui.baseUrl}/music`);
  // Before a search the tab says what it is for, and the hint goes once results are in.
  const hint = page.getByText(
    'Find a song, an artist or an album, then play it on the bot or add it to the queue.',
  );
  await hint.waitFor();
  await page.getByLabel('Search for songs, albums or playlists').fill('paper');
  await page.getByLabel('Source').selectOption('music_a');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await hint.waitFor({ state: 'detached' });
}

/** Jumps (no smooth scrolling, which would still move during a screenshot) to the page's top or bottom. */
const scrollTo = (target: Page, where: 'top' | 'bottom') =>
  target.evaluate(
    (bottom) => window.scrollTo({ top: bottom ? document.body.scrollHeight : 0, behavior: 'instant' }),
    where === 'bottom',
  );

async function waitForShelves(target: Page, loading = 'Loading…') {
  await target.getByText(loading).first().waitFor({ state: 'detached' });
}

/** The shelves that exist only for a platform's signed-in account. */
const ACCOUNT_SHELF_PATHS = /\/api\/music\/(recommend\/songs|user\/playlists)\b/;

/** Every request of `page` from now on whose address matches `path`. */
function requestsFor(target: Page, path: RegExp): string[] {
  const seen: string[] = [];
  target.on('request', (request) => {
    if (path.test(request.url())) seen.push(request.url());
  });
  return seen;
}

describe('music home', () => {
  it("shows NetEase's recommended playlists, asks for no account shelf without a login, and the library shelves", async () => {
    const errors = consoleErrors(page);
    const accountRequests = requestsFor(page, ACCOUNT_SHELF_PATHS);
    await page.getByRole('link', { name: 'Music', exact: true }).click();
    await page.getByRole('tab', { name: 'Discover' }).click();
    const recommended = shelf('NetEase Cloud Music', 'Recommended playlists');
    for (const name of ['Rainy Day Piano', 'Road Trip Anthems', 'Quiet Study'])
      await recommended.getByRole('link', { name }).waitFor();
    await recommended.getByText('80 songs').waitFor();
    // Without a shared login NetEase has no daily songs nor account playlists: the admin reads where to
    // sign in, and neither shelf is asked for.
    await source('NetEase Cloud Music')
      .getByRole('link', {
        name: 'Sign in to NetEase Cloud Music in Settings → Music platforms to see your daily songs and playlists.',
      })
      .waitFor();
    expect(
      await source('NetEase Cloud Music').getByRole('heading', { name: 'Songs of the day' }).count(),
    ).toBe(0);
    await source('NetEase Cloud Music')
      .getByRole('button', { name: 'Personal FM: NetEase Cloud Music' })
      .waitFor();

    // Jellyfin has no recommendations (501): those shelves are left out, its library ones shown.
    await source('Jellyfin').scrollIntoViewIfNeeded();
    await shelf('Jellyfin', 'Newest albums').getByRole('link', { name: 'Crossings' }).waitFor();
    await shelf('Jellyfin', 'Most played').getByText('Lantern Song').waitFor();
    await shelf('Jellyfin', 'Genres').getByRole('button', { name: 'Jazz' }).click();
    expect(await source('Jellyfin').getByRole('heading', { name: 'Recommended playlists' }).count()).toBe(0);
    await waitForShelves(page);
    await scrollTo(page, 'top');
    await screenshot(page, 'discover-01-home');
    expect(accountRequests).toEqual([]);
    expect(errors).toEqual([]);
  }, 30_000);

  it('in Chinese the admin reads the same line; a member reads nothing of it, and neither asks', async () => {
    await page.evaluate(() => localStorage.setItem('tsmb.locale', 'zh'));
    const errors = consoleErrors(page);
    const accountRequests = requestsFor(page, ACCOUNT_SHELF_PATHS);
    await page.goto(`${ui.baseUrl}/music`);
    await page.getByRole('tab', { name: '发现' }).click();
    const hint = page.getByRole('link', {
      name: '在“设置 → 音乐平台”中登录网易云音乐，即可查看每日推荐和你的歌单。',
    });
    await hint.waitFor();
    await waitForShelves(page, '加载中…');
    await scrollTo(page, 'top');
    await screenshot(page, 'discover-01b-home-zh');
    await hint.click();
    await page.waitForURL(/\/settings\/sources$/);
    await page.evaluate(() => localStorage.setItem('tsmb.locale', 'en'));

    const member = await createMember(ui.t, admin, { bots: [botId] });
    await login(ui.t, member.username);
    const memberPage = await signedInPage(ui, member.username);
    await standInCovers(memberPage.context());
    const memberErrors = consoleErrors(memberPage);
    const memberRequests = requestsFor(memberPage, ACCOUNT_SHELF_PATHS);
    await memberPage.goto(`${ui.baseUrl}/music`);
    await memberPage.getByRole('tab', { name: 'Discover' }).click();
    await memberPage.getByRole('link', { name: 'Rainy Day Piano' }).waitFor();
    await scrollTo(memberPage, 'bottom');
    await waitForShelves(memberPage);
    expect(await memberPage.getByText(/Sign in to/).count()).toBe(0);
    await memberPage.context().close();
    expect([...accountRequests, ...memberRequests]).toEqual([]);
    expect([...errors, ...memberErrors]).toEqual([]);
  }, 40_000);

  it('has no serious axe-core violation on the home, in both themes, and fits a phone', async () => {
    const found: string[] = [];
    for (const theme of ['light', 'dark']) {
      await page.evaluate((value) => localStorage.setItem('tsmb.theme', value), theme);
      await page.goto(`${ui.baseUrl}/music`);
      await page.getByRole('tab', { name: 'Discover' }).click();
      await shelf('NetEase Cloud Music', 'Recommended playlists').getByRole('link').first().waitFor();
      await scrollTo(page, 'bottom');
      await waitForShelves(page);
      for (const v of await seriousViolations(page))
        found.push(`${theme}: ${v.id} (${v.help}) ${JSON.stringify(v.nodes.slice(0, 3))}`);
    }
    expect(found).toEqual([]);

    const phone = await ui.phonePage(page);
    await phone.goto(`${ui.baseUrl}/music`);
    await phone.getByRole('tab', { name: 'Discover' }).click();
    await phone.getByRole('link', { name: 'Rainy Day Piano' }).waitFor();
    await scrollTo(phone, 'bottom');
    await waitForShelves(phone);
    await scrollTo(phone, 'top');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, 'discover-02-phone-home');
    await phone.context().close();
  }, 40_000);
});

describe('search and collections', () => {
  it("searches NetEase: the fixture's songs, albums and playlists each in their tab", async () => {
    await searchNetease();
    const results = page.locator('#result-panel');
    await results.getByText('Paper Boats').waitFor();
    await results.getByText('Member Song').waitFor();
    // Songs stay rows; albums and playlists are cover tiles, as on Discover.
    expect(await results.locator('.song-row').count()).toBeGreaterThan(1);
    expect(await results.locator('.cover-grid').count()).toBe(0);
    await page.getByRole('tab', { name: 'Albums (2)' }).click();
    await results.getByRole('link', { name: 'Harbour Lights' }).waitFor();
    await results.getByRole('link', { name: 'Paper Boats (Single)' }).waitFor();
    expect(await results.locator('.cover-grid').getByRole('listitem').count()).toBe(2);
    expect(await results.locator('.song-row').count()).toBe(0);
    await results.getByRole('button', { name: 'Play all, replacing the queue: Harbour Lights' }).waitFor();
    await page.getByRole('tab', { name: 'Playlists (2)' }).click();
    await results.getByRole('link', { name: 'Evening Mix' }).waitFor();
    await results.getByRole('link', { name: 'Paper & Ink' }).waitFor();
    expect(await results.locator('.cover-grid').getByRole('listitem').count()).toBe(2);
    // Keyboard: from the tile's name, Shift+Tab reaches its play button (shown on focus).
    await results.getByRole('link', { name: 'Evening Mix' }).focus();
    await page.keyboard.press('Shift+Tab');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(focused).toBe('Play all, replacing the queue: Evening Mix');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'discover-03-search-playlists');
  });

  it("opens a playlist's page: its details and songs, play all, and a favorite that toggles", async () => {
    await page.locator('#result-panel').getByRole('link', { name: 'Evening Mix' }).click();
    await page.waitForURL(/\/music\/playlist\/music_a\/7000000001$/);
    await page.getByRole('heading', { name: 'Evening Mix', level: 1 }).waitFor();
    await page.getByText('A made-up playlist for tests.').waitFor();
    const songs = page.locator('.song-row .song-title');
    await expect.poll(() => songs.allTextContents()).toEqual(['Paper Boats', 'Member Song', 'Gone Tune']);

    await page.getByRole('button', { name: 'Add Evening Mix to favorites' }).click();
    await page.getByRole('button', { name: 'Remove Evening Mix from favorites' }).waitFor();
    const favorites = async () => (await admin.api.GET('/api/favorites')).data?.favorites.map((f) => f.name);
    expect(await favorites()).toEqual(['Evening Mix']);
    await page.reload();
    await page.getByRole('button', { name: 'Remove Evening Mix from favorites' }).click();
    await page.getByRole('button', { name: 'Add Evening Mix to favorites' }).waitFor();
    expect(await favorites()).toEqual([]);

    await page.getByRole('button', { name: 'Play all, replacing the queue: Evening Mix' }).waitFor();
    await page.getByRole('button', { name: 'Add all to the queue: Evening Mix' }).waitFor();
    await screenshot(page, 'discover-04-playlist');
  });

  it("opens an album's page from the search results, and the search is kept when coming back", async () => {
    await searchNetease();
    await page.getByRole('tab', { name: 'Albums (2)' }).click();
    await page.locator('#result-panel').getByRole('link', { name: 'Harbour Lights' }).click();
    await page.getByRole('heading', { name: 'Harbour Lights', level: 1 }).waitFor();
    await page
      .locator('.collection-text')
      .getByText(/^by River Lane/)
      .waitFor();
    await expect
      .poll(() => page.locator('.song-row .song-title').allTextContents())
      .toEqual(['Paper Boats', 'Late Track']);
    await page.getByRole('button', { name: 'Play all, replacing the queue: Harbour Lights' }).waitFor();
    // Favorites hold playlists only.
    expect(await page.getByRole('button', { name: /favorites/ }).count()).toBe(0);
    await screenshot(page, 'discover-05-album');
    // Back on the music page the search is still there, on the tab it was left on.
    await page.getByRole('link', { name: 'Back to the music page' }).click();
    await page.getByRole('tab', { name: 'Albums (2)', selected: true }).waitFor();
    await page.locator('#result-panel').getByRole('link', { name: 'Harbour Lights' }).click();
  });
});

/**
 * How far the full-screen lyrics' current line sits from the middle of the lines' box, which must fit
 * on the screen: a box taller than the screen would keep the line centred in it but below the
 * screen's middle.
 */
async function distanceFromMiddle(on: Page): Promise<number> {
  const screen = on.getByRole('dialog', { name: 'Full-screen lyrics' });
  const box = (await screen.locator('.lyrics').boundingBox())!;
  const line = (await screen.locator('[aria-current="true"]').boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(on.viewportSize()!.height + 1);
  return Math.abs(line.y + line.height / 2 - (box.y + box.height / 2));
}

describe('lyrics', () => {
  it("jumps to a lyrics line's time when it is clicked", async () => {
    netease.answer('/xeapi/song/enhance/player/url/v1', {
      code: 200,
      data: [
        {
          id: PAPER_BOATS,
          url: `${cdn.baseUrl}tone.mp3?id=${PAPER_BOATS}`,
          code: 200,
          fee: 8,
          freeTrialInfo: null,
        },
      ],
    });
    // On the album's page: play all replaces the queue with its songs, Paper Boats first.
    await page.getByRole('button', { name: 'Play all, replacing the queue: Harbour Lights' }).click();
    await page.getByText(/Now playing: Paper Boats/).waitFor();
    await page.goto(`${ui.baseUrl}/player/${botId}`);
    await page.getByRole('tab', { name: 'Lyrics' }).click();
    const line = page.getByRole('button', { name: /^漂向远方的港口/ });
    await line.waitFor();
    const status = async () =>
      (await admin.api.GET('/api/player/{botId}/queue', { params: { path: { botId } } })).data!.status;
    await expect.poll(async () => (await status()).playing, { timeout: 15_000 }).toBe(true);
    expect((await status()).elapsed).toBeLessThan(15);
    await line.click();
    // The line starts at 00:17.25; the bot reports the seek offset plus what it has played since.
    await expect
      .poll(async () => (await status()).elapsed, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(17.25);
    expect((await status()).elapsed).toBeLessThan(30);
    await expect.poll(() => line.getAttribute('aria-current')).toBe('true');
    await screenshot(page, 'discover-06-lyrics');

    const found: string[] = [];
    for (const theme of ['light', 'dark']) {
      await page.evaluate((value) => localStorage.setItem('tsmb.theme', value), theme);
      for (const path of [`/player/${botId}`, '/music/album/music_a/150000001']) {
        await page.goto(`${ui.baseUrl}${path}`);
        await page.locator('h1').first().waitFor();
        if (path.startsWith('/player')) {
          await page.getByRole('tab', { name: 'Lyrics' }).click();
          await line.waitFor();
        } else {
          await page.locator('.song-row').first().waitFor();
        }
        for (const v of await seriousViolations(page))
          found.push(`${theme} ${path}: ${v.id} (${v.help}) ${JSON.stringify(v.nodes.slice(0, 3))}`);
      }
    }
    expect(found).toEqual([]);
  }, 40_000);

  it('shows the lyrics full screen from the bar or the L key: the line centred, a click seeks', async () => {
    await page.goto(`${ui.baseUrl}/music`);
    const bar = page.getByRole('region', { name: 'Player of Deck' });
    await bar.getByRole('button', { name: 'Full-screen lyrics' }).click();
    const screen = page.getByRole('dialog', { name: 'Full-screen lyrics' });
    const current = screen.locator('[aria-current="true"]');
    await current.waitFor();
    await expect.poll(() => distanceFromMiddle(page), { timeout: 5000 }).toBeLessThan(60);

    const earlier = screen.getByRole('button', { name: /^纸船顺着河流/ });
    await earlier.click();
    const elapsed = async () =>
      (await admin.api.GET('/api/player/{botId}/queue', { params: { path: { botId } } })).data!.status
        .elapsed;
    await expect.poll(elapsed, { timeout: 10_000 }).toBeLessThan(17);
    expect(await elapsed()).toBeGreaterThanOrEqual(12.5);
    await expect.poll(() => earlier.getAttribute('aria-current')).toBe('true');
    // The position and the transport are in the lyrics too: pausing there pauses the bot.
    await screen.getByRole('slider', { name: 'Position' }).waitFor();
    const paused = async () =>
      (await admin.api.GET('/api/player/{botId}/queue', { params: { path: { botId } } })).data!.status.paused;
    await screen.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect.poll(paused, { timeout: 5000 }).toBe(true);
    await screen.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(paused, { timeout: 5000 }).toBe(false);
    await expect.poll(() => distanceFromMiddle(page), { timeout: 5000 }).toBeLessThan(60);
    await screenshot(page, 'discover-07-lyrics-screen');
    const found = (await seriousViolations(page)).map((v) => `${v.id} (${v.help})`);
    expect(found).toEqual([]);
    await page.keyboard.press('Escape');
    await screen.waitFor({ state: 'detached' });

    await page.locator('h1').first().click();
    await page.keyboard.press('l');
    await screen.waitFor();
    await page.keyboard.press('Escape');
    await screen.waitFor({ state: 'detached' });

    const phone = await ui.phonePage(page);
    await phone.goto(`${ui.baseUrl}/music`);
    await phone
      .getByRole('region', { name: 'Player of Deck' })
      .getByRole('button', { name: 'Full-screen lyrics' })
      .click();
    // A fresh phone profile loads the bundle, the queue and the lyrics first: slow on a loaded machine.
    await phone
      .getByRole('dialog', { name: 'Full-screen lyrics' })
      .locator('[aria-current="true"]')
      .waitFor({ timeout: 15_000 });
    await expect.poll(() => distanceFromMiddle(phone), { timeout: 5000 }).toBeLessThan(60);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, 'discover-08-lyrics-phone');
    await phone.context().close();
  }, 40_000);
});
