/**
 * SPEC Events 2: when a bot is removed, the socket broadcasts `botRemoved` and clients drop that bot.
 * A dashboard open in Chromium on two bots; one is deleted through the API; the page drops it from its
 * list on the push alone: no reload, no second socket (a reconnect's `hello` would also drop it), and
 * the other bot stays.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { screenshot, signedInPage, startUiHarness, type UiHarness } from './ui-harness';

let ui: UiHarness;
let admin: Session;
let page: Page;
let drop = '';
/** Text frames the watched page received over its sockets, and how many sockets it opened. */
const frames: string[] = [];
let socketsOpened = 0;

async function createBot(name: string): Promise<string> {
  const created = await admin.api.POST('/api/bot', {
    body: { name, nickname: `DJ ${name}`, serverAddress: '127.0.0.1', serverPort: ui.server.port },
  });
  expect(created.response.status).toBe(201);
  return created.data!.id;
}

beforeAll(async () => {
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  await createBot('Keeper');
  drop = await createBot('Goner');
  const signedIn = await signedInPage(ui, 'owner');
  // A second page of the same browser, watched from before it opens its socket.
  page = await signedIn.context().newPage();
  page.setDefaultTimeout(8000);
  page.on('websocket', (socket) => {
    socketsOpened++;
    socket.on('framereceived', ({ payload }) => {
      if (typeof payload === 'string') frames.push(payload);
    });
  });
  await page.goto(ui.baseUrl);
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

it('drops a deleted bot from an open page on the botRemoved push', async () => {
  const list = page.getByRole('list', { name: 'Bots' });
  const card = (name: string) => list.getByRole('heading', { name, level: 2 });
  await card('Keeper').waitFor();
  await card('Goner').waitFor();
  await expect.poll(() => frames.some((frame) => JSON.parse(frame).type === 'hello')).toBe(true);
  // Gone with a reload, this mark would show the page was loaded again.
  await page.evaluate(() => {
    (window as unknown as { stillTheSamePage: boolean }).stillTheSamePage = true;
  });

  const deleted = await admin.api.DELETE('/api/bot/{id}', { params: { path: { id: drop } } });
  expect(deleted.response.status).toBe(204);

  await card('Goner').waitFor({ state: 'detached' });
  await card('Keeper').waitFor();
  expect(frames.map((frame) => JSON.parse(frame))).toContainEqual({ type: 'botRemoved', botId: drop });
  expect(socketsOpened).toBe(1);
  expect(
    await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage),
  ).toBe(true);
  await screenshot(page, 'bot-removed-01-dropped');
});
