/**
 * The browser UI's music platforms and uploads against the real service, its daemon and a TS3 test
 * server, with NetEase's login endpoints and a Jellyfin server stood in by msw (in the api's process,
 * where the platform calls are made): files uploaded through the Upload tab (listed at once, sent in
 * turn, cancelled; a finished one by its tags, kept over a reload and played from there), the sources screen (a source switched off, qualities offered per platform lowest first with the default marked, the NetEase QR
 * login walked to confirmed, a code that expires, Jellyfin's connection test, the Spotify app's
 * client id, secret, bitrate and device name entered and stored), the setup wizard's
 * layout, a phone-sized screen and axe-core scans of the new screens.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { qualitiesOf } from '../../shared/domain/platforms';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { FFMPEG } from '../../testkit/audio-signals';
import { ALICE, JELLYFIN_URL, useJellyfinApi } from '../helpers/jellyfin-api';
import { LISTENER, useNeteaseLoginApi } from '../helpers/netease-login-api';
import { plainWav } from '../uploads/media-files';
import {
  connectedBot,
  resumeSetupWizard,
  screenshot,
  seriousViolations,
  signedInPage,
  startUiHarness,
  type UiHarness,
} from './ui-harness';

const SECRET = vi.hoisted(() => 'PinnedLoginKey16');
vi.mock(import('../../shared/sources/netease/weapi'), async (importOriginal) => {
  const real = await importOriginal();
  return { ...real, weapi: (payload: object) => real.weapi(payload, SECRET) };
});

const netease = useNeteaseLoginApi(SECRET);
useJellyfinApi();

let ui: UiHarness;
let admin: Session;
let page: Page;

beforeAll(async () => {
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  await connectedBot(ui, admin, 'Attic');
  page = await signedInPage(ui, 'owner');
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

const settings = async () => (await admin.api.GET('/api/bot/settings')).data!;
const sourceCard = (name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });

describe('upload', () => {
  it('lists files at once, sends them in turn with a percentage, and cancels one waiting or under way', async () => {
    await page.getByRole('link', { name: 'Music', exact: true }).click();
    await page.getByRole('tab', { name: 'Upload' }).click();
    // Held requests: the first file stays under way and the second waits its turn, as on a slow link.
    const held: string[] = [];
    await page.route('**/api/music/local/upload', (route) => {
      held.push(route.request().headers()['x-filename'] ?? '');
    });
    const wav = plainWav(mkdtempSync(join(tmpdir(), 'ui-upload-')), 1);
    await page.getByLabel('Choose files').setInputFiles([
      { name: 'first.wav', mimeType: 'audio/wav', buffer: wav },
      { name: 'second.wav', mimeType: 'audio/wav', buffer: wav },
    ]);
    const pending = page.getByRole('list', { name: 'Uploads on their way' });
    await pending.getByText('Waiting its turn').waitFor();
    await expect.poll(() => pending.locator('.upload-progress').textContent()).toMatch(/\d+%/);
    await page.getByRole('button', { name: 'Cancel the upload of second.wav' }).click();
    await page.getByRole('button', { name: 'Cancel the upload of first.wav' }).click();
    await pending.waitFor({ state: 'detached' });
    expect(held).toEqual(['first.wav']);
    await page.unroute('**/api/music/local/upload');
  });

  it('shows an upload by its tags, keeps the list over a reload, and plays it from there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ui-upload-'));
    const file = join(dir, 'track01.mp3');
    // 20 s: long enough to see the position move once it plays.
    const tagged = ['-metadata', 'title=Harbour Probe', '-metadata', 'artist=Quay Band'];
    spawnSync(FFMPEG, ['-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=d=20', ...tagged, file]);
    await page.getByLabel('Choose files').setInputFiles(file);
    const stored = page.locator('.uploaded');
    await stored.getByText('Harbour Probe', { exact: true }).waitFor();
    await stored.getByText('Quay Band').first().waitFor();
    expect(await stored.getByText('track01').count()).toBe(0);
    await screenshot(page, 'sources-01-uploaded');

    await page.reload();
    await page.getByRole('tab', { name: 'Upload' }).click();
    await stored.getByRole('button', { name: /^Play, replacing the queue: Harbour Probe/ }).click();
    await page.getByText(/Now playing: Harbour Probe/).waitFor();

    await page.getByRole('link', { name: 'Player', exact: true }).click();
    await page.locator('.now-title', { hasText: 'Harbour Probe' }).waitFor();
    const slider = page.getByRole('slider', { name: 'Position' });
    const before = Number(await slider.getAttribute('aria-valuenow'));
    await expect.poll(async () => Number(await slider.getAttribute('aria-valuenow'))).toBeGreaterThan(before);
    await screenshot(page, 'sources-02-playing-upload');
  }, 30_000);
});

