/**
 * The page offers what the server allows (issue 36), in Chromium against the real service: a member
 * sees "delete" on a shared saved queue, as on their own, and deleting it through the page works (the
 * server's rule, shared/access/object-rules.ts); "every user's keys" is offered to admins only.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedQueues } from '../../shared/db/schema';
import { SHARED_QUEUE_OWNER } from '../../shared/domain/constants';
import { createMember, type Session, setupAdmin } from '../../testkit/accounts';
import { signedInPage, startUiHarness, type UiHarness } from './ui-harness';

let ui: UiHarness;
let admin: Session;
let member: Session;
let memberPage: Page;

async function storeQueue(ownerId: string, name: string): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await ui.t.db
    .insert(savedQueues)
    .values({ id, ownerId, name, songs: '[]', songCount: 0, createdAt: now, updatedAt: now });
  return id;
}

beforeAll(async () => {
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  await admin.api.POST('/api/bot/settings', { body: { savedQueuesEnabled: true } });
  member = await createMember(ui.t, admin);
  memberPage = await signedInPage(ui, member.username);
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

describe('the page offers what the server allows', () => {
  it('a member may delete a shared saved queue from the page', async () => {
    const shared = await storeQueue(SHARED_QUEUE_OWNER, 'Party mix');
    await storeQueue(member.id, 'Mine');
    await memberPage.goto(`${ui.baseUrl}/music`);
    await memberPage.getByRole('tab', { name: 'Saved queues' }).click();
    await memberPage.getByRole('button', { name: 'Delete Mine' }).waitFor();
    await memberPage.getByRole('button', { name: 'Delete Party mix' }).click();
    await memberPage
      .getByRole('dialog', { name: 'Delete Party mix?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await memberPage.getByRole('button', { name: 'Delete Party mix' }).waitFor({ state: 'detached' });
    expect(await ui.t.db.select().from(savedQueues).where(eq(savedQueues.id, shared))).toEqual([]);
  });

  it('offers every user’s keys to admins only', async () => {
    await memberPage.goto(`${ui.baseUrl}/settings/keys`);
    await memberPage.getByRole('button', { name: 'Create a key' }).waitFor();
    expect(await memberPage.getByLabel('Show every user’s keys').count()).toBe(0);
    const adminPage = await signedInPage(ui, 'owner');
    await adminPage.goto(`${ui.baseUrl}/settings/keys`);
    await adminPage.getByLabel('Show every user’s keys').waitFor();
  });
});
