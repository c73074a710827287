/**
 * The browser UI: the production bundle's size (gzip, as served over the wire) and the time to first
 * render on loopback in headless Chromium, signed out (/login) and signed in (the dashboard), median of
 * fresh browser profiles (cold cache). Goals: under 300 kB gzip, under 1 s to the first render.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { WEB_DIST_DIR } from '../api/ui-bundle/static';
import { ensureWebBuild } from '../scripts/build-web';
import { configureLogging } from '../shared/logger';
import { setupAdmin } from '../testkit/accounts';
import { launchBrowser } from '../testkit/browser';
import { startTestApp } from '../testkit/test-app';

const RUNS = 7;

// Request logs would bury the figures.
configureLogging({ level: 'error', pretty: false });
const BUNDLE_GOAL_KB = 300;
const RENDER_GOAL_MS = 1000;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}
const gzipKb = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length / 1024;

/** What the first page load fetches: index.html and the entry script and styles it names. */
function initialLoadKb(): number {
  const html = readFileSync(join(WEB_DIST_DIR, 'index.html'), 'utf8');
  const referenced = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
  return [join(WEB_DIST_DIR, 'index.html'), ...referenced.map((p) => join(WEB_DIST_DIR, p))].reduce(
    (sum, path) => sum + gzipKb(path),
    0,
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Milliseconds from navigation to the page's heading, and Chromium's first contentful paint. */
async function firstRender(browser: Browser, url: string, cookie?: { name: string; value: string }) {
  const context = await browser.newContext();
  if (cookie) await context.addCookies([{ ...cookie, url }]);
  const page = await context.newPage();
  const started = performance.now();
  await page.goto(url);
  await page.locator('h1').first().waitFor();
  const headingMs = performance.now() - started;
  const fcpMs = await page.evaluate(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
  );
  await context.close();
  return { headingMs, fcpMs };
}

await ensureWebBuild();
const jsCss = files(WEB_DIST_DIR).filter((f) => /\.(js|css)$/.test(f));
const totalKb = jsCss.reduce((sum, f) => sum + gzipKb(f), 0);
const initialKb = initialLoadKb();

const t = await startTestApp({ withDaemon: false });
const baseUrl = await t.listen();
const admin = await setupAdmin(t);
const [name, value] = admin.jar.header()!.split(';')[0]!.split('=') as [string, string];
const browser = await launchBrowser();
try {
  // One warm-up load: the first Chromium page pays for its own start.
  await firstRender(browser, `${baseUrl}/login`);
  const results: Record<string, { headingMs: number; fcpMs: number }[]> = { login: [], dashboard: [] };
  for (let i = 0; i < RUNS; i++) {
    results.login!.push(await firstRender(browser, `${baseUrl}/login`));
    results.dashboard!.push(await firstRender(browser, `${baseUrl}/`, { name, value }));
  }
  console.log(
    `bundle (gzip): all JS+CSS ${totalKb.toFixed(1)} kB, first load ${initialKb.toFixed(1)} kB (goal < ${BUNDLE_GOAL_KB} kB)`,
  );
  for (const [page, runs] of Object.entries(results)) {
    const heading = median(runs.map((r) => r.headingMs));
    const fcp = median(runs.map((r) => r.fcpMs));
    console.log(
      `first render ${page.padEnd(9)} median of ${RUNS}: heading shown ${heading.toFixed(0)} ms, first contentful paint ${fcp.toFixed(0)} ms (goal < ${RENDER_GOAL_MS} ms)`,
    );
  }
} finally {
  await browser.close();
  await t.close();
}
