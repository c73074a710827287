/** /api/users: accounts, roles, passwords and permissions (admin only). */
import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { asc, eq, inArray, ne } from 'drizzle-orm';
import {
  changeRole,
  createUser,
  deleteUser,
  getPermissions,
  listUsers,
  putPermissions,
  resetPassword,
} from '../../openapi/routes/users';
import { reachableBots, startingPermissions } from '../../shared/access/object-rules';
import { passesEveryCheck } from '../../shared/access/route-access';
import { botGrants, bots, savedQueues, users } from '../../shared/db/schema';
import { CAPABILITIES } from '../../shared/domain/constants';
import { say } from '../../shared/i18n/phrases';
import {
  changeUserRole,
  deleteUserRow,
  findManagedUser,
  findUserByName,
  revokeCredentials,
} from '../access/accounts';
import { announceAccountsChanged } from '../access/accounts-changed';
import { hashPassword } from '../access/password';
import { ownSessionId, type Principal, principalOf } from '../access/principal';
import { recordAudit } from '../audit/audit-log';
import type { AppDeps, AppEnv } from '../env';
import { ApiError, validationHook } from '../errors';

const party = (p: Principal) => ({ id: p.userId, username: p.username });

export function userRoutes(deps: AppDeps) {
  const { db, bus } = deps;
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(listUsers, async (c) => {
      const rows = await db.select().from(users).where(ne(users.role, 'guest')).orderBy(asc(users.createdAt));
      const list = rows.map((u) => ({
        id: u.id,
        username: u.username,
        createdAt: u.createdAt.toISOString(),
        role: u.role as 'admin' | 'member',
      }));
      return c.json({ users: list }, 200);
    })

    .openapi(createUser, async (c) => {
      const { username, password, role = 'member' } = c.req.valid('json');
      if (await findUserByName(db, username)) throw new ApiError(409, say.usernameTaken());
      const user = {
        id: randomUUID(),
        username,
        passwordHash: await hashPassword(password),
        role,
        ...startingPermissions(role),
        createdAt: new Date(),
      };
      try {
        await db.insert(users).values(user);
      } catch (error) {
        // A concurrent create of the same name loses on the unique index.
        if (String(error).includes('UNIQUE')) throw new ApiError(409, say.usernameTaken());
        throw error;
      }
      await recordAudit(db, 'user.created', party(principalOf(c)), user);
      return c.json({ id: user.id, username: user.username, role: user.role }, 201);
    })

    .openapi(deleteUser, async (c) => {
      const user = await findManagedUser(db, c.req.valid('param').id);
      // Sessions, API keys, grants, favorites and the personal music link go by cascade; private
      // saved queues have no foreign key (their owner may be the shared bucket) and go here.
      await deleteUserRow(db, user);
      await db.delete(savedQueues).where(eq(savedQueues.ownerId, user.id));
      announceAccountsChanged(bus, [user.id]);
      await recordAudit(db, 'user.deleted', party(principalOf(c)), user);
      return c.body(null, 204);
    })

    .openapi(resetPassword, async (c) => {
      const principal = principalOf(c);
      const user = await findManagedUser(db, c.req.valid('param').id);
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(c.req.valid('json').newPassword) })
        .where(eq(users.id, user.id));
      // An admin resetting their own password goes on in the session they did it from.
      await revokeCredentials(db, user.id, ownSessionId(principal, user.id));
      announceAccountsChanged(bus, [user.id]);
      await recordAudit(db, 'user.password_reset', party(principal), user);
      return c.body(null, 204);
    })

    .openapi(changeRole, async (c) => {
      const principal = principalOf(c);
      const user = await findManagedUser(db, c.req.valid('param').id);
      const { role } = c.req.valid('json');
      if (role !== user.role) {
        // Sessions stay (SPEC Auth rule 6 does not end them here): the role is read on every request, so
        // the new one applies to the account's very next call, through any session or key.
        await changeUserRole(db, user, role);
        announceAccountsChanged(bus, [user.id]);
        await recordAudit(db, 'user.role_changed', party(principal), user);
      }
      return c.body(null, 204);
    })

    .openapi(getPermissions, async (c) => {
      const user = await findManagedUser(db, c.req.valid('param').id);
      if (passesEveryCheck(user))
        return c.json({ capabilities: [...CAPABILITIES], bots: 'all' as const }, 200);
      const grants = await db
        .select({ botId: botGrants.botId })
        .from(botGrants)
        .where(eq(botGrants.userId, user.id));
      const capabilities = CAPABILITIES.filter((cap) => user.capabilities.includes(cap));
      const bots = reachableBots(user, user.allBots ? 'all' : grants.map((g) => g.botId));
      return c.json({ capabilities, bots }, 200);
    })

    .openapi(putPermissions, async (c) => {
      const user = await findManagedUser(db, c.req.valid('param').id);
      const { capabilities, bots: scope } = c.req.valid('json');
      const botIds = scope === 'all' ? [] : [...new Set(scope)];
      if (botIds.length) {
        const known = await db.select({ id: bots.id }).from(bots).where(inArray(bots.id, botIds));
        const unknown = botIds.filter((id) => !known.some((k) => k.id === id));
        if (unknown.length) throw new ApiError(400, `bots: unknown bot id(s) ${unknown.join(', ')}`);
      }
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ capabilities: [...new Set(capabilities)], allBots: scope === 'all' })
          .where(eq(users.id, user.id));
        await tx.delete(botGrants).where(eq(botGrants.userId, user.id));
        if (botIds.length)
          await tx.insert(botGrants).values(botIds.map((botId) => ({ userId: user.id, botId })));
      });
      announceAccountsChanged(bus, [user.id]);
      await recordAudit(db, 'user.permissions_changed', party(principalOf(c)), user);
      return c.json({ success: true as const }, 200);
    });
}
