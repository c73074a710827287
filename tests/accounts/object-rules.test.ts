/**
 * The object-level rules (shared/access/object-rules.ts, issue 36): who may delete a saved queue or an
 * API key, who may list every account's keys, and what a new account starts with. First the rules themselves; then, on the real app,
 * that the handler answers each case as the rule says when the rule is fed what the page feeds it (the
 * caller's own `GET /api/session/me` and the item as the page's listing shows it). The page's controls
 * call the same functions (SavedQueuesPanel.vue, KeysSettings.vue), so page and server cannot disagree.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type Actor,
  isSharedQueue,
  mayDeleteApiKey,
  mayListAllApiKeys,
  mayUseSavedQueue,
  reachableBots,
  savedQueueOwnersFor,
  startingPermissions,
} from '../../shared/access/object-rules';
import { pageActor } from '../../shared/access/page-access';
import { savedQueues } from '../../shared/db/schema';
import { BASIC_MEMBER_CAPABILITIES, CAPABILITIES, SHARED_QUEUE_OWNER } from '../../shared/domain/constants';
import { createKey, createMember, type Session, withAdminApp } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';

describe('the object rules', () => {
  const member: Actor = { userId: 'm1', role: 'member' };
  const admin: Actor = { userId: 'a1', role: 'admin' };
  const guest: Actor = { userId: 'guest', role: 'guest' };

  it('saved queues: own and shared ones, for admins as for members; another user’s private one never', () => {
    expect(mayUseSavedQueue(member, { ownerId: 'm1' })).toBe(true);
    expect(mayUseSavedQueue(member, { ownerId: SHARED_QUEUE_OWNER })).toBe(true);
    expect(mayUseSavedQueue(member, { ownerId: 'a1' })).toBe(false);
    expect(mayUseSavedQueue(admin, { ownerId: SHARED_QUEUE_OWNER })).toBe(true);
    expect(mayUseSavedQueue(admin, { ownerId: 'm1' })).toBe(false);
  });

  it('saved queues: the owners a caller sees are exactly those whose queues the rule lets them use', () => {
    for (const actor of [member, admin, guest]) {
      expect(savedQueueOwnersFor(actor)).toEqual([actor.userId, SHARED_QUEUE_OWNER]);
      for (const ownerId of ['m1', 'a1', 'guest', SHARED_QUEUE_OWNER]) {
        expect(mayUseSavedQueue(actor, { ownerId })).toBe(savedQueueOwnersFor(actor).includes(ownerId));
      }
    }
    expect(isSharedQueue({ ownerId: SHARED_QUEUE_OWNER })).toBe(true);
    expect(isSharedQueue({ ownerId: 'm1' })).toBe(false);
  });

  it('a new admin starts with every capability and bot, a new member with the basic rights and none', () => {
    expect(startingPermissions('admin')).toEqual({ capabilities: [...CAPABILITIES], allBots: true });
    expect(startingPermissions('member')).toEqual({
      capabilities: [...BASIC_MEMBER_CAPABILITIES],
      allBots: false,
    });
  });

  it('bots: an admin reaches every bot whatever it was granted; others all or their grants', () => {
    expect(reachableBots(admin, ['b1'])).toBe('all');
    expect(reachableBots(member, 'all')).toBe('all');
    expect(reachableBots(member, ['b1', 'b2'])).toEqual(['b1', 'b2']);
    expect(reachableBots(guest, [])).toEqual([]);
  });

  it('API keys: admins list every key and delete any; others only their own', () => {
    expect(mayListAllApiKeys(admin)).toBe(true);
    expect(mayListAllApiKeys(member)).toBe(false);
    expect(mayListAllApiKeys(guest)).toBe(false);
    expect(mayDeleteApiKey(member, { userId: 'm1' })).toBe(true);
    expect(mayDeleteApiKey(member, { userId: 'a1' })).toBe(false);
    expect(mayDeleteApiKey(admin, { userId: 'm1' })).toBe(true);
  });
});

describe('the handlers answer as the rules say, given what the page knows', () => {
  let t: TestApp;
  let admin: Session;
  withAdminApp(async (app, session) => {
    t = app;
    admin = session;
    await admin.api.POST('/api/bot/settings', { body: { savedQueuesEnabled: true } });
  });

  /** The page's actor: built from the caller's own `/me`, as stores/session.ts builds it. */
  async function actorOf(session: Session): Promise<Actor> {
    const { data } = await session.api.GET('/api/session/me');
    return pageActor(data!);
  }

  async function storeQueue(ownerId: string): Promise<string> {
    const id = randomUUID();
    const now = new Date();
    const songs = JSON.stringify([]);
    await t.db
      .insert(savedQueues)
      .values({ id, ownerId, name: `q-${id}`, songs, songCount: 0, createdAt: now, updatedAt: now });
    return id;
  }

  it('deleting a saved queue: own and shared pass (200), another user’s private is absent (404)', async () => {
    const member = await createMember(t, admin);
    const other = await createMember(t, admin);
    const cases: [Session, () => string][] = [
      [member, () => member.id],
      [member, () => SHARED_QUEUE_OWNER],
      [member, () => other.id],
      [admin, () => SHARED_QUEUE_OWNER],
      [admin, () => member.id],
    ];
    for (const [caller, owner] of cases) {
      const ownerId = owner();
      const id = await storeQueue(ownerId);
      const actor = await actorOf(caller);
      const listed = (await caller.api.GET('/api/saved-queues')).data?.queues.find((q) => q.id === id);
      // The page offers delete on a listed queue when the rule allows it; an unlisted one it never shows.
      const pageOffers = listed !== undefined && mayUseSavedQueue(actor, listed);
      expect(pageOffers).toBe(mayUseSavedQueue(actor, { ownerId }));
      const deleted = await caller.api.DELETE('/api/saved-queues/{id}', { params: { path: { id } } });
      expect({ ownerId, status: deleted.response.status }).toEqual({
        ownerId,
        status: pageOffers ? 200 : 404,
      });
    }
  });

  it('listing every key: 200 exactly when the rule allows, else 403', async () => {
    const member = await createMember(t, admin);
    for (const caller of [admin, member]) {
      const allowed = mayListAllApiKeys(await actorOf(caller));
      const listed = await caller.api.GET('/api/keys', { params: { query: { all: '1' } } });
      expect(listed.response.status).toBe(allowed ? 200 : 403);
    }
  });

  it('deleting a key: 200 exactly when the rule allows, else 404', async () => {
    const member = await createMember(t, admin);
    const other = await createMember(t, admin);
    const cases: [Session, Session][] = [
      [member, member],
      [member, other],
      [admin, member],
    ];
    for (const [caller, owner] of cases) {
      await createKey(owner);
      const { data } = await owner.api.GET('/api/keys');
      const key = data!.keys.at(-1)!;
      const allowed = mayDeleteApiKey(await actorOf(caller), key);
      const deleted = await caller.api.DELETE('/api/keys/{id}', { params: { path: { id: key.id } } });
      expect(deleted.response.status).toBe(allowed ? 200 : 404);
    }
    expect(mayDeleteApiKey(await actorOf(member), { userId: other.id })).toBe(false);
  });
});
