/**
 * The browser UI on a server that cannot reach the internet: every platform's address is a network
 * error (msw, in the api's process where the probes are made). Settings → Music platforms says per
 * enabled platform, in English and in Chinese, that it cannot be reached; the music home says it once
 * instead of an error per shelf. axe-core finds nothing serious on either.
 */
import { HttpResponse, http } from 'msw';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ENABLED_PROVIDERS, PLATFORM_REGISTRY, PLATFORMS } from '../../shared/domain/platforms';
import { setupAdmin } from '../../testkit/accounts';
import { useMswServer } from '../helpers/msw-server';
import { screenshot, seriousViolations, signedInPage, startUiHarness, type UiHarness } from './ui-harness';

useMswServer(
  ...PLATFORMS.flatMap((platform) => {
    const { probeUrl } = PLATFORM_REGISTRY[platform] as { probeUrl?: string };
    return probeUrl ? [http.head(probeUrl, () => HttpResponse.error())] : [];
  }),
);

/** What the English UI calls the platforms enabled by default (all on the internet). */
const LABELS = ['NetEase Cloud Music', 'QQ Music', 'Bilibili', 'YouTube', 'Kugou Music'];

let ui: UiHarness;
let page: Page;

beforeAll(async () => {
  ui = await startUiHarness();
  await setupAdmin(ui.t, 'owner');
  page = await signedInPage(ui, 'owner');
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

const panel = () => page.getByRole('region', { name: 'Can this server reach them?' });

describe('platform status', () => {
  it('Settings says of each enabled platform that this server cannot reach it, in English and Chinese', async () => {
    // Every platform on by default (internet radio, with no service of its own to check, is opt-in).
    expect(DEFAULT_ENABLED_PROVIDERS).toHaveLength(LABELS.length);
    await page.goto(`${ui.baseUrl}/settings/sources`);
    const list = panel().getByRole('list', { name: 'Can this server reach them?' });
    const row = (label: string, status: string) =>
      list.getByRole('listitem').filter({ hasText: label }).filter({ hasText: status });
    for (const label of LABELS) await row(label, 'Cannot be reached from this server').waitFor();
    // Uploaded files (on by default) are on this server.
    await row('Uploaded files', 'Reachable from this server').waitFor();
    expect(await list.getByRole('listitem').count()).toBe(LABELS.length + 1);
    await screenshot(page, 'source-status-01-settings');
    expect(await seriousViolations(page)).toEqual([]);

    await page.evaluate(() => localStorage.setItem('tsmb.locale', 'zh'));
    await page.reload();
    const zh = page.getByRole('region', { name: '本服务器能访问它们吗？' });
    await zh
      .getByRole('listitem')
      .filter({ hasText: '网易云音乐' })
      .filter({ hasText: '本服务器无法访问' })
      .waitFor();
    await page.evaluate(() => localStorage.setItem('tsmb.locale', 'en'));
  }, 40_000);

  it('the music home says once that this server cannot reach the internet, with no shelf errors', async () => {
    await page.goto(`${ui.baseUrl}/music`);
    await page.getByRole('tab', { name: 'Discover' }).click();
    await page.getByRole('status').filter({ hasText: 'This server cannot reach the internet' }).waitFor();
    expect(await page.getByText('This server cannot reach the internet').count()).toBe(1);
    // What this server holds itself (the uploads' albums) may still show; no platform's shelf does.
    expect(await page.locator('.source-home:not([aria-labelledby="home-local"]) .home-section').count()).toBe(
      0,
    );
    expect(await page.getByRole('region', { name: 'NetEase Cloud Music', exact: true }).count()).toBe(0);
    await screenshot(page, 'source-status-02-discover');
    expect(await seriousViolations(page)).toEqual([]);
  }, 30_000);
});
