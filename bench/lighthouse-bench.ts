/**
 * Lighthouse on every page of the browser UI, served by the real app on loopback: first-run setup
 * (before the admin exists), sign-in, then as the admin the dashboard, player, music and each settings
 * tab, and as a guest the dashboard and player. Goals (issue 38): performance >= 95, accessibility and
 * best practices 100. A bench reports: it exits 0 under goal too, printing an "UNDER GOAL" line per
 * page with the audits that fall short and the elements they name.
 *
 * Lighthouse's desktop preset (formFactor desktop, desktop screen emulation) with its default
 * throttling method, `simulate`: the page loads at loopback speed and Lighthouse models the load over
 * its desktop network (40 ms RTT, 10 Mbit/s, no CPU slowdown) from the observed trace. `provided`
 * would score loopback itself, where a page pays nothing for its bytes and round trips, so a heavier
 * bundle or a longer request chain would not show; the simulation counts what a real network charges
 * for them. Both take the main thread's work as observed, so on this shared machine the performance
 * figures (total blocking time above all) still move with its load: the table prints Lighthouse's CPU
 * index per page to tell a busy machine from a heavy page.
 *
 * One Chromium (chrome-launcher, which Lighthouse itself depends on) serves every run; Lighthouse
 * opens a fresh tab per page and clears the origin's storage before each. The session rides as a
 * `cookie` header on every request (`extraHeaders`), so the storage reset cannot sign it out. Each
 * page's full report is kept in test-output/lighthouse/ (open it in the Lighthouse viewer). The api runs
 * with its audio daemon and one bot, as deployed; msw stands in for the music platforms' addresses.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { ensureWebBuild } from '../scripts/build-web';
import { configureLogging } from '../shared/logger';
import { insertBot, setupAdmin } from '../testkit/accounts';
import { CHROMIUM_PATH } from '../testkit/browser';
import { startTestApp } from '../testkit/test-app';

// Request logs would bury the figures.
configureLogging({ level: 'error', pretty: false });

const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
type Category = (typeof CATEGORIES)[number];
/** The categories whose goal is a full score. */
const FULL_SCORE = ['accessibility', 'best-practices'] as const;
const GOALS: Record<Category, number> = { performance: 95, accessibility: 100, 'best-practices': 100 };
const REPORT_DIR = join(process.cwd(), 'test-output', 'lighthouse');
const SETTINGS_TABS = ['bots', 'behaviour', 'sources', 'guest', 'users', 'keys', 'audit', 'account'];

interface PageResult {
  page: string;
  /** Of the run that counts (the better of two where the first was under the performance goal). */
  scores: Record<Category, number>;
  performanceRuns: number[];
  /** Lighthouse's CPU speed index during the run that counts: low means a machine busy with other work. */
  cpuIndex: number;
  /** Per category under its goal: each audit that falls short, with the elements it names. */
  shortfalls: string[];
  /** Failing audits that weigh nothing in the score (accessibility, best practices). */
  unscored: string[];
}

/**
 * What an audit's details name: its failing elements as selectors, else (console errors, requests) the
 * message or URL; at most a few.
 */
function namedItems(audit: Result['audits'][string]): string[] {
  const details = audit.details as { items?: Array<Record<string, unknown>> } | undefined;
  const names = (details?.items ?? []).flatMap((item) => {
    const node = (item.node ?? item) as { type?: string; selector?: string };
    if (node.type === 'node' && node.selector) return [node.selector];
    const text = item.description ?? item.url;
    return typeof text === 'string' ? [text.slice(0, 160)] : [];
  });
  return names.length > 3 ? [...names.slice(0, 3), `+${names.length - 3} more`] : names;
}

/**
 * A category's audits that fall short: below a full score (performance: below 90, Lighthouse's "good").
 * `scored` false: the audits that fail with no weight in the score (accessibility's best-effort checks).
 */
function shortfalls(lhr: Result, category: Category, scored: boolean): string[] {
  return lhr.categories[category]!.auditRefs.flatMap((ref) => {
    const audit = lhr.audits[ref.id]!;
    const short = audit.score !== null && audit.score < (category === 'performance' ? 0.9 : 1);
    if (!short || ref.weight > 0 !== scored) return [];
    const items = namedItems(audit);
    const score = category === 'performance' ? ` ${Math.round(audit.score! * 100)}` : '';
    return [`${ref.id}${score}${items.length ? ` [${items.join(', ')}]` : ''}`];
  });
}

const port = await (async () => {
  await ensureWebBuild();
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  process.on('exit', () => chrome.kill());
  return chrome.port;
})();

/** `/ (admin)` → `dashboard-admin.json`, `/settings/keys (admin)` → `settings-keys-admin.json`. */
const reportName = (page: string) =>
  `${page
    .replace(/^\/(?= )/, 'dashboard')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')}.json`;

