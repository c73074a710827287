/**
 * A platform's refusal of a common kind reads in the page's language: NetEase answering a search with
 * its rate limit (code 405, "操作频繁") is said in 中文 with the platform's Chinese name, no English
 * sentence on the screen, and an admin can still open what the platform said, as it wrote it, under
 * 原始错误信息（未翻译） ("original error message, untranslated").
 * axe-core finds no violation of any impact.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupAdmin } from '../../testkit/accounts';
import { useNeteaseApi } from '../helpers/netease-api';
import { axeViolations, screenshot, signedInPage, startUiHarness, type UiHarness } from './ui-harness';

const netease = useNeteaseApi();

let ui: UiHarness;
let page: Page;

beforeAll(async () => {
  ui = await startUiHarness();
  await setupAdmin(ui.t, 'owner');
  page = await signedInPage(ui, 'owner');
  await page.evaluate(() => localStorage.setItem('tsmb.locale', 'zh'));
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

describe('a refusal in 中文', () => {
  it('words NetEase limiting the requests in Chinese, its own words under the details', async () => {
    netease.answer('/eapi/cloudsearch/pc', { code: 405, message: '操作频繁' });
    await page.goto(`${ui.baseUrl}/music`);
    await page.getByRole('tab', { name: '搜索' }).click();
    await page.getByLabel('搜索歌曲、专辑或歌单').fill('paper');
    await page.getByLabel('音乐源').selectOption('music_a');
    await page.getByRole('button', { name: '搜索', exact: true }).click();
    const said = page.getByText('网易云音乐正在限制本服务器的请求频率，请一分钟后再试。');
    await said.first().waitFor();
    // What is shown (the details, still closed, aside) has no English of the platform's.
    expect(await page.locator('body').innerText()).not.toMatch(/limiting how often|NetEase Cloud Music/);
    await page.getByText('原始错误信息（未翻译）').first().click();
    await page
      .getByText('music_a: NetEase Cloud Music is limiting how often we ask', { exact: false })
      .first()
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'platform-refusal-01-zh-rate-limited');
  });
});
