/**
 * Normal use logs no console error (issue 22 defect 10): a scripted walk through every page signed
 * out, as the admin and as a member, with a bot that has no avatar, a song whose platform has no
 * lyrics, Discover on a platform without shelves and saved queues off. The page asks only for what can
 * exist, so no request fails and nothing is logged.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, login, type Session, setupAdmin } from '../../testkit/accounts';
import { addToneUpload } from '../../testkit/tone-uploads';
import { connectedBot, consoleErrors, signedInPage, startUiHarness, type UiHarness } from './ui-harness';

let ui: UiHarness;
let admin: Session;
let botId = '';

beforeAll(async () => {
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  const song = await addToneUpload(ui.t.db, ui.t.dataDir, 'Walk Tone', [{ frequencyHz: 440, seconds: 120 }]);
  botId = await connectedBot(ui, admin, 'Walker');
  const path = { params: { path: { botId } } };
  expect(
    (await admin.api.POST('/api/player/{botId}/play-song', { ...path, body: { song } })).response.status,
  ).toBe(200);
}, 90_000);

afterAll(() => ui?.close());

/** Opens each path and lets its requests settle. */
async function walk(page: Page, paths: string[]): Promise<void> {
  for (const path of paths) {
    await page.goto(`${ui.baseUrl}${path}`);
    await page.waitForLoadState('networkidle');
  }
}

const SETTINGS = ['bots', 'behaviour', 'sources', 'guest', 'users', 'keys', 'audit', 'account'];

/**
 * Every tab of the music page but those named in `skip`. This sandbox has no internet: a member, who
 * cannot see which platforms this server reaches, would ask their Discover shelves and get the 502 of
 * an outage, which is not a request for something that cannot exist; the admin's Discover knows and asks
 * none.
 */
async function musicTabs(page: Page, skip: string[] = []): Promise<void> {
  await walk(page, ['/music']);
  for (const tab of await page.getByRole('tab').all()) {
    if (skip.includes((await tab.textContent())?.trim() ?? '')) continue;
    await tab.click();
    await page.waitForLoadState('networkidle');
  }
}

describe('a walk through every page', () => {
  it('signed out: the login page and what leads there', async () => {
    const page = await ui.newPage();
    const errors = consoleErrors(page);
    await walk(page, ['/', '/login', '/player', '/music', '/settings/account']);
    expect(errors).toEqual([]);
  });

  it('as the admin: the dashboard, the player and every settings page', async () => {
    const page = await signedInPage(ui, 'owner');
    const errors = consoleErrors(page);
    await walk(page, [
      '/',
      `/player/${botId}`,
      `/bot/${botId}`,
      ...SETTINGS.map((tab) => `/settings/${tab}`),
    ]);
    // The bot editor of a bot without an avatar.
    await walk(page, ['/settings/bots']);
    await page.locator('[aria-expanded]').first().click();
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
  });

  it('as the admin: every music tab and the full-screen lyrics', async () => {
    const page = await signedInPage(ui, 'owner');
    const errors = consoleErrors(page);
    await musicTabs(page);
    await walk(page, [`/player/${botId}`]);
    await page.locator('h1').click();
    await page.keyboard.press('l');
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
  });

  it('as a member granted the bot', async () => {
    const member = await createMember(ui.t, admin, { bots: [botId] });
    await login(ui.t, member.username);
    const page = await signedInPage(ui, member.username);
    const errors = consoleErrors(page);
    await walk(page, ['/', `/player/${botId}`, '/settings/account', '/settings/bots']);
    // Their bot list, without an add button above it, starts under its title with no rule between.
    const first = page.locator('.user-row').first();
    await first.waitFor();
    expect(await first.evaluate((row) => getComputedStyle(row).borderTopStyle)).toBe('none');
    await musicTabs(page, ['Discover']);
    expect(errors).toEqual([]);
  });
});
