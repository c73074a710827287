/**
 * Rough edges of issue 38 against the real service, daemon and TS3 test server, read from what
 * Chromium lays out and paints: the round Play/Pause button keeps its icon readable on hover in both
 * themes; an upload's percentage is on screen beside its bar; listening along labels its own level,
 * moves no control of the bar when turned on, and leaves a phone's position bar most of the width; a
 * live radio station (the stand-in radio on 127.0.0.1) shows LIVE instead of a length of 0:00, and its
 * station under its title. Refusals the page shows are phrases of the catalog, in English and 中文,
 * beside the field they name: an upload's name or content refused, a user name that is taken, a cookie
 * login while NetEase cannot be reached (every https host is a closed port here, msw in the api's
 * process), which keeps the pasted cookie.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpResponse, http } from 'msw';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '../../shared/domain/schemas';
import { renderPhrase, say } from '../../shared/i18n/phrases';
import { UPLOAD_EXTENSIONS } from '../../shared/sources/local/upload-name';
import { createMember, type Session, setupAdmin } from '../../testkit/accounts';
import { addToneUpload } from '../../testkit/tone-uploads';
import { useMswServer } from '../helpers/msw-server';
import {
  enableStreamSource,
  type RadioServer,
  STATION_NAME,
  startRadioServer,
} from '../helpers/radio-server';
import { plainWav } from '../uploads/media-files';
import {
  connectedBot,
  fieldError,
  resumeSetupWizard,
  screenshot,
  seriousViolations,
  signedInPage,
  startUiHarness,
  type UiHarness,
} from './ui-harness';

/** A loopback port nothing listens on: every platform's host is sent there and cannot be reached. */
const CLOSED_PORT = 'http://127.0.0.1:9/';
useMswServer(http.all(/^https:\/\//, () => HttpResponse.redirect(CLOSED_PORT, 307)));

let ui: UiHarness;
let admin: Session;
let page: Page;
let botId = '';
let song: Song;
let radio: RadioServer;

beforeAll(async () => {
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  const settings = await admin.api.POST('/api/bot/settings', { body: { autoPauseOnEmpty: false } });
  expect(settings.response.status).toBe(200);
  song = await addToneUpload(ui.t.db, ui.t.dataDir, 'Edge Tone', [{ frequencyHz: 440, seconds: 120 }]);
  botId = await connectedBot(ui, admin, 'Edge');
  const played = await admin.api.POST('/api/player/{botId}/play-song', {
    params: { path: { botId } },
    body: { song },
  });
  expect(played.response.status).toBe(200);
  page = await signedInPage(ui, 'owner');
}, 90_000);

afterAll(async () => {
  await ui?.close();
  await radio?.close();
});

async function setLanguage(on: Page, language: 'en' | 'zh') {
  await on.evaluate((value) => localStorage.setItem('tsmb.locale', value), language);
  await on.reload();
}

const bar = (on: Page) => on.getByRole('region', { name: 'Player of Edge' });

/** WCAG's contrast ratio of two computed `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, bl] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

async function setTheme(on: Page, theme: 'light' | 'dark') {
  await on.evaluate((value) => localStorage.setItem('tsmb.theme', value), theme);
  await on.reload();
}

describe('the round Play/Pause button', () => {
  it('keeps its icon readable against its own colour on hover, in both themes', async () => {
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      const button = bar(page).getByRole('button', { name: 'Pause' });
      await button.waitFor();
      await button.hover();
      // The icon is painted in the button's colour (fill: currentColor) on the button's background.
      const painted = await button.evaluate((element) => {
        const style = getComputedStyle(element);
        const icon = getComputedStyle(element.querySelector('svg')!);
        return { background: style.backgroundColor, icon: icon.fill, hovered: element.matches(':hover') };
      });
      expect(painted.hovered).toBe(true);
      expect(painted.background).not.toMatch(/rgba\(0, 0, 0, 0\)|transparent/);
      expect(
        contrast(painted.icon, painted.background),
        `${theme}: ${JSON.stringify(painted)}`,
      ).toBeGreaterThan(3);
      await screenshot(page, `edges-play-hover-${theme}`);
    }
    await setTheme(page, 'dark');
  });
});

describe('an upload under way', () => {
  it('shows its percentage beside the bar, unclipped, on a wide screen and a phone', async () => {
    const wav = plainWav(mkdtempSync(join(tmpdir(), 'ui-upload-')), 1);
    for (const [on, name] of [
      [page, 'wide'],
      [await ui.phonePage(page), 'phone'],
    ] as const) {
      // Held: the file stays under way, its bar and percentage on screen.
      await on.route('**/api/music/local/upload', () => undefined);
      await on.goto(`${ui.baseUrl}/music`);
      await on.getByRole('tab', { name: 'Upload' }).click();
      await on
        .getByLabel('Choose files')
        .setInputFiles([
          { name: `a rather long file name for the row of ${name}.wav`, mimeType: 'audio/wav', buffer: wav },
        ]);
      const progress = on.locator('.upload-progress');
      await expect.poll(() => progress.textContent()).toMatch(/\d+ ?%/);
      const seen = await progress.evaluate((element) => {
        const percent = element.querySelector('span')!.getBoundingClientRect();
        const bar = element.querySelector('progress')!.getBoundingClientRect();
        const box = element.getBoundingClientRect();
        return {
          clipped: element.scrollWidth > element.clientWidth,
          percentInside: percent.width > 0 && percent.right <= box.right + 0.5,
          beside: percent.left >= bar.right,
          barWidth: bar.width,
        };
      });
      expect(seen).toMatchObject({ clipped: false, percentInside: true, beside: true });
      expect(seen.barWidth).toBeGreaterThan(40);
      await screenshot(on, `edges-upload-progress-${name}`);
      await on.getByRole('button', { name: /^Cancel the upload of/ }).click();
      await on.unroute('**/api/music/local/upload');
      if (on !== page) await on.context().close();
    }
  });
});

