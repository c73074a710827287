/**
 * Rough edges of issue 38 against the real service, daemon and TS3 test server, read from what
 * Chromium lays out and paints: the round Play/Pause button keeps its icon readable on hover in both
 * themes; an upload's percentage is on screen beside its bar; listening along labels its own level,
 * moves no control of the bar when turned on, and leaves a phone's position bar most of the width; a
 * live radio station shows LIVE instead of a length of 0:00, and its station under its title.
 */

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '../../shared/domain/schemas';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { addToneUpload } from '../../testkit/tone-uploads';
import { plainWav } from '../uploads/media-files';
import { connectedBot, screenshot, signedInPage, startUiHarness, type UiHarness } from './ui-harness';

let ui: UiHarness;
let admin: Session;
let page: Page;
let botId = '';
let song: Song;

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
});

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
