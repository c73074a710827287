/**
 * The browser UI of a member (not an admin: no sources' status to ask) on a server that cannot reach
 * the internet: every platform host is a network error (msw, in the api's process where the platform
 * calls are made), Jellyfin excepted in the last test. The music home says once that the server cannot
 * reach the internet instead of an error per shelf; a platform's failure reads as a sentence with the
 * platform's name (no internal value, no "fetch failed"), in English and Chinese; an admin can open
 * what the platform said; the failed search offers what plays without a platform (the uploads, their
 * tab, internet radio). One platform out while another answers: its shelves fold into one notice.
 * axe-core finds no violation of any impact in either theme; a phone shows it too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpResponse, http } from 'msw';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createMember, type Session, setupAdmin } from '../../testkit/accounts';
import { addToneUpload } from '../../testkit/tone-uploads';
import { ALICE_LOGIN, useJellyfinApi } from '../helpers/jellyfin-api';
import { useMswServer } from '../helpers/msw-server';
import { sendUpload, taggedMp3WithCover } from '../uploads/media-files';
import { axeViolations, screenshot, signedInPage, startUiHarness, type UiHarness } from './ui-harness';

/** A loopback port nothing listens on: a connection there is refused, as a host off the network is. */
const CLOSED_PORT = 'http://127.0.0.1:9/';
// Jellyfin answers; every other platform request is sent on to the closed port and fails there.
useJellyfinApi();
useMswServer(http.all(/^https:\/\//, () => HttpResponse.redirect(CLOSED_PORT, 307)));

const OFFLINE = 'This server cannot reach the internet';
const UNREACHABLE_NETEASE = 'This server cannot reach NetEase Cloud Music right now.';

let ui: UiHarness;
let admin: Session;
let member: Page;

beforeAll(async () => {
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  const { username } = await createMember(ui.t, admin);
  member = await signedInPage(ui, username);
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

async function openDiscover(page: Page) {
  await page.goto(`${ui.baseUrl}/music`);
  await page.getByRole('tab', { name: /^(Discover|发现)$/ }).click();
}

async function searchNetease(page: Page) {
  await page.goto(`${ui.baseUrl}/music`);
  await page.getByLabel('Search for songs, albums or playlists').fill('paper');
  await page.getByLabel('Source').selectOption('music_a');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

describe('a member on a server without internet', () => {
  it('sees one notice on the music home instead of an error per shelf', async () => {
    await openDiscover(member);
    await member.getByRole('status').filter({ hasText: OFFLINE }).waitFor();
    expect(await member.getByText(OFFLINE).count()).toBe(1);
    // What this server holds itself (the uploads' albums) may still show; no platform's shelf does,
    // and uploads without album tags leave no empty section behind.
    expect(
      await member.locator('.source-home:not([aria-labelledby="home-local"]) .home-section').count(),
    ).toBe(0);
    await member.locator('[aria-labelledby="home-local"]').waitFor({ state: 'hidden' });
    expect(await member.getByText(/music_a|fetch failed|could not be reached/).count()).toBe(0);
    await screenshot(member, 'offline-01-member-home');

    await member.evaluate(() => localStorage.setItem('tsmb.locale', 'zh'));
    onTestFinished(() => member.evaluate(() => localStorage.setItem('tsmb.locale', 'en')));
    await openDiscover(member);
    await member.getByRole('status').filter({ hasText: '本服务器无法访问互联网' }).waitFor();
    expect(
      await member.locator('.source-home:not([aria-labelledby="home-local"]) .home-section').count(),
    ).toBe(0);
  }, 30_000);

  it('still shows the albums of the uploads under the notice, with their embedded covers', async () => {
    const media = mkdtempSync(join(tmpdir(), 'offline-albums-'));
    onTestFinished(() => rmSync(media, { recursive: true, force: true }));
    const sent = await sendUpload(ui.t, { name: 'tagged.mp3', bytes: taggedMp3WithCover(media) }, admin.jar);
    expect(sent.status).toBe(200);
    await openDiscover(member);
    await member.getByRole('status').filter({ hasText: OFFLINE }).waitFor();
    const uploads = member.getByRole('region', { name: 'Uploaded files' });
    const album = uploads.getByRole('link', { name: 'Fixtures' });
    await album.waitFor();
    await expect
      .poll(() =>
        uploads
          .locator('img')
          .first()
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      )
      .toBeGreaterThan(0);
    await screenshot(member, 'offline-01b-uploaded-albums');
    await album.click();
    await member.getByText('Tëst Sóng').first().waitFor();
  });

  it("reads a platform's failure as a sentence with the platform's name, in English and Chinese", async () => {
    await searchNetease(member);
    const alert = member.getByRole('alert').filter({ hasText: UNREACHABLE_NETEASE });
    await alert.waitFor();
    expect(await alert.innerText()).toBe(UNREACHABLE_NETEASE);
    // The platform's own words are for admins.
    expect(await member.getByText('Original error message').count()).toBe(0);
    await screenshot(member, 'offline-02-member-search');

    await member.evaluate(() => localStorage.setItem('tsmb.locale', 'zh'));
    onTestFinished(() => member.evaluate(() => localStorage.setItem('tsmb.locale', 'en')));
    await member.goto(`${ui.baseUrl}/music`);
    await member.getByLabel('搜索歌曲、专辑或歌单').fill('paper');
    await member.getByLabel('音乐源').selectOption('music_a');
    await member.getByRole('button', { name: '搜索', exact: true }).click();
    await member.getByRole('alert').filter({ hasText: '本服务器暂时无法访问网易云音乐。' }).waitFor();
  }, 30_000);

  it('offers the uploads, their tab and internet radio under the failed search', async () => {
    const { enabledProviders } = (await admin.api.GET('/api/bot/settings')).data!;
    const saved = await admin.api.POST('/api/bot/settings', {
      body: { enabledProviders: [...enabledProviders, 'stream'] },
    });
    expect(saved.response.status).toBe(200);
    await addToneUpload(ui.t.db, ui.t.dataDir, 'Paper Lanterns', [{ frequencyHz: 440, seconds: 5 }]);
    const fallbacks = (page: Page) =>
      page.locator('.search-fallbacks').filter({ hasText: 'Something to play without this search:' });

    await searchNetease(member);
    await member.getByRole('alert').filter({ hasText: UNREACHABLE_NETEASE }).waitFor();
    expect(await fallbacks(member).getByRole('button').allTextContents()).toEqual([
      'Search the uploaded files',
      'Upload files',
      'Play internet radio',
    ]);
    await screenshot(member, 'offline-06-search-fallbacks');
    await fallbacks(member).getByRole('button', { name: 'Search the uploaded files' }).click();
    await member.locator('.song-row .song-title', { hasText: 'Paper Lanterns' }).waitFor();
    expect(await member.getByLabel('Source').inputValue()).toBe('local');
    expect(await member.getByRole('alert').count()).toBe(0);

    await searchNetease(member);
    await fallbacks(member).getByRole('button', { name: 'Play internet radio' }).click();
    expect(await member.getByLabel('Source').inputValue()).toBe('stream');
    const field = member.getByLabel('Search for songs, albums or playlists');
    expect(await field.inputValue()).toBe('');
    expect(await field.evaluate((input) => input === document.activeElement)).toBe(true);

    await searchNetease(member);
    await fallbacks(member).getByRole('button', { name: 'Upload files' }).click();
    expect(await member.getByRole('tab', { name: 'Upload' }).getAttribute('aria-selected')).toBe('true');
    await member.getByText('Drop audio or video files here', { exact: false }).waitFor();

    const phone = await ui.phonePage(member);
    onTestFinished(() => phone.context().close());
    await searchNetease(phone);
    await fallbacks(phone).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, 'offline-07-search-fallbacks-phone');
    await admin.api.POST('/api/bot/settings', { body: { enabledProviders } });
  }, 40_000);

  it('lets an admin open what the platform said', async () => {
    const page = await signedInPage(ui, 'owner');
    onTestFinished(() => page.context().close());
    await searchNetease(page);
    const alert = page.getByRole('alert').filter({ hasText: UNREACHABLE_NETEASE });
    await alert.waitFor();
    await alert.getByText('Original error message').click();
    await alert.getByText(/^music_a: NetEase Cloud Music could not be reached \(.+\)$/).waitFor();
    await screenshot(page, 'offline-03-admin-details');
  }, 30_000);

  it('has no axe-core violation of any impact, in both themes, and fits a phone', async () => {
    const found: string[] = [];
    for (const theme of ['light', 'dark']) {
      await member.evaluate((value) => localStorage.setItem('tsmb.theme', value), theme);
      await openDiscover(member);
      await member.getByRole('status').filter({ hasText: OFFLINE }).waitFor();
      for (const v of await axeViolations(member))
        found.push(`${theme} home: ${v.id} (${v.impact}: ${v.help})`);
      await searchNetease(member);
      await member.getByRole('alert').filter({ hasText: UNREACHABLE_NETEASE }).waitFor();
      for (const v of await axeViolations(member))
        found.push(`${theme} search: ${v.id} (${v.impact}: ${v.help})`);
    }
    await member.evaluate(() => localStorage.setItem('tsmb.theme', 'light'));
    expect(found).toEqual([]);

    const phone = await ui.phonePage(member);
    onTestFinished(() => phone.context().close());
    await openDiscover(phone);
    await phone.getByRole('status').filter({ hasText: OFFLINE }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, 'offline-04-member-phone');
  }, 40_000);

  it("folds one platform's shelves into one notice while another platform answers", async () => {
    const saved = await admin.api.POST('/api/bot/settings', {
      body: { enabledProviders: ['music_a', 'library_a'], defaultPlatform: 'music_a', jellyfin: ALICE_LOGIN },
    });
    expect(saved.response.status).toBe(200);
    await openDiscover(member);
    const netease = member.getByRole('region', { name: 'NetEase Cloud Music', exact: true });
    await netease
      .getByRole('status')
      .filter({
        hasText: 'This server cannot reach NetEase Cloud Music right now, so it has nothing to show here.',
      })
      .waitFor();
    expect(await netease.locator('.home-section').count()).toBe(0);
    const jellyfin = member.getByRole('region', { name: 'Jellyfin', exact: true });
    await jellyfin.getByRole('link', { name: 'Crossings' }).waitFor();
    expect(await member.getByText(OFFLINE).count()).toBe(0);
    await screenshot(member, 'offline-05-one-platform');
  }, 30_000);
});
