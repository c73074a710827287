/**
 * The scaled-out kit as an operator runs it: Debian's nginx with the kit's own nginx.conf (rewritten
 * only for ports, addresses, certificates and the sub-path location), over TLS on a port that is not
 * 443, in front of two api processes and two daemons on nats-server -js and one libSQL file. Chromium
 * reaches it by the kit's server name, so the browser's Origin carries the port as it would for real.
 * Through it: the UI's page and an asset, first-run setup, sign-in, a bot created and started on the
 * TS3 test server, a player command seen live on /ws, and a Swagger try-it call; then all of it again
 * under a sub-path (BASE_PATH=/music-bot behind `location /music-bot/`).
 */
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../../testkit/accounts';
import { launchBrowser } from '../../testkit/browser';
import { freePort } from '../../testkit/free-port';
import { type NatsServerHandle, startNatsServer } from '../../testkit/nats-server';
import { preparedDataDir, type RunningService, runDaemon, runService } from '../../testkit/run-service';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { KIT_SERVER_NAME, nginxInstalled, startKitNginx } from '../helpers/nginx';

const SUB_PATH = '/music-bot';

if (!nginxInstalled())
  console.warn('nginx-kit: skipped, nginx is not installed (make test-deps installs it as root)');

describe.skipIf(!nginxInstalled())('the deploy kit behind its own nginx', () => {
  let nats: NatsServerHandle;
  let voice: Ts3TestServer;
  let dataDir: string;
  let env: Record<string, string>;
  const daemons: RunningService[] = [];
  let browser: Browser;

  beforeAll(async () => {
    voice = await Ts3TestServer.start();
    nats = await startNatsServer({ jetstream: true });
    dataDir = await preparedDataDir('tsmb-kit-');
    env = { DATA_DIR: dataDir, NATS_URL: nats.url, TS3_LICENSE_ROOT: voice.rootPublicKey, TRUST_PROXY: '1' };
    daemons.push(runDaemon(env), runDaemon(env));
    browser = await launchBrowser([`--host-resolver-rules=MAP ${KIT_SERVER_NAME} 127.0.0.1`]);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    for (const daemon of daemons) await daemon.stop();
    await nats?.stop();
    await voice?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Two api processes (BASE_PATH as given) behind the kit's nginx on a free TLS port. */
  async function kitStack(basePath: string) {
    const apiEnv = { ...env, ...(basePath ? { BASE_PATH: basePath } : {}) };
    const apis = await Promise.all(
      [0, 1].map(() => runService(apiEnv, ['node', '--import', 'tsx', 'api/main.ts'])),
    );
    const nginx = await startKitNginx({
      upstreamPorts: apis.map((api) => Number(new URL(api.baseUrl).port)),
      tlsPort: await freePort(),
      httpPort: await freePort(),
      ...(basePath ? { subPath: basePath } : {}),
    });
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return {
      nginx,
      page,
      async close() {
        await context.close();
        await nginx.stop();
        for (const api of apis) await api.stop();
      },
    };
  }

  /** A JSON call from inside the page, as the UI makes it: relative to its base, with its Origin. */
  const call = (page: Page, method: string, path: string, body?: unknown) =>
    page.evaluate(
      async ([method, path, body]) => {
        const res = await fetch(new URL(path, document.baseURI), {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : null };
      },
      [method, path, body] as const,
    );

  /** Opens the UI's page, checking an asset of the bundle arrived; resolves with the path it landed on. */
  async function openUi(page: Page, baseUrl: string): Promise<string> {
    const asset = page.waitForResponse((r) => r.url().includes('/assets/') && r.status() === 200);
    await page.goto(`${baseUrl}/`);
    expect(
      new URL((await asset).url()).pathname.startsWith(
        `${new URL(baseUrl).pathname.replace(/\/$/, '')}/assets/`,
      ),
    ).toBe(true);
    await page.locator('h1').first().waitFor();
    return new URL(page.url()).pathname;
  }

  /** A bot on the TS3 test server, created and started, a volume change seen live over /ws. */
  async function botPlaysThroughKit(page: Page, name: string) {
    const created = await call(page, 'POST', 'api/bot', {
      name,
      nickname: `DJ ${name}`,
      serverAddress: '127.0.0.1',
      serverPort: voice.port,
    });
    expect(created.status).toBe(201);
    const botId = created.body.id as string;
    let started = { status: 0, body: null as unknown };
    // A freshly created bot is claimed by one of the daemons within a lease round.
    for (let i = 0; i < 40 && started.status !== 200; i++) {
      started = await call(page, 'POST', `api/bot/${botId}/start`);
      if (started.status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(started, JSON.stringify(started.body)).toMatchObject({ status: 200, body: { connected: true } });

    await page.evaluate(() => {
      const socketUrl = new URL('ws', document.baseURI).href.replace(/^http/, 'ws');
      const messages: unknown[] = [];
      (window as unknown as { kitMessages: unknown[] }).kitMessages = messages;
      new WebSocket(socketUrl).onmessage = (event) => messages.push(JSON.parse(String(event.data)));
    });
    await page.waitForFunction(() =>
      (window as unknown as { kitMessages: { type: string }[] }).kitMessages.some((m) => m.type === 'hello'),
    );
    expect((await call(page, 'POST', `api/player/${botId}/volume`, { volume: 37 })).status).toBe(200);
    await page.waitForFunction(
      (id) =>
        (
          window as unknown as { kitMessages: { type: string; bot?: { id: string; volume: number } }[] }
        ).kitMessages.some((m) => m.type === 'status' && m.bot?.id === id && m.bot.volume === 37),
      botId,
    );
  }

  /** The Swagger page loads its script and a try-it call of GET /api/health answers 200. */
  async function swaggerTryIt(page: Page, baseUrl: string) {
    await page.goto(`${baseUrl}/api/docs`);
    const health = page.locator('#operations-System-get_api_health');
    // Swagger UI builds 100-odd operations from the document first: seconds on a busy machine.
    await health.waitFor({ timeout: 60_000 });
    await health.locator('.opblock-summary-control').click();
    // The page opens with try-it on (api/docs/index.ts): Execute is there at once.
    await health.getByRole('button', { name: 'Execute' }).click();
    await expect
      .poll(() => health.locator('.live-responses-table tbody .response-col_status').first().textContent())
      .toContain('200');
    expect(await health.locator('.request-url').textContent()).toContain(`${baseUrl}/api/health`);
  }

  /**
   * Runs `steps` against a fresh kit stack, then takes it down; a failure carries nginx's error log and
   * leaves a screenshot in test-output/.
   */
  async function throughKit(basePath: string, steps: (page: Page, baseUrl: string) => Promise<void>) {
    const stack = await kitStack(basePath);
    try {
      await steps(stack.page, stack.nginx.baseUrl);
    } catch (error) {
      await stack.page.screenshot({ path: `test-output/nginx-kit${basePath.replace('/', '-')}.png` });
      throw new Error(`${(error as Error).message}\nnginx:\n${stack.nginx.errorLog()}`);
    } finally {
      await stack.close();
    }
  }

  const signIn = async (page: Page) =>
    expect(
      (await call(page, 'POST', 'api/session/login', { username: 'admin', password: PASSWORD })).status,
    ).toBe(200);

  it(
    'serves setup, sign-in, a bot, /ws and Swagger over TLS on a non-default port',
    () =>
      throughKit('', async (page, baseUrl) => {
        expect(new URL(baseUrl).port).not.toBe('443');
        expect(await openUi(page, baseUrl)).toBe('/setup');
        expect(
          (await call(page, 'POST', 'api/session/setup', { username: 'admin', password: PASSWORD })).status,
        ).toBe(201);
        expect((await call(page, 'POST', 'api/session/logout')).status).toBe(204);
        await signIn(page);
        await botPlaysThroughKit(page, 'Kit');
        await swaggerTryIt(page, baseUrl);
      }),
    120_000,
  );

  it(
    'serves the same under a sub-path',
    () =>
      throughKit(SUB_PATH, async (page, baseUrl) => {
        expect(await openUi(page, baseUrl)).toBe(`${SUB_PATH}/login`);
        await signIn(page);
        await botPlaysThroughKit(page, 'Sub');
        await swaggerTryIt(page, baseUrl);
      }),
    120_000,
  );
});
