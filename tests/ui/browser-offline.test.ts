/**
 * The page while this browser is offline (Playwright's `setOffline`), against the real service, daemon
 * and TS3 test server: the player bar stops its clock at the last known position, its controls (and
 * the player page's) are off with the reason said under the song, the bot's state reads as unknown,
 * and all of it comes back when the browser is online again. A QR login opened offline says so in
 * place of an empty code box and shows the code once back online (NetEase's login stood in by msw).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { addToneUpload } from '../../testkit/tone-uploads';
import { useNeteaseLoginApi } from '../helpers/netease-login-api';
import {
  connectedBot,
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
useNeteaseLoginApi(SECRET);

const OFFLINE_REASON = 'Offline: controls are off until the connection is back.';

let ui: UiHarness;
let admin: Session;
let page: Page;
let botId: string;

beforeAll(async () => {
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  botId = await connectedBot(ui, admin, 'Ferry');
  const song = await addToneUpload(ui.t.db, ui.t.dataDir, 'Ferry Tone', [{ frequencyHz: 440, seconds: 120 }]);
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

const bar = (on: Page) => on.getByRole('region', { name: 'Player of Ferry' });
const position = (on: Page) =>
  bar(on)
    .getByRole('slider', { name: 'Position' })
    .getAttribute('aria-valuenow')
    .then((value) => Number(value));

/** Whether each of the player's controls on `on` can be used. */
async function controlsEnabled(on: Page) {
  const enabled = async (control: ReturnType<Page['getByRole']>) => control.isEnabled();
  return {
    pause: await enabled(bar(on).getByRole('button', { name: 'Pause' })),
    next: await enabled(bar(on).getByRole('button', { name: 'Next song' })),
    volume: await enabled(bar(on).getByRole('slider', { name: 'Volume' })),
    seek: (await bar(on).getByRole('slider', { name: 'Position' }).getAttribute('aria-disabled')) === 'false',
    mode: await enabled(on.getByRole('combobox', { name: 'Play mode' })),
    stop: await enabled(on.getByRole('button', { name: 'Stop', exact: true })),
  };
}
const ALL_ON = { pause: true, next: true, volume: true, seek: true, mode: true, stop: true };
const ALL_OFF = { pause: false, next: false, volume: false, seek: false, mode: false, stop: false };

describe('the player while the browser is offline', () => {
  it('stops the clock, turns the controls off with the reason, and comes back online', async () => {
    await page.goto(`${ui.baseUrl}/player/${botId}`);
    await bar(page).getByRole('link', { name: 'Ferry Tone' }).waitFor();
    await expect.poll(() => controlsEnabled(page)).toEqual(ALL_ON);
    const before = await position(page);
    await expect.poll(() => position(page), { timeout: 5000 }).toBeGreaterThan(before);

    await page.context().setOffline(true);
    const reason = bar(page).getByRole('status').filter({ hasText: OFFLINE_REASON });
    await reason.waitFor();
    expect(await reason.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await page.getByText('state unknown while offline').waitFor();
    expect(await controlsEnabled(page)).toEqual(ALL_OFF);
    // The space key is a control too.
    await page.locator('h1').click();
    await page.keyboard.press(' ');
    const frozen = await position(page);
    await page.waitForTimeout(2000);
    expect(await position(page)).toBe(frozen);
    expect((await admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } })).data?.paused).toBe(
      false,
    );
    expect((await seriousViolations(page)).map((v) => v.id)).toEqual([]);
    await screenshot(page, 'browser-offline-01-player');

    const phone = await ui.phonePage(page);
    await phone.goto(`${ui.baseUrl}/player/${botId}`);
    await bar(phone).getByRole('link', { name: 'Ferry Tone' }).waitFor();
    await phone.context().setOffline(true);
    await bar(phone).getByRole('status').filter({ hasText: OFFLINE_REASON }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, 'browser-offline-02-player-phone');
    await phone.context().close();

    await page.context().setOffline(false);
    await expect.poll(() => controlsEnabled(page), { timeout: 10_000 }).toEqual(ALL_ON);
    expect(await bar(page).getByText(OFFLINE_REASON).count()).toBe(0);
    await page.getByText('playing', { exact: true }).waitFor();
    const back = await position(page);
    expect(back).toBeGreaterThanOrEqual(frozen);
    await expect.poll(() => position(page), { timeout: 5000 }).toBeGreaterThan(back);
    await screenshot(page, 'browser-offline-03-back-online');
  }, 40_000);
});

describe('a QR login opened offline', () => {
  it('says the browser is offline instead of an empty code box, and shows the code once online', async () => {
    await page.goto(`${ui.baseUrl}/settings/sources`);
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'NetEase Cloud Music' }) });
    await card.getByText('not logged in').waitFor();
    await page.context().setOffline(true);
    await card.getByRole('button', { name: 'Log in with a QR code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in to NetEase Cloud Music' });
    await dialog
      .getByRole('status')
      .filter({ hasText: 'You’re offline. The code shows here once the connection is back.' })
      .waitFor();
    expect(await dialog.getByRole('img').count()).toBe(0);
    expect(await dialog.locator('.qr-frame').count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Get a new code' }).count()).toBe(0);
    expect(await dialog.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'browser-offline-04-qr');

    await page.context().setOffline(false);
    await dialog.getByRole('img', { name: 'QR code to scan with the phone app' }).waitFor();
    await dialog.getByText('Waiting for the code to be scanned…').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});