async function runLighthouse(page: string, url: string, cookie?: string) {
  const flags: Flags = {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    // Weighs nothing in any score, and costs a second navigation per page.
    skipAudits: ['bf-cache'],
    disableFullPageScreenshot: true,
    ...(cookie ? { extraHeaders: { cookie } } : {}),
  };
  const run = await lighthouse(url, flags, desktopConfig);
  const lhr = run!.lhr;
  if (lhr.runtimeError) throw new Error(`${page}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]!.score ?? 0) * 100)]),
  ) as Record<Category, number>;
  return { lhr, report: run!.report as string, scores };
}

/**
 * A page under its performance goal is measured once more and the better run counts: the simulated
 * timings are built from the main thread's observed work, and a run that shared the 2 cores with other
 * work (Lighthouse's CPU index drops from about 2000 to 300 then) is slow whatever the page does. A
 * page that is slow itself stays under goal in both.
 */
async function audit(page: string, url: string, cookie?: string): Promise<PageResult> {
  const first = await runLighthouse(page, url, cookie);
  const second =
    first.scores.performance < GOALS.performance ? await runLighthouse(page, url, cookie) : undefined;
  const best = second && second.scores.performance > first.scores.performance ? second : first;
  mkdirSync(REPORT_DIR, { recursive: true });
  writeFileSync(join(REPORT_DIR, reportName(page)), best.report);
  const { lhr, scores } = best;
  const under = CATEGORIES.filter((c) => scores[c] < GOALS[c]);
  return {
    page,
    scores,
    performanceRuns: second ? [first.scores.performance, second.scores.performance] : [scores.performance],
    cpuIndex: Math.round(lhr.environment.benchmarkIndex),
    shortfalls: under.map((c) => `${c}: ${shortfalls(lhr, c, true).join('; ') || '(no single audit)'}`),
    unscored: FULL_SCORE.flatMap((c) => shortfalls(lhr, c, false).map((s) => `${c}: ${s}`)),
  };
}

const started = performance.now();
// The api probes the music platforms for Settings → Music platforms and the music home: msw answers
// every platform address at once, as on a server that reaches them, and refuses any other host that is
// not this machine's, so the bench never leaves loopback.
const platforms = setupServer(http.all(/^https:\/\//, () => new HttpResponse(null, { status: 204 })));
platforms.listen({
  onUnhandledRequest: (request, print) => {
    if (new URL(request.url).hostname !== '127.0.0.1') print.error();
  },
});
// With the audio daemon, as deployed: without it the player's requests answer 503 and Chromium logs them.
const t = await startTestApp();
const results: PageResult[] = [];
try {
  const baseUrl = await t.listen();
  results.push(await audit('/setup (first run)', `${baseUrl}/setup`));
  const admin = await setupAdmin(t);
  // A bot, so the player and music pages show one rather than their empty state.
  await insertBot(t, 'Lounge');
  results.push(await audit('/login', `${baseUrl}/login`));
  const adminCookie = admin.jar.header()!;
  const adminPages = ['/', '/player', '/music', ...SETTINGS_TABS.map((tab) => `/settings/${tab}`)];
  for (const path of adminPages)
    results.push(await audit(`${path} (admin)`, `${baseUrl}${path}`, adminCookie));

  await admin.api.POST('/api/bot/settings', { body: { guestMode: { enabled: true, bots: 'all' } } });
  const guest = t.browser();
  const { response } = await guest.api.POST('/api/session/guest');
  if (response.status !== 200) throw new Error(`guest sign-in answered ${response.status}`);
  for (const path of ['/', '/player']) {
    results.push(await audit(`${path} (guest)`, `${baseUrl}${path}`, guest.jar.header()!));
  }
} finally {
  await t.close();
  platforms.close();
}

const header = ['page', 'performance', 'accessibility', 'best practices', 'cpu index'];
const widths = [Math.max(...results.map((r) => r.page.length), header[0]!.length), 11, 13, 14, 9];
const row = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
console.log(
  `Lighthouse ${desktopConfig.settings?.formFactor} preset, simulated throttling; goals ${CATEGORIES.map(
    (c) => `${c} >= ${GOALS[c]}`,
  ).join(', ')}`,
);
console.log('(performance "a, b": under goal at first, measured again; the better counts)');
console.log(row(header));
for (const r of results) {
  const performanceCell =
    r.performanceRuns.length > 1 ? `${r.performanceRuns.join(', ')}` : String(r.scores.performance);
  const others = FULL_SCORE.map((c) => String(r.scores[c]));
  console.log(row([r.page, performanceCell, ...others, String(r.cpuIndex)]));
}
for (const r of results) for (const line of r.shortfalls) console.log(`UNDER GOAL ${r.page} ${line}`);
for (const r of results) for (const line of r.unscored) console.log(`unscored ${r.page} ${line}`);
console.log(
  `${results.length} pages in ${((performance.now() - started) / 1000).toFixed(0)} s; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${availableParallelism()} cores`,
);
process.exit(0);
