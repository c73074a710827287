/**
 * A bot's voice identity: created on its first start and stored, then reused, so the voice server keeps
 * recognising the bot (its groups and permissions hang on the identity's uid). The private key is a
 * secret: it is never logged.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../../shared/db/client';
import { bots } from '../../../shared/db/schema';
import type { Logger } from '../../../shared/logger';
import { type Identity, importPlain } from '../../ts3';

/** The stored identity, or undefined when there is none yet (or it is damaged) and a new one is due. */
export function storedIdentity(stored: string | null, log: Logger): Identity | undefined {
  if (!stored) return undefined;
  const identity = importPlain(stored);
  if (identity.ok) return identity.value;
  log.warn({ reason: identity.error }, 'stored identity is unreadable; a new one will be created');
  return undefined;
}

/** Stores the identity in use (raised to its security level) when it differs from the stored one. */
export async function storeIdentity(db: Db, botId: string, identity: Identity): Promise<string> {
  const plain = identity.exportPlain();
  await db.update(bots).set({ identity: plain }).where(eq(bots.id, botId));
  return plain;
}