describe('listening along', () => {
  it('names its own level, and turning it on moves no control of the bar', async () => {
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      const player = bar(page);
      const listen = player.getByRole('button', { name: 'Listen', exact: true });
      await listen.waitFor();
      // The bot's volume makes room above the level (its row moves up); nothing moves sideways.
      const volume = player.getByRole('slider', { name: 'Volume', exact: true });
      const boxes = async () => [
        ...(await Promise.all(
          [
            player.getByRole('group', { name: 'Playback' }),
            player.getByRole('slider', { name: 'Position' }),
            player.locator('button[name="listen"]'),
            player.getByRole('button', { name: 'Queue' }),
          ].map((control) => control.boundingBox()),
        )),
        await volume.evaluate((element) => {
          const { x, width } = element.getBoundingClientRect();
          return { x, width };
        }),
      ];
      const before = await boxes();
      await listen.click();
      const level = player.getByRole('slider', { name: 'Your listening volume (this browser only)' });
      await level.waitFor();
      // What says which slider is which on screen: the headphones of the Listen button beside it.
      expect(await player.locator('.listen-level svg').count()).toBe(1);
      expect(await player.locator('.volume svg').count()).toBe(1);
      await screenshot(page, `edges-listen-on-${theme}`);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await boxes()).toEqual(before);
      await player.getByRole('button', { name: 'Stop listening' }).click();
      await level.waitFor({ state: 'detached' });
      expect(await boxes()).toEqual(before);
    }
  });

  it('leaves the position bar most of the width on a phone, the level in the queue drawer', async () => {
    const phone = await ui.phonePage(page);
    await phone.goto(ui.baseUrl);
    const player = bar(phone);
    await player.getByRole('button', { name: 'Listen', exact: true }).click();
    const track = (await player.getByRole('slider', { name: 'Position' }).boundingBox())!;
    expect(track.width).toBeGreaterThanOrEqual(0.6 * 390);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, 'edges-listen-phone');
    await player.getByRole('button', { name: 'Queue' }).click();
    await phone
      .getByRole('complementary', { name: 'Queue' })
      .getByRole('slider', { name: 'Your listening volume (this browser only)' })
      .waitFor();
    await screenshot(phone, 'edges-listen-phone-drawer');
    await phone.context().close();
  });
});

