/**
 * `make run` on a fresh data directory serves the API, the Swagger UI page renders every operation in
 * headless Chromium (assets served by the app itself, no network), and a listen stream crosses from the
 * daemon's thread.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../testkit/browser';
import { checkedFetch } from '../../testkit/checked-answers';
import { CookieJar } from '../../testkit/cookie-jar';
import { type RunningService, runService, serviceClient } from '../../testkit/run-service';
import { readLive, readOggPages } from '../helpers/ogg-reader';

const SCREENSHOT_DIR = join(tmpdir(), 'tsmb-screenshots');

describe('make run', () => {
  let dataDir: string;
  let service: RunningService;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tsmb-run-'));
    service = await runService({ DATA_DIR: dataDir });
  }, 90_000);
  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers /api/health and keeps its data under DATA_DIR', async () => {
    const res = await checkedFetch(new Request(`${service.baseUrl}/api/health`));
    expect(await res.json()).toMatchObject({
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    expect(existsSync(join(dataDir, 'bot.db'))).toBe(true);
  });

  it('renders every operation on /api/docs in Chromium', async () => {
    const document = (await (await fetch(`${service.baseUrl}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operationCount = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const external: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(service.baseUrl)) external.push(r.url());
      });
      await page.goto(`${service.baseUrl}/api/docs`);
      await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });
      const paths = await page.locator('.opblock-summary-path').allTextContents();
      expect(paths.length).toBe(operationCount);
      expect(paths.map((p) => p.replace(/\u200b/g, ''))).toContain('/api/health');
      await expect(page.locator('.info .title').textContent()).resolves.toContain(
        'TeamSpeak 3 Music Bot API',
      );
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'api-docs.png'), fullPage: false });
      expect(external).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it("streams a bot's frames from the daemon thread to a listener (silence: the bot is not connected)", async () => {
    const jar = new CookieJar();
    const client = serviceClient(service, { jar });
    await client.POST('/api/session/setup', { body: { username: 'admin', password: 'long enough pw' } });
    const created = await client.POST('/api/bot', {
      body: { name: 'Thread', nickname: 'Thread Bot', serverAddress: '127.0.0.1', serverPort: 9 },
    });
    const botId = created.data!.id;
    const heard = await readLive(
      `${service.baseUrl}/api/player/${botId}/listen`,
      { cookie: jar.header()! },
      1500,
    );
    expect(heard.status).toBe(200);
    const { pages } = readOggPages(heard.bytes);
    expect(pages.every((p) => p.crcOk)).toBe(true);
    expect(pages.slice(2).flatMap((p) => p.packets).length).toBeGreaterThan(25);
  });
});
