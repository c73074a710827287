/**
 * The set-up of the browser tests: the UI bundle (built if stale), the real service on a loopback port
 * with its daemon, a TS3 test server for the bots to join, headless Chromium, and helpers to save a
 * screenshot per step (test-output/ui/, gitignored) and to run an axe-core scan inside a page.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { parseLicenseRoot } from '../../daemon/ts3';
import { ensureWebBuild } from '../../scripts/build-web';
import { SETUP_WIZARD_COOKIE } from '../../shared/setup-wizard';
import { PASSWORD, type Session } from '../../testkit/accounts';
import { launchBrowser } from '../../testkit/browser';
import { startTestApp, type TestApp } from '../../testkit/test-app';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';

export const SCREENSHOT_DIR = join(process.cwd(), 'test-output', 'ui');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface UiHarness {
  t: TestApp;
  server: Ts3TestServer;
  baseUrl: string;
  browser: Browser;
  /** A fresh browser profile (its own cookies) with one page. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** A phone-sized touch page (390×844) signed in as `from` is. */
  phonePage(from: Page): Promise<Page>;
  close(): Promise<void>;
}

export async function startUiHarness(env: Record<string, string> = {}): Promise<UiHarness> {
  await ensureWebBuild();
  const server = await Ts3TestServer.start();
  const root = parseLicenseRoot(server.rootPublicKey);
  if (!root.ok) throw new Error(root.error);
  const t = await startTestApp({ ts3: { licenseRoot: root.value }, env });
  const baseUrl = await t.listen();
  const browser = await launchBrowser();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const newPage = async (options: BrowserContextOptions = {}) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, ...options });
    return context.newPage();
  };
  return {
    t,
    server,
    baseUrl,
    browser,
    newPage,
    async phonePage(from) {
      const phone = await newPage({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        storageState: await from.context().storageState(),
      });
      phone.setDefaultTimeout(8000);
      return phone;
    },
    async close() {
      await browser.close();
      await t.close();
      await server.close();
    },
  };
}

/** A bot on the TS3 test server, created and connected through the admin's API; its id. */
export async function connectedBot(ui: UiHarness, admin: Session, name: string): Promise<string> {
  const bot = await admin.api.POST('/api/bot', {
    body: { name, nickname: `DJ ${name}`, serverAddress: '127.0.0.1', serverPort: ui.server.port },
  });
  expect(bot.response.status).toBe(201);
  const started = await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: bot.data!.id } } });
  expect(started.response.status).toBe(200);
  return bot.data!.id;
}

/** A fresh page signed in through the login form, showing the dashboard. */
export async function signedInPage(ui: UiHarness, username: string): Promise<Page> {
  const page = await ui.newPage();
  page.setDefaultTimeout(8000);
  await page.goto(`${ui.baseUrl}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Bots' }).waitFor();
  return page;
}

/**
 * Lets `page` open the wizard's later steps after setup, as the browser that created the admin can
 * while it walks the wizard (shared/setup-wizard.ts); without it `/setup` leads to the dashboard.
 */
export const resumeSetupWizard = (ui: UiHarness, page: Page) =>
  page.context().addCookies([{ name: SETUP_WIZARD_COOKIE, value: '1', url: ui.baseUrl }]);

/**
 * The error a form says beside `field`: the text its `aria-describedby` points at while it is marked
 * `aria-invalid`, else null.
 */
export async function fieldError(field: Locator): Promise<string | null> {
  if ((await field.getAttribute('aria-invalid')) !== 'true') return null;
  const described = await field.getAttribute('aria-describedby');
  return described ? field.page().locator(`[id="${described}"]`).textContent() : null;
}

export const hasFocus = (field: Locator) => field.evaluate((element) => element === document.activeElement);

/**
 * Every console error, uncaught exception and failed request (4xx/5xx) of `page` from now on, each with
 * the page it happened on: normal use logs none (issue 22 defect 10).
 */
export function consoleErrors(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') seen.push(`${page.url()}: ${message.text()} ${message.location().url}`);
  });
  page.on('pageerror', (error) => seen.push(`${page.url()}: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) seen.push(`${page.url()}: ${response.status()} ${response.url()}`);
  });
  return seen;
}

/**
 * The platforms' picture hosts in the fixtures (NetEase's CDN, the Jellyfin server), whose covers the
 * browser loads straight from them: this sandbox cannot resolve them.
 */
const COVER_HOSTS = /^https:\/\/(p\d\.music\.126\.net|media\.example\.test)\//;

/** Answers every cover the browser asks those hosts for with a square of a colour of its own. */
export async function standInCovers(context: BrowserContext) {
  await context.route(COVER_HOSTS, (route) => {
    const hue = [...route.request().url()].reduce((sum, c) => (sum * 31 + c.charCodeAt(0)) % 360, 0);
    const body = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 70% 55%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360} 60% 30%)"/></linearGradient></defs><rect width="300" height="300" fill="url(#g)"/></svg>`;
    return route.fulfill({ contentType: 'image/svg+xml', body });
  });
}

export const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core in the page and returns every violation it finds, of any impact. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map((n) => ({ target: n.target })),
    }));
  });
}

/** Runs axe-core in the page and returns its serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  return (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
