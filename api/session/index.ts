/** Session routes: first-run setup, login, guest sessions, logout, me, change-password. */

import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import {
  getMe,
  getNeedsSetup,
  postChangePassword,
  postGuest,
  postLogin,
  postLogout,
  postSetup,
} from '../../openapi/routes/session';
import { reachableBots } from '../../shared/access/object-rules';
import { hasCapability } from '../../shared/access/route-access';
import { users } from '../../shared/db/schema';
import { CAPABILITIES, GUEST_PRINCIPAL_ID } from '../../shared/domain/constants';
import { say } from '../../shared/i18n/phrases';
import { readGuestMode } from '../../shared/settings/guest-mode';
import { adminCount, findUserByName, revokeCredentials } from '../access/accounts';
import { announceAccountsChanged } from '../access/accounts-changed';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../access/password';
import { ownSessionId, principalOf } from '../access/principal';
import { clientAddress, consumeAttempt, LOGIN_LIMIT, SETUP_LIMIT } from '../access/rate-limit';
import type { SessionStores } from '../access/sessions';
import { recordAudit } from '../audit/audit-log';
import type { AppDeps, AppEnv } from '../env';
import { ApiError, validationHook } from '../errors';
import { sessionRotation } from './rotation';

export function sessionRoutes(deps: AppDeps, stores: SessionStores) {
  const { db, bus, config } = deps;
  const rotation = sessionRotation(deps, stores);

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(getNeedsSetup, async (c) => c.json({ needsSetup: (await adminCount(db)) === 0 }, 200))

    .openapi(postSetup, async (c) => {
      await consumeAttempt(db, SETUP_LIMIT, clientAddress(c, config));
      const { username, password } = c.req.valid('json');
      const user = { id: randomUUID(), username, passwordHash: await hashPassword(password) };
      // One statement inserts only while no admin exists, so of concurrent setups exactly one wins,
      // on a local file and on a shared libSQL server alike.
      const inserted = await db.$client.execute({
        sql: `INSERT INTO users (id, username, password_hash, role, capabilities, all_bots, created_at)
              SELECT ?, ?, ?, 'admin', ?, 1, ? WHERE NOT EXISTS (SELECT 1 FROM users WHERE role = 'admin')`,
        args: [user.id, user.username, user.passwordHash, JSON.stringify(CAPABILITIES), Date.now()],
      });
      if (inserted.rowsAffected !== 1) throw new ApiError(409, 'setup is already done');
      await recordAudit(db, 'admin.first_created', user, user);
      await rotation.endCarried(c, ['member', 'guest'], 'member');
      await rotation.start(c, 'member', user.id);
      return c.json({ user: { id: user.id, username: user.username, role: 'admin' as const } }, 201);
    })

    .openapi(postLogin, async (c) => {
      await consumeAttempt(db, LOGIN_LIMIT, clientAddress(c, config));
      const { username, password } = c.req.valid('json');
      const user = await findUserByName(db, username);
      const hash = user?.passwordHash ?? (await decoyPasswordHash());
      const valid = (await verifyPassword(password, hash)) && user !== undefined && user.role !== 'guest';
      if (!valid || !user) throw new ApiError(401, say.wrongCredentials());
      await rotation.endCarried(c, ['member', 'guest'], 'member');
      await rotation.start(c, 'member', user.id);
      return c.json({ user: { id: user.id, username: user.username, role: user.role } }, 200);
    })

    .openapi(postGuest, async (c) => {
      if (!(await readGuestMode(db)).enabled) throw new ApiError(403, say.guestModeDisabled());
      const guest = await db.query.users.findFirst({ where: eq(users.id, GUEST_PRINCIPAL_ID) });
      if (guest?.role !== 'guest') throw new ApiError(503, 'the guest account is missing; ask an admin');
      await rotation.endCarried(c, ['guest'], 'guest');
      await rotation.start(c, 'guest', guest.id);
      return c.json({ user: { id: guest.id, username: guest.username, role: 'guest' as const } }, 200);
    })

    .openapi(postLogout, async (c) => {
      await rotation.endCarried(c, ['member', 'guest']);
      return c.body(null, 204);
    })

    .openapi(getMe, (c) => {
      const p = principalOf(c);
      return c.json(
        {
          user: { id: p.userId, username: p.username, role: p.role },
          capabilities: CAPABILITIES.filter((capability) => hasCapability(p, capability)),
          bots: reachableBots(p, p.bots),
          ...(p.guestPermissions ? { guestPermissions: p.guestPermissions } : {}),
        },
        200,
      );
    })

    .openapi(postChangePassword, async (c) => {
      const principal = principalOf(c);
      const { currentPassword, newPassword } = c.req.valid('json');
      const user = await db.query.users.findFirst({ where: eq(users.id, principal.userId) });
      if (!user?.passwordHash || !(await verifyPassword(currentPassword, user.passwordHash))) {
        throw new ApiError(403, 'current password is wrong');
      }
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(newPassword) })
        .where(eq(users.id, user.id));
      // The other sessions end; this one goes on with the same cookie (SPEC Auth rule 6).
      await revokeCredentials(db, user.id, ownSessionId(principal, user.id));
      announceAccountsChanged(bus, [user.id]);
      const self = { id: user.id, username: user.username };
      await recordAudit(db, 'user.password_changed', self, self);
      return c.body(null, 204);
    });
}
