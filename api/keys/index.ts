/** /api/keys: create, list and revoke API keys (browser session only). */

import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { asc, eq } from 'drizzle-orm';
import { createKey, deleteKey, listKeys } from '../../openapi/routes/keys';
import { mayDeleteApiKey, mayListAllApiKeys } from '../../shared/access/object-rules';
import { apiKeys, users } from '../../shared/db/schema';
import { say } from '../../shared/i18n/phrases';
import { announceAccountsChanged } from '../access/accounts-changed';
import { API_KEYS_PER_USER, generateApiKey } from '../access/api-key';
import type { KeyUses } from '../access/key-uses';
import { principalOf } from '../access/principal';
import { recordAudit } from '../audit/audit-log';
import type { AppDeps, AppEnv } from '../env';
import { ApiError, validationHook } from '../errors';

type KeyRow = typeof apiKeys.$inferSelect;

const publicKey = (key: KeyRow, username?: string) => ({
  id: key.id,
  userId: key.userId,
  ...(username !== undefined ? { username } : {}),
  name: key.name,
  keyPrefix: key.keyPrefix,
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
});

export function keyRoutes({ db, bus }: AppDeps, keyUses: KeyUses) {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(listKeys, async (c) => {
      const principal = principalOf(c);
      // Uses are written a moment after they happen; the list shows them all.
      await keyUses.flush();
      if (c.req.valid('query').all === '1') {
        if (!mayListAllApiKeys(principal)) throw new ApiError(403, say.adminOnly());
        const rows = await db
          .select({ key: apiKeys, username: users.username })
          .from(apiKeys)
          .innerJoin(users, eq(users.id, apiKeys.userId))
          .orderBy(asc(apiKeys.createdAt));
        return c.json({ keys: rows.map((r) => publicKey(r.key, r.username)) }, 200);
      }
      const rows = await db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.userId, principal.userId))
        .orderBy(asc(apiKeys.createdAt));
      return c.json({ keys: rows.map((k) => publicKey(k)) }, 200);
    })

    .openapi(createKey, async (c) => {
      const principal = principalOf(c);
      const { rawKey, keyHash, keyPrefix } = generateApiKey();
      const row = {
        id: randomUUID(),
        userId: principal.userId,
        name: c.req.valid('json').name,
        keyPrefix,
        keyHash,
        createdAt: new Date(),
        lastUsedAt: null,
      };
      // The cap is checked inside the insert, so concurrent creates cannot overshoot it.
      const inserted = await db.$client.execute({
        sql: `INSERT INTO api_keys (id, user_id, name, key_prefix, key_hash, created_at)
              SELECT ?, ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM api_keys WHERE user_id = ?) < ?`,
        args: [
          row.id,
          row.userId,
          row.name,
          keyPrefix,
          keyHash,
          row.createdAt.getTime(),
          row.userId,
          API_KEYS_PER_USER,
        ],
      });
      if (inserted.rowsAffected !== 1) {
        throw new ApiError(409, `you already have ${API_KEYS_PER_USER} API keys; delete one first`);
      }
      const self = { id: principal.userId, username: principal.username };
      await recordAudit(db, 'api_key.created', self, self);
      return c.json({ key: publicKey(row), rawKey }, 201);
    })

    .openapi(deleteKey, async (c) => {
      const principal = principalOf(c);
      const key = await db.query.apiKeys.findFirst({ where: eq(apiKeys.id, c.req.valid('param').id) });
      // Someone else's key reads as absent: its existence is none of the caller's business.
      if (!key || !mayDeleteApiKey(principal, key)) throw new ApiError(404, 'API key not found');
      await db.delete(apiKeys).where(eq(apiKeys.id, key.id));
      announceAccountsChanged(bus, [key.userId]);
      const owner = await db.query.users.findFirst({ where: eq(users.id, key.userId) });
      await recordAudit(
        db,
        'api_key.deleted',
        { id: principal.userId, username: principal.username },
        owner ? { id: owner.id, username: owner.username } : null,
      );
      return c.json({ success: true as const }, 200);
    });
}