describe('refusals in the words of the catalog', () => {
  it("says an upload's wrong name and its content that is no audio in full, in English and 中文", async () => {
    const noise = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251));
    for (const language of ['en', 'zh'] as const) {
      await page.goto(`${ui.baseUrl}/music`);
      await setLanguage(page, language);
      await page.getByRole('tab', { name: language === 'en' ? 'Upload' : '上传' }).click();
      await page.locator('input[name="files"]').setInputFiles([
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not music') },
        { name: 'noise.mp3', mimeType: 'audio/mpeg', buffer: noise },
      ]);
      const refusals = page.locator('.upload-row [role="alert"]');
      await expect
        .poll(() => refusals.allTextContents(), { timeout: 15_000 })
        .toEqual([
          renderPhrase(say.uploadWrongExtension(UPLOAD_EXTENSIONS), language),
          renderPhrase(say.uploadNotAudio(), language),
        ]);
      // Read in full: no line cut short by an ellipsis.
      for (const refusal of await refusals.all())
        expect(await refusal.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      expect(await refusals.first().textContent()).not.toContain('x-filename');
      await screenshot(page, `edges-upload-refused-${language}`);
    }
    await setLanguage(page, 'en');
  });

  it('says a user name that is taken beside the field, not in a toast, in English and 中文', async () => {
    await page.goto(`${ui.baseUrl}/settings/users`);
    for (const [language, taken] of [
      ['en', 'This user name is taken; choose another.'],
      ['zh', '这个用户名已被占用，请换一个。'],
    ] as const) {
      await setLanguage(page, language);
      const username = page.locator('input[name="newUsername"]');
      await username.fill('owner');
      await page.locator('input[name="newPassword"]').fill('a long enough password');
      await page.locator('form.toolbar button[type="submit"]').click();
      await expect.poll(() => fieldError(username)).toBe(taken);
      expect(await page.locator('.toasts').getByRole('alert').count()).toBe(0);
      await screenshot(page, `edges-username-taken-${language}`);
    }
    await setLanguage(page, 'en');
  });

  it("says a cookie login that cannot reach NetEase is the server's trouble, and keeps the cookie", async () => {
    const pasted = 'MUSIC_U=pasted_by_hand';
    for (const [language, said] of [
      ['en', 'This server cannot reach NetEase Cloud Music right now.'],
      ['zh', '本服务器暂时无法访问网易云音乐。'],
    ] as const) {
      await page.goto(`${ui.baseUrl}/settings/sources`);
      await setLanguage(page, language);
      const netease = page.locator('li.source-card').filter({
        has: page.getByRole('heading', {
          name: language === 'en' ? 'NetEase Cloud Music' : '网易云音乐',
          exact: true,
        }),
      });
      await netease.getByText(language === 'en' ? 'Paste a cookie' : '粘贴 Cookie').click();
      const cookie = netease.locator('input[name="cookie"]');
      await cookie.fill(pasted);
      await netease
        .getByRole('button', { name: language === 'en' ? 'Save the cookie' : '保存 Cookie' })
        .click();
      await netease.locator('.form-error').waitFor({ timeout: 20_000 });
      await screenshot(page, `edges-cookie-unreachable-${language}`);
      expect(await netease.locator('.form-error').textContent()).toBe(said);
      expect(await netease.textContent()).not.toMatch(/fetch failed|music_a|请求有误/);
      expect(await cookie.inputValue()).toBe(pasted);
    }
    await setLanguage(page, 'en');
  }, 40_000);
});

describe('a live radio station', () => {
  it('shows LIVE instead of a length and its station under the live title, in the bar, the queue and the history', async () => {
    radio = await startRadioServer();
    radio.setTitle('Morning Show');
    await enableStreamSource(admin, { allowPrivateHosts: true });
    const found = await admin.api.GET('/api/music/song/{id}', {
      params: { path: { id: `${radio.baseUrl}live` }, query: { platform: 'stream' } },
    });
    expect(found.data).toMatchObject({ name: STATION_NAME, duration: 0 });
    const path = { params: { path: { botId } } };
    await admin.api.POST('/api/player/{botId}/clear', path);
    for (let copy = 0; copy < 2; copy++)
      expect(
        (await admin.api.POST('/api/player/{botId}/add-song', { ...path, body: { song: found.data! } }))
          .response.status,
      ).toBe(200);
    await admin.api.POST('/api/player/{botId}/play-at', { ...path, body: { index: 0 } });

    for (const [width, theme] of [
      [1280, 'light'],
      [390, 'dark'],
    ] as const) {
      const on = width === 1280 ? page : await ui.phonePage(page);
      await on.goto(`${ui.baseUrl}/player/${botId}`);
      await setTheme(on, theme);
      const player = bar(on);
      await player.getByRole('link', { name: 'Morning Show' }).waitFor({ timeout: 30_000 });
      expect(await player.locator('.song-text .muted').textContent()).toContain(`${STATION_NAME} · Edge`);
      const progress = player.locator('.progress');
      // The position counts up from the start; where a song's length would be, LIVE and no time.
      await progress.locator('.time.end .badge.live', { hasText: 'LIVE' }).waitFor();
      expect(await progress.locator('.time.end').textContent()).toBe('LIVE');
      const position = player.getByRole('slider', { name: 'Position' });
      expect(await position.getAttribute('aria-valuetext')).toMatch(/^\d+:\d\d into the live stream$/);
      expect(await on.getByText('Unknown artist').count()).toBe(0);

      await player.getByRole('button', { name: 'Queue' }).click();
      const rows = on.getByRole('complementary', { name: 'Queue' }).locator('li.song-row');
      await expect.poll(() => rows.count()).toBe(2);
      // The row playing as the bar shows it; the other as queued, a station that is live radio.
      expect(await rows.nth(0).locator('.song-text').textContent()).toMatch(/Morning Show\s*Test FM/);
      expect(await rows.nth(1).locator('.song-text').textContent()).toMatch(/Test FM\s*Live radio/);
      for (const row of await rows.all()) expect(await row.locator('.badge.live').textContent()).toBe('LIVE');
      expect(await rows.locator('.duration').count()).toBe(0);
      await screenshot(on, `edges-radio-${width}-${theme}`);
      expect(await seriousViolations(on)).toEqual([]);
      await on.keyboard.press('Escape');
      if (on !== page) await on.context().close();
    }
    await page.getByRole('tab', { name: 'History' }).click();
    const played = page.locator('li.song-row').filter({ hasText: STATION_NAME }).first();
    expect(await played.locator('.song-text').textContent()).toMatch(/Test FM\s*Live radio/);
    await screenshot(page, 'edges-radio-history');
    await setTheme(page, 'dark');
  }, 90_000);
});

