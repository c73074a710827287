/**
 * Builds a Principal from a user id: the account row, its bot grants, and for the guest principal
 * the current guest-mode settings.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../shared/db/client';
import { botGrants, users } from '../../shared/db/schema';
import { CAPABILITIES, type Capability } from '../../shared/domain/constants';
import { readGuestMode } from '../../shared/settings/guest-mode';
import type { Credential, Principal } from './principal';

const isCapability = (value: string): value is Capability =>
  (CAPABILITIES as readonly string[]).includes(value);

export async function loadPrincipal(
  db: Db,
  userId: string,
  credential: Credential,
): Promise<Principal | undefined> {
  const user = await db.query.users.findFirst({ where: eq(users.id, userId) });
  if (!user) return undefined;
  if (user.role === 'guest') {
    const guestMode = await readGuestMode(db);
    if (!guestMode.enabled) return undefined;
    return {
      userId: user.id,
      username: user.username,
      role: 'guest',
      capabilities: [],
      bots: guestMode.bots,
      credential,
      guestPermissions: guestMode.permissions,
    };
  }
  const bots =
    user.role === 'admin' || user.allBots
      ? ('all' as const)
      : (
          await db.select({ botId: botGrants.botId }).from(botGrants).where(eq(botGrants.userId, user.id))
        ).map((g) => g.botId);
  return {
    userId: user.id,
    username: user.username,
    role: user.role,
    capabilities: user.capabilities.filter(isCapability),
    bots,
    credential,
  };
}
