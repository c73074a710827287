/**
 * The music home as cover grids, and the album and playlist pages' cover headers, against the real
 * service, its daemon and a TS3 test server, with NetEase's APIs and a Jellyfin server stood in by msw
 * (in the api's process, where the platform calls are made): tiles with lazy covers of a fixed size and
 * accessible names, grey tiles while a shelf loads, a play button on hover and focus (no movement when
 * less motion is asked for), the keyboard, two columns on a phone, both languages, and axe-core with no
 * violation of any impact in both themes. A playlist's and an album's page open with a large cover
 * header: name, artist, song count, total length, and play all / add all.
 */
import { delay, HttpResponse } from 'msw';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { setupAdmin } from '../../testkit/accounts';
import { ALICE_LOGIN, useJellyfinApi } from '../helpers/jellyfin-api';
import { neteaseFixture, useNeteaseApi } from '../helpers/netease-api';
import {
  axeViolations,
  connectedBot,
  screenshot,
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

let ui: UiHarness;
let page: Page;

beforeAll(async () => {
  ui = await startUiHarness();
  const admin = await setupAdmin(ui.t, 'owner');
  const saved = await admin.api.POST('/api/bot/settings', {
    body: { enabledProviders: ['music_a', 'library_a'], defaultPlatform: 'music_a', jellyfin: ALICE_LOGIN },
  });
  expect(saved.response.status).toBe(200);
  await connectedBot(ui, admin, 'Deck');
  page = await signedInPage(ui, 'owner');
  await standInCovers(page.context());
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

const shelf = (target: Page, sourceName: string, title: string) =>
  target
    .getByRole('region', { name: sourceName, exact: true })
    .locator('.home-section')
    .filter({ has: target.getByRole('heading', { name: title, exact: true }) });

async function openDiscover(target: Page) {
  await target.goto(`${ui.baseUrl}/music`);
  await target.getByRole('tab', { name: /^(Discover|发现)$/ }).click();
}

/**
 * Every shelf has answered: scrolled to the bottom (a shelf loads once it comes near the screen) until
 * no "Loading…" is left, then back to the top.
 */
async function shelvesLoaded(target: Page) {
  const loading = target.getByText(/^(Loading…|加载中…)$/);
  await expect
    .poll(async () => {
      await target.evaluate(() => window.scrollTo({ top: document.body.scrollHeight, behavior: 'instant' }));
      return loading.count();
    })
    .toBe(0);
  await target.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
}

const opacity = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).opacity);

describe('cover grids', () => {
  it('shows playlists, albums and songs as tiles with lazy covers of a set size and accessible names', async () => {
    await openDiscover(page);
    const recommended = shelf(page, 'NetEase Cloud Music', 'Recommended playlists');
    const tiles = recommended.getByRole('listitem');
    await recommended.getByRole('link', { name: 'Rainy Day Piano' }).waitFor();
    expect(await tiles.count()).toBe(3);
    await tiles.first().getByText('80 songs').waitFor();
    // Every cover arrived (a cover that fails to load is replaced by a note glyph, without an img).
    await expect.poll(() => recommended.locator('img').count()).toBe(3);
    for (const img of await recommended.locator('img').all()) {
      expect(await img.getAttribute('loading')).toBe('lazy');
      expect(await img.getAttribute('width')).toBe(await img.getAttribute('height'));
      expect(Number(await img.getAttribute('width'))).toBeGreaterThan(100);
      expect(await img.getAttribute('alt')).toBe('');
    }
    await recommended
      .getByRole('button', { name: 'Play all, replacing the queue: Rainy Day Piano' })
      .waitFor();

    // Jellyfin's newest albums are tiles too, and its most played songs: play next and add under each.
    await shelf(page, 'Jellyfin', 'Newest albums').scrollIntoViewIfNeeded();
    await shelf(page, 'Jellyfin', 'Newest albums').getByRole('link', { name: 'Crossings' }).waitFor();
    const songs = shelf(page, 'Jellyfin', 'Most played');
    await songs.getByRole('button', { name: 'Play, replacing the queue: Lantern Song' }).waitFor();
    await songs.getByRole('button', { name: 'Play next: Lantern Song' }).waitFor();
    await songs.getByRole('button', { name: 'Add to the queue: Lantern Song' }).waitFor();
    await shelvesLoaded(page);
    await screenshot(page, 'cover-01-home');
  }, 30_000);

  it('shows grey tiles while a shelf loads, then the covers', async () => {
    netease.answer('/weapi/personalized/playlist', async () => {
      await delay(1500);
      return HttpResponse.json(neteaseFixture('personalized'));
    });
    await openDiscover(page);
    const recommended = shelf(page, 'NetEase Cloud Music', 'Recommended playlists');
    const skeleton = recommended.locator('.cover-grid.skeleton');
    await skeleton.waitFor();
    expect(await skeleton.getAttribute('aria-hidden')).toBe('true');
    expect(await skeleton.locator('li').count()).toBeGreaterThan(0);
    expect(await recommended.getAttribute('aria-busy')).toBe('true');
    await recommended.getByRole('status').filter({ hasText: 'Loading…' }).waitFor({ state: 'attached' });
    await screenshot(page, 'cover-02-loading');
    await recommended.getByRole('link', { name: 'Rainy Day Piano' }).waitFor();
    expect(await skeleton.count()).toBe(0);
  }, 30_000);

  it('shows the play button on hover and focus; a tile opens its page from the keyboard', async () => {
    await openDiscover(page);
    const recommended = shelf(page, 'NetEase Cloud Music', 'Recommended playlists');
    const link = recommended.getByRole('link', { name: 'Quiet Study' });
    const play = recommended.getByRole('button', { name: 'Play all, replacing the queue: Quiet Study' });
    await link.waitFor();
    await page.mouse.move(0, 0);
    await expect.poll(() => opacity(play)).toBe('0');
    await link.hover();
    await expect.poll(() => opacity(play)).toBe('1');
    await page.mouse.move(0, 0);
    await expect.poll(() => opacity(play)).toBe('0');
    // Tab from the title reaches its play button; focus shows it.
    await link.focus();
    await expect.poll(() => opacity(play)).toBe('1');
    await page.keyboard.press('Enter');
    // Its page (the stand-in's playlist details, the same for every id, then rename it).
    await page.waitForURL(/\/music\/playlist\/music_a\/7000000103$/);
    await page.locator('header.collection-head h1').waitFor();
  }, 30_000);

  it('lifts a hovered cover, and keeps it still when less motion is asked for', async () => {
    const lifted = async (motion: 'reduce' | 'no-preference') => {
      await page.emulateMedia({ reducedMotion: motion });
      await openDiscover(page);
      const tile = shelf(page, 'NetEase Cloud Music', 'Recommended playlists').getByRole('listitem').first();
      await tile.getByRole('link').hover();
      await page.waitForTimeout(400);
      return tile.locator('.cover').evaluate((cover) => getComputedStyle(cover).transform);
    };
    expect(await lifted('no-preference')).not.toBe('none');
    expect(await lifted('reduce')).toBe('none');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
  }, 30_000);

  it('has two columns of tiles on a phone, and no sideways scrolling', async () => {
    const phone = await ui.phonePage(page);
    await standInCovers(phone.context());
    await openDiscover(phone);
    const grid = shelf(phone, 'NetEase Cloud Music', 'Recommended playlists').locator('.cover-grid');
    await grid.getByRole('link', { name: 'Rainy Day Piano' }).waitFor();
    const columns = await grid.evaluate((element) =>
      getComputedStyle(element).gridTemplateColumns.split(' '),
    );
    expect(columns).toHaveLength(2);
    // The play button is always there on a touch screen.
    expect(
      await opacity(grid.getByRole('button', { name: 'Play all, replacing the queue: Rainy Day Piano' })),
    ).toBe('1');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The music page's tabs stay one row (a wrapped row left one tab alone under the underline).
    const tabTops = await phone
      .getByRole('tablist')
      .first()
      .getByRole('tab')
      .evaluateAll((tabs) => tabs.map((tab) => Math.round(tab.getBoundingClientRect().top)));
    expect(tabTops.length).toBeGreaterThan(2);
    expect(new Set(tabTops).size).toBe(1);
    await screenshot(phone, 'cover-03-phone');
    await phone.context().close();
  }, 30_000);

  it('speaks Chinese on a 中文 page', async () => {
    await page.evaluate(() => localStorage.setItem('tsmb.locale', 'zh'));
    onTestFinished(() => page.evaluate(() => localStorage.setItem('tsmb.locale', 'en')));
    await openDiscover(page);
    const recommended = shelf(page, '网易云音乐', '推荐歌单');
    await recommended.getByRole('link', { name: 'Rainy Day Piano' }).waitFor();
    await recommended.getByRole('button', { name: '全部播放（替换队列）: Rainy Day Piano' }).waitFor();
    await recommended.getByText('80 首').waitFor();
    await shelvesLoaded(page);
  }, 30_000);

  it('has no axe-core violation of any impact on the home, in both themes', async () => {
    const found: string[] = [];
    for (const theme of ['light', 'dark']) {
      await page.evaluate((value) => localStorage.setItem('tsmb.theme', value), theme);
      await openDiscover(page);
      await shelf(page, 'NetEase Cloud Music', 'Recommended playlists').getByRole('link').first().waitFor();
      await shelvesLoaded(page);
      await shelf(page, 'NetEase Cloud Music', 'Recommended playlists').getByRole('link').first().hover();
      await screenshot(page, `cover-07-home-${theme}`);
      for (const v of await axeViolations(page))
        found.push(`${theme}: ${v.id} (${v.impact}: ${v.help}) ${JSON.stringify(v.nodes.slice(0, 3))}`);
    }
    await page.evaluate(() => localStorage.setItem('tsmb.theme', 'light'));
    expect(found).toEqual([]);
  }, 40_000);
});

describe('collection pages', () => {
  const header = () => page.locator('header.collection-head');

  it("opens a playlist's page with a large cover header: name, song count, total length and its actions", async () => {
    await page.goto(`${ui.baseUrl}/music/playlist/music_a/7000000001`);
    await page.getByRole('heading', { name: 'Evening Mix', level: 1 }).waitFor();
    await header().getByText('Playlist · NetEase Cloud Music').waitFor();
    // Paper Boats 4:05.76, Member Song 3:21, Gone Tune 3:00: 10 minutes 26.76 seconds.
    await header().getByText('3 songs · 10 min', { exact: true }).waitFor();
    await header().getByText('A made-up playlist for tests.').waitFor();
    const cover = header().locator('.cover.large');
    await expect.poll(() => cover.locator('img').count()).toBe(1);
    const box = (await cover.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(200);
    expect(box.height).toBe(box.width);
    const playAll = header().getByRole('button', { name: 'Play all, replacing the queue: Evening Mix' });
    expect(await playAll.getAttribute('class')).toContain('primary');
    await header().getByRole('button', { name: 'Add all to the queue: Evening Mix' }).waitFor();
    await header().getByRole('button', { name: 'Add Evening Mix to favorites' }).waitFor();
    await screenshot(page, 'cover-04-playlist');
  }, 30_000);

  it("opens an album's page with its artist, and in Chinese, and on a phone", async () => {
    await page.goto(`${ui.baseUrl}/music/album/music_a/150000001`);
    await page.getByRole('heading', { name: 'Harbour Lights', level: 1 }).waitFor();
    await header().getByText('Album · NetEase Cloud Music').waitFor();
    await header().getByText('by River Lane', { exact: false }).waitFor();
    // Paper Boats 4:05.76, Late Track 3:19.5: 7 minutes 25.26 seconds.
    await header().getByText('2 songs · 7 min', { exact: true }).waitFor();
    await header().getByRole('button', { name: 'Play all, replacing the queue: Harbour Lights' }).waitFor();
    await screenshot(page, 'cover-05-album');

    const phone = await ui.phonePage(page);
    await standInCovers(phone.context());
    await phone.goto(`${ui.baseUrl}/music/album/music_a/150000001`);
    await phone.getByRole('heading', { name: 'Harbour Lights', level: 1 }).waitFor();
    await phone.locator('.song-row').first().waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, 'cover-06-album-phone');
    await phone.context().close();

    await page.evaluate(() => localStorage.setItem('tsmb.locale', 'zh'));
    onTestFinished(() => page.evaluate(() => localStorage.setItem('tsmb.locale', 'en')));
    await page.reload();
    await header().getByText('专辑 · 网易云音乐').waitFor();
    await header().getByText('2 首 · 7 分钟', { exact: true }).waitFor();
    await header().getByRole('button', { name: '全部播放（替换队列）: Harbour Lights' }).waitFor();
  }, 30_000);

  it('has no axe-core violation of any impact on a collection page, in both themes', async () => {
    const found: string[] = [];
    for (const theme of ['light', 'dark']) {
      await page.evaluate((value) => localStorage.setItem('tsmb.theme', value), theme);
      for (const path of ['/music/playlist/music_a/7000000001', '/music/album/music_a/150000001']) {
        await page.goto(`${ui.baseUrl}${path}`);
        await page.locator('.song-row').first().waitFor();
        for (const v of await axeViolations(page))
          found.push(
            `${theme} ${path}: ${v.id} (${v.impact}: ${v.help}) ${JSON.stringify(v.nodes.slice(0, 3))}`,
          );
      }
    }
    await page.evaluate(() => localStorage.setItem('tsmb.theme', 'light'));
    expect(found).toEqual([]);
  }, 30_000);
});