describe('nits', () => {
  it("keeps the setup wizard's steps on one row, on a wide screen and a phone", async () => {
    await resumeSetupWizard(ui, page);
    for (const on of [page, await ui.phonePage(page)]) {
      await resumeSetupWizard(ui, on);
      await on.goto(`${ui.baseUrl}/setup?step=language`);
      await on.locator('ol.steps > li[aria-current="step"]').waitFor();
      const tops = await on
        .locator('ol.steps > li')
        .evaluateAll((steps) => steps.map((step) => Math.round(step.getBoundingClientRect().top)));
      expect(tops.length).toBe(5);
      expect(new Set(tops).size).toBe(1);
      await screenshot(on, `edges-wizard-steps-${on === page ? 1280 : 390}`);
      if (on !== page) await on.context().close();
    }
  });

  it('makes a text field and a select beside it equally tall', async () => {
    await page.goto(`${ui.baseUrl}/settings/users`);
    const height = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => element.getBoundingClientRect().height);
    const input = await height('form.toolbar input[name="newUsername"]');
    expect(Math.abs(input - (await height('form.toolbar select')))).toBeLessThan(0.5);
  });

  it("tells a member that YouTube cannot play here, without the admin's remedy, and shows the admin that", async () => {
    const { username } = await createMember(ui.t, admin, { capabilities: ['platform.auth'] });
    const member = await signedInPage(ui, username);
    for (const [on, said] of [
      [member, /^not available on this server$/],
      [page, /yt-dlp/],
    ] as const) {
      await on.goto(`${ui.baseUrl}/settings/sources`);
      const youtube = on
        .locator('li.source-card')
        .filter({ has: on.getByRole('heading', { name: 'YouTube' }) });
      await expect.poll(() => youtube.getByRole('status').textContent()).toMatch(said);
    }
    await screenshot(member, 'edges-member-youtube');
    await member.context().close();
  });

  it('asks for an http(s) address when internet radio is searched for words', async () => {
    await enableStreamSource(admin);
    await page.goto(`${ui.baseUrl}/music`);
    await page.getByRole('tab', { name: 'Search' }).click();
    const query = page.getByLabel('Search for songs, albums or playlists');
    await page.getByLabel('Source').selectOption('stream');
    expect(await query.getAttribute('placeholder')).toMatch(/^https:\/\//);
    await query.fill('not a url');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect
      .poll(() => fieldError(query))
      .toBe('Internet radio plays an address: enter one that starts with http:// or https://.');
    expect(await page.getByText('Nothing found.').count()).toBe(0);
    await screenshot(page, 'edges-radio-search-words');
  });

  it('lists only the keys a guest may use, and says who added a song in plain words', async () => {
    const on = await admin.api.POST('/api/bot/settings', {
      body: { guestMode: { enabled: true, permissions: { skip: false, transport: false } } },
    });
    expect(on.response.status).toBe(200);
    const guest = await ui.newPage();
    guest.setDefaultTimeout(8000);
    await guest.goto(ui.baseUrl);
    await guest.getByRole('button', { name: 'Enter as a guest' }).click();
    await bar(guest).waitFor();
    await guest.keyboard.press('?');
    const keys = guest.getByRole('dialog').locator('dt');
    await keys.first().waitFor();
    expect(await keys.allTextContents()).toEqual(['L', '/', '?', 'Esc']);
    await screenshot(guest, 'edges-guest-shortcuts');
    await guest.context().close();

    await page.goto(`${ui.baseUrl}/player/${botId}`);
    await bar(page).getByRole('button', { name: 'Next song' }).waitFor();
    await page.keyboard.press('?');
    await page.getByRole('dialog').locator('dt').first().waitFor();
    expect(await page.getByRole('dialog').locator('dt').count()).toBe(9);
    await page.keyboard.press('Escape');
    const queued = page.locator('.queue li.song-row').first();
    await expect.poll(() => queued.textContent()).toContain('added by owner');
  });
});