describe('sources screen', () => {
  it('switches a source off (its quality then waits) and sets a quality; each source offers only the qualities it serves', async () => {
    await page.goto(`${ui.baseUrl}/settings/sources`);
    await page.getByRole('heading', { name: 'Music platforms', level: 2 }).waitFor();
    await page.getByText('Loading…').first().waitFor({ state: 'detached' });
    await screenshot(page, 'sources-03-sources');
    await page.getByRole('checkbox', { name: 'Enabled Bilibili' }).uncheck();
    await page.getByText('Saved.').first().waitFor();
    expect((await settings()).enabledProviders).not.toContain('video_a');

    await page.getByRole('combobox', { name: 'Quality NetEase Cloud Music' }).selectOption('lossless');
    await expect.poll(async () => (await admin.api.GET('/api/music/quality')).data?.music_a).toBe('lossless');

    // A disabled source's quality is refused by the api, so its control is off.
    expect(await page.getByRole('combobox', { name: 'Quality Bilibili' }).isDisabled()).toBe(true);

    // Each platform offers only the qualities it serves (its registry row), lowest first, its default
    // (the registry's first) marked where it falls in that order.
    for (const [platform, label, inOrder] of [
      ['music_a', 'NetEase Cloud Music', ['standard', 'higher', 'exhigh', 'lossless', 'hires', 'master']],
      ['music_b', 'QQ Music', ['standard', 'higher', 'exhigh', 'lossless']],
      ['video_a', 'Bilibili', ['standard', 'higher', 'exhigh', 'lossless']],
    ] as const) {
      const select = page.getByRole('combobox', { name: `Quality ${label}` });
      const offered = await select
        .locator('option')
        .evaluateAll((options) =>
          options.map((option) => [(option as HTMLOptionElement).value, option.textContent!.trim()] as const),
        );
      expect(offered.map(([value]) => value)).toEqual(inOrder);
      expect(offered.filter(([, text]) => text.endsWith(' · default')).map(([value]) => value)).toEqual([
        qualitiesOf(platform)[0],
      ]);
    }
    expect(
      await page.getByRole('combobox', { name: 'Quality QQ Music' }).locator('option').allTextContents(),
    ).toEqual(
      ['Standard (128 kbit/s)', 'Higher (192 kbit/s)', 'High (320 kbit/s) · default', 'Lossless'].map(
        (text) => expect.stringContaining(text),
      ),
    );
  });

  it('logs NetEase in by QR code: waiting, scanned, confirmed, shown in words', async () => {
    const card = sourceCard('NetEase Cloud Music');
    await card.getByText('not logged in').waitFor();
    await card.getByRole('button', { name: 'Log in with a QR code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in to NetEase Cloud Music' });
    const code = dialog.getByRole('img', { name: 'QR code to scan with the phone app' });
    await code.waitFor();
    expect(await code.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await dialog.getByText('Waiting for the code to be scanned…').waitFor();
    expect((await seriousViolations(page)).map((v) => v.id)).toEqual([]);
    await screenshot(page, 'sources-03-qr-waiting');

    const unikey = netease.lastUnikey();
    netease.scan(unikey);
    await dialog.getByText('Scanned: confirm the login on your phone.').waitFor({ timeout: 5000 });
    netease.addAccount('ui_qr_music_u');
    netease.confirm(unikey, 'ui_qr_music_u');
    await dialog.getByText('Logged in.').waitFor({ timeout: 5000 });
    await screenshot(page, 'sources-04-qr-confirmed');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await card.getByText(`logged in as ${LISTENER.nickname}`).waitFor();
  });

  it('offers a new code once one expired, and stops polling when the dialog closes', async () => {
    const card = sourceCard('NetEase Cloud Music');
    await card.getByRole('button', { name: 'Log in with a QR code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in to NetEase Cloud Music' });
    await dialog.getByText('Waiting for the code to be scanned…').waitFor();
    netease.expire(netease.lastUnikey());
    await dialog.getByText('The code expired.').waitFor({ timeout: 5000 });
    const first = netease.lastUnikey();
    await dialog.getByRole('button', { name: 'Get a new code' }).click();
    await dialog.getByText('Waiting for the code to be scanned…').waitFor();
    expect(netease.lastUnikey()).not.toBe(first);

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const polls = () => netease.requests.filter((r) => r.path === '/eapi/login/qrcode/client/login').length;
    const closedAt = polls();
    await page.waitForTimeout(4500);
    expect(polls()).toBe(closedAt);
  });

  it("tests the Jellyfin server's connection with what the form holds", async () => {
    const card = sourceCard('Jellyfin');
    await card.getByLabel('Server address').fill(JELLYFIN_URL);
    await card.getByRole('textbox', { name: 'Username' }).fill(ALICE.name);
    await card.getByRole('textbox', { name: 'Password' }).fill('not the password');
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByRole('alert').waitFor();
    await card.getByRole('textbox', { name: 'Password' }).fill(ALICE.password);
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByText('Connected to Attic Media (Jellyfin 10.10.7).').waitFor();
    // Nothing was stored by the test; saving keeps the password write-only.
    expect((await settings()).jellyfin.hasPassword).toBe(false);
    await card.getByRole('button', { name: 'Save the server' }).click();
    await expect
      .poll(async () => (await settings()).jellyfin)
      .toMatchObject({ username: ALICE.name, hasPassword: true });
    await expect
      .poll(() => card.getByRole('textbox', { name: 'Password' }).getAttribute('placeholder'))
      .toBe('stored; type to replace');
    expect(await card.getByRole('textbox', { name: 'Password' }).inputValue()).toBe('');
  });

  it('enters the Spotify app: stored as typed, the secret never shown back', async () => {
    const card = sourceCard('Spotify');
    await card
      .getByText('Spotify is not configured: turn on a Spotify app with its client id above.')
      .waitFor();
    const secret = 'ui-spotify-client-secret-3c9d';
    await card.getByRole('checkbox', { name: 'Use this Spotify app' }).check();
    await card.getByRole('textbox', { name: 'Client ID' }).fill('0123456789abcdef0123456789abcdef');
    await card.getByLabel('Client secret').fill(secret);
    await card.getByRole('combobox', { name: 'Bitrate' }).selectOption('160');
    await card.getByRole('textbox', { name: 'Device name in Spotify' }).fill('Attic Radio');
    await card.getByRole('button', { name: 'Save the Spotify app' }).click();
    await expect
      .poll(async () => (await settings()).spotify)
      .toEqual({
        enabled: true,
        clientId: '0123456789abcdef0123456789abcdef',
        hasClientSecret: true,
        backend: 'librespot',
        bitrate: 160,
        deviceName: 'Attic Radio',
      });
    // Configured now: the account part asks Spotify's routes again instead of saying it is not.
    await card.getByText('No Spotify account is connected.').waitFor();
    const secretField = card.getByLabel('Client secret');
    await expect.poll(() => secretField.getAttribute('placeholder')).toBe('stored; type to replace');
    expect(await secretField.inputValue()).toBe('');
    await page.reload();
    await sourceCard('Spotify').getByRole('textbox', { name: 'Client ID' }).waitFor();
    expect(await sourceCard('Spotify').getByRole('textbox', { name: 'Client ID' }).inputValue()).toBe(
      '0123456789abcdef0123456789abcdef',
    );
    expect(await page.content()).not.toContain(secret);
    await screenshot(page, 'sources-05-spotify-app');
  });

  it('has no serious axe-core violation on the sources and account screens, in both themes', async () => {
    const found: string[] = [];
    for (const theme of ['light', 'dark']) {
      await page.evaluate((value) => localStorage.setItem('tsmb.theme', value), theme);
      for (const path of ['/settings/sources', '/settings/account']) {
        await page.goto(`${ui.baseUrl}${path}`);
        await page.locator('h2').first().waitFor();
        await page.getByText('Loading…').first().waitFor({ state: 'detached' });
        for (const v of await seriousViolations(page))
          found.push(`${theme} ${path}: ${v.id} (${v.help}) ${JSON.stringify(v.nodes.slice(0, 3))}`);
      }
    }
    await page.getByRole('heading', { name: 'My NetEase account' }).waitFor();
    await page.getByText('No account is linked.').waitFor();
    await screenshot(page, 'sources-05-account');
    expect(found).toEqual([]);
  });
});

describe('layout', () => {
  it('keeps the setup wizard centred on every step', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await resumeSetupWizard(ui, page);
    for (const step of ['language', 'bot', 'platforms', 'done']) {
      await page.goto(`${ui.baseUrl}/setup?step=${step}`);
      const box = (await page.locator('.card.wizard').boundingBox())!;
      expect(Math.abs(box.x + box.width / 2 - 640), step).toBeLessThan(2);
      if (step === 'platforms') {
        await page.getByText(`NetEase Cloud Music: logged in as ${LISTENER.nickname}`).waitFor();
        await page.getByRole('button', { name: 'Log in to NetEase Cloud Music with a QR code' }).waitFor();
        await screenshot(page, 'sources-06-setup-platforms');
      }
    }
  });

  it('fits the sources screen and every music tab on a phone', async () => {
    const phone = await ui.phonePage(page);
    await phone.goto(`${ui.baseUrl}/settings/sources`);
    await phone.getByRole('heading', { name: 'NetEase Cloud Music' }).waitFor();
    await screenshot(phone, 'sources-07-phone');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, 'sources-07-phone');

    await phone.goto(`${ui.baseUrl}/music`);
    await phone.getByLabel('Search for songs, albums or playlists').fill('Harbour Probe');
    await phone.getByLabel('Source').selectOption('local');
    await phone.getByRole('button', { name: 'Search', exact: true }).click();
    await phone.getByRole('tab', { name: /^Playlists \(0\)$/ }).waitFor();
    for (const tab of await phone.getByRole('tab').all()) {
      const box = (await tab.boundingBox())!;
      expect(box.x + box.width, (await tab.textContent()) ?? '').toBeLessThanOrEqual(390);
    }
    await screenshot(phone, 'sources-08-phone-music');

    // YouTube's status is yt-dlp's, which the server words: in Chinese on a 中文 screen (none on PATH here).
    await phone.evaluate(() => localStorage.setItem('tsmb.locale', 'zh'));
    await phone.goto(`${ui.baseUrl}/settings/sources`);
    const youtube = phone
      .getByRole('listitem')
      .filter({ has: phone.getByRole('heading', { name: 'YouTube' }) });
    await youtube.getByText('未安装 yt-dlp（PATH 中找不到 yt-dlp；请安装它或设置 YTDLP_PATH）').waitFor();
    await youtube.scrollIntoViewIfNeeded();
    await screenshot(phone, 'sources-09-phone-zh');
    // Whether the server reaches each platform, a row each in Chinese punctuation (no ", " or ": "
    // of English between the words); internet radio, which nobody logs in to, shows no login badge.
    const health = phone.getByRole('list', { name: '本服务器能访问它们吗？' });
    await health.getByRole('listitem').first().waitFor();
    expect(await health.textContent()).not.toMatch(/[,:.] /);
    const radio = phone
      .getByRole('listitem')
      .filter({ has: phone.getByRole('heading', { name: '网络电台与音频链接' }) });
    expect(await radio.getByRole('status').count()).toBe(0);
    // Spotify's app settings speak Chinese too: its client secret is 客户端密钥, not "Client secret".
    await phone.getByLabel('客户端密钥', { exact: true }).waitFor();
    await phone.context().close();
  });
});
