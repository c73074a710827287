/**
 * What the fuzz suite's requests are about: a test app with guest mode on, saved queues on and the
 * Spotify and Jellyfin settings holding secrets; every kind of caller (principals.ts); a bot for the
 * routes to act on and a spare one to delete; an account to manage; and the member's private
 * favorite, saved queue and spare key, each with a unique name no one else may ever be shown. Every
 * secret involved is registered with the suite's scanner.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { savedQueues, uploads } from '../../shared/db/schema';
import { insertBot, PASSWORD, setupAdmin } from '../../testkit/accounts';
import { TEST_ORIGIN, type TestApp } from '../../testkit/test-app';
import type { Operation } from './fuzz-inputs';
import { createPrincipals, credentialHeaders, type PrincipalSet } from './principals';
import { type SecretScanner, sessionIdsIn } from './secret-scan';

/** Values generated bodies give fields that hold secrets, so any echo of them is caught. */
const FIELD_SECRETS = {
  password: `FuzzPassword-${randomUUID()}`,
  cookie: `MUSIC_U=fuzzcookie${randomUUID().replaceAll('-', '')}`,
  apiKey: `fuzzapikey${randomUUID().replaceAll('-', '')}`,
  clientSecret: `fuzz-client-secret-${randomUUID()}`,
};
const STORED_SECRETS = {
  spotifyClientSecret: `stored-spotify-secret-${randomUUID()}`,
  jellyfinPassword: `stored-jellyfin-password-${randomUUID()}`,
  victimPassword: `victim-password-${randomUUID()}`,
};

/** The value a generated body gives a secret-holding string field, by its name. */
export function fieldSecret(name: string): string | undefined {
  if (/password/i.test(name)) return FIELD_SECRETS.password;
  if (name === 'cookie') return FIELD_SECRETS.cookie;
  if (name === 'apiKey') return FIELD_SECRETS.apiKey;
  if (name === 'clientSecret') return FIELD_SECRETS.clientSecret;
  return undefined;
}

export interface FuzzWorld {
  principals: PrincipalSet;
  botId: string;
  victimBotId: string;
  victimUserId: string;
  favoriteId: string;
  savedQueueId: string;
  uploadId: string;
  /** Unique names of the member's private favorite, saved queue and key. */
  privateMarkers: { favorite: string; queue: string; key: string };
}

export async function createFuzzWorld(t: TestApp, scanner: SecretScanner): Promise<FuzzWorld> {
  const admin = await setupAdmin(t);
  const botId = await insertBot(t);
  const victimBotId = await insertBot(t);
  const settings = await admin.api.POST('/api/bot/settings', {
    body: {
      guestMode: { enabled: true, bots: [botId] },
      savedQueuesEnabled: true,
      spotify: {
        enabled: true,
        clientId: 'fuzz-client-id',
        clientSecret: STORED_SECRETS.spotifyClientSecret,
      },
      jellyfin: {
        serverUrl: 'http://127.0.0.1:9',
        authMode: 'password',
        username: 'fuzz',
        password: STORED_SECRETS.jellyfinPassword,
      },
    },
  });
  expect(settings.response.status).toBe(200);
  const principals = await createPrincipals(t, admin, [botId]);
  const victim = await admin.api.POST('/api/users', {
    body: { username: 'victim', password: STORED_SECRETS.victimPassword },
  });
  expect(victim.response.status).toBe(201);

  const owner = credentialHeaders(principals.owner);
  const favoriteName = `PRIVATE-FAV-${randomUUID()}`;
  const favorite = await t.app.fetch(
    new Request(`${TEST_ORIGIN}/api/favorites`, {
      method: 'POST',
      headers: { ...owner, 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'music_a', playlistId: 'fuzz-playlist', name: favoriteName }),
    }),
  );
  expect(favorite.status).toBe(200);
  const listed = await t.app.fetch(new Request(`${TEST_ORIGIN}/api/favorites`, { headers: owner }));
  const favoriteId = ((await listed.json()) as { favorites: { id: string }[] }).favorites[0]!.id;
  const queueName = `PRIVATE-QUEUE-${randomUUID()}`;
  const savedQueueId = randomUUID();
  const now = new Date();
  await t.db.insert(savedQueues).values({
    id: savedQueueId,
    ownerId: principals.owner.userId!,
    name: queueName,
    songs: '[]',
    songCount: 0,
    createdAt: now,
    updatedAt: now,
  });
  const uploadId = randomUUID();
  await t.db.insert(uploads).values({
    id: uploadId,
    originalName: 'fixture.mp3',
    storedName: `${uploadId}.mp3`,
    sizeBytes: 1,
    coverType: 'image/png',
    coverData: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
    createdAt: now,
  });

  for (const [label, value] of Object.entries({ ...FIELD_SECRETS, ...STORED_SECRETS }))
    scanner.register(label, value);
  scanner.register('the test password', PASSWORD);
  scanner.register('SERVICE_TOKEN', t.config.serviceToken);
  for (const key of principals.rawKeys) scanner.register('an API key', key);
  for (const p of principals.all)
    for (const id of sessionIdsIn(credentialHeaders(p).cookie)) scanner.register('a session id', id);

  return {
    principals,
    botId,
    victimBotId,
    victimUserId: victim.data!.id,
    favoriteId,
    savedQueueId,
    uploadId,
    privateMarkers: { favorite: favoriteName, queue: queueName, key: principals.ownerSpareKey.name },
  };
}

/** The valid value of a path parameter: the fixture each route is about. */
export function pathValue(world: FuzzWorld, op: Operation, name: string): string {
  if (name === 'botId') return world.botId;
  if (name === 'index') return '0';
  if (op.path.startsWith('/api/bot/')) {
    // Starting would dial a voice server; a bot id no one knows tests the route without that.
    if (op.path.endsWith('/start')) return 'no-such-bot';
    return op.method === 'DELETE' && op.path === '/api/bot/{id}' ? world.victimBotId : world.botId;
  }
  if (op.path.startsWith('/api/users/')) return world.victimUserId;
  if (op.path.startsWith('/api/keys/')) return world.principals.ownerSpareKey.id;
  if (op.path.startsWith('/api/favorites/')) return world.favoriteId;
  if (op.path.startsWith('/api/saved-queues/')) return world.savedQueueId;
  if (op.path.startsWith('/api/music/local/cover/')) return world.uploadId;
  return 'some-id';
}
