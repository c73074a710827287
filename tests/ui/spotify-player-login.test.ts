/**
 * librespot's own login walked in the browser against the real service: the Spotify card says
 * librespot plays with the account's token, "Log in with librespot" starts the fake librespot
 * (tests/fakes/librespot.mjs) on the server and shows Spotify's sign-in address as a link, an address
 * that is not the redirect is refused beside its field, the redirect librespot's sign-in ends on is
 * pasted and the card then says librespot plays with its own login; on a phone (390 px) the same, and
 * "Forget" goes back to the token. Screenshots at 1280 and 390 px; axe-core finds nothing serious.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { FAKE_LIBRESPOT, spotifySettings, storeSpotifySettings, useSpotifyApi } from '../helpers/spotify-api';
import {
  fieldError,
  SCREENSHOT_DIR,
  screenshot,
  seriousViolations,
  signedInPage,
  startUiHarness,
  type UiHarness,
} from './ui-harness';

const spotify = useSpotifyApi();
let ui: UiHarness;
let page: Page;
let admin: Session;

beforeAll(async () => {
  ui = await startUiHarness({ LIBRESPOT_PATH: FAKE_LIBRESPOT });
  admin = await setupAdmin(ui.t, 'owner');
  await storeSpotifySettings(ui.t.db, spotifySettings());
  await spotify.storeLogin(ui.t.db);
  page = await signedInPage(ui, 'owner');
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

const keptFile = () => join(ui.t.config.dataDir, 'spotify', 'librespot', 'credentials.json');
const spotifyCard = (on: Page) =>
  on.getByRole('listitem').filter({ has: on.getByRole('heading', { name: 'Spotify' }) });

/** The card alone as well as the whole page: the card is what changes, legible at its own size. */
async function shots(on: Page, name: string): Promise<void> {
  await screenshot(on, name);
  await spotifyCard(on).screenshot({ path: join(SCREENSHOT_DIR, `${name}-card.png`) });
}

/** The address Spotify sends the sign-in tab to: librespot's loopback redirect with a code. */
async function redirectFrom(card: ReturnType<typeof spotifyCard>, code: string): Promise<string> {
  const signIn = new URL(
    (await card.getByRole('link', { name: 'Open Spotify’s sign-in page' }).getAttribute('href'))!,
  );
  expect(`${signIn.origin}${signIn.pathname}`).toBe('https://accounts.spotify.com/authorize');
  const back = new URL(signIn.searchParams.get('redirect_uri')!);
  back.search = new URLSearchParams({ code, state: signIn.searchParams.get('state')! }).toString();
  return back.toString();
}

describe('librespot’s own login', () => {
  it('is started, refuses an address that is not the redirect beside its field, and is made from the pasted redirect', async () => {
    await page.goto(`${ui.baseUrl}/settings/sources`);
    const card = spotifyCard(page);
    await card.getByText('librespot plays with the connected account’s token.').waitFor();
    await card.getByRole('button', { name: 'Log in with librespot' }).click();
    const address = card.getByRole('textbox', { name: 'Address your browser ended on' });
    await address.waitFor();
    await card.scrollIntoViewIfNeeded();
    await shots(page, 'spotify-player-login-1-started');

    await address.fill('the code was AQB123');
    await card.getByRole('button', { name: 'Finish the librespot login' }).click();
    await expect
      .poll(() => fieldError(address))
      .toMatch(/^Paste the whole address your browser ended on after signing in/);
    await shots(page, 'spotify-player-login-2-refused');
    expect(existsSync(keptFile())).toBe(false);

    await address.fill(await redirectFrom(card, 'AQBfromthebrowser'));
    await card.getByRole('button', { name: 'Finish the librespot login' }).click();
    await card.getByText('librespot plays with its own login, made here.').waitFor();
    await expect(address.count()).resolves.toBe(0);
    expect(existsSync(keptFile())).toBe(true);
    await card.getByRole('button', { name: 'Forget librespot’s login' }).waitFor();
    await shots(page, 'spotify-player-login-3-made');
    expect(await seriousViolations(page)).toEqual([]);
  }, 60_000);

  it('fits a phone: walked again at 390 px, then forgotten', async () => {
    const phone = await ui.phonePage(page);
    await phone.goto(`${ui.baseUrl}/settings/sources`);
    const card = spotifyCard(phone);
    await card.getByText('librespot plays with its own login, made here.').waitFor();
    await card.getByRole('button', { name: 'Log in with librespot' }).click();
    const address = card.getByRole('textbox', { name: 'Address your browser ended on' });
    await address.fill(await redirectFrom(card, 'AQBfromthephone'));
    await card.scrollIntoViewIfNeeded();
    await shots(phone, 'spotify-player-login-4-phone');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await card.getByRole('button', { name: 'Finish the librespot login' }).click();
    await card.getByText('librespot plays with its own login, made here.').waitFor();
    await expect.poll(() => address.count()).toBe(0);

    await card.getByRole('button', { name: 'Forget librespot’s login' }).click();
    await card.getByText('librespot plays with the connected account’s token.').waitFor();
    expect(existsSync(keptFile())).toBe(false);
    await shots(phone, 'spotify-player-login-5-phone-forgotten');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const audit = await admin.api.GET('/api/audit', { params: { query: { limit: 5 } } });
    expect(audit.data?.entries.map((e) => e.action).slice(0, 3)).toEqual([
      'spotify.librespot_logout',
      'spotify.librespot_login',
      'spotify.librespot_login',
    ]);
  }, 60_000);
});
