/**
 * Loads the caller behind a credential in ONE indexed read: the API key or session row, its account,
 * the account's bot grants (a subquery) and, for the guest principal, the guest-mode settings row
 * (a subquery). This is the per-request cost of authentication.
 *
 * Why a read on every request rather than a cache invalidated over the bus (README "Performance"):
 * a change made through one api process must hold on the very next request to ANY api process, and
 * a NATS message from process A reaches process B some milliseconds after A has answered, when a
 * client may already be asking B. So each request asks the database, but what it asks first is
 * SQLite's change counter (prepared-json-read.ts): while no connection has committed anything since
 * a credential was last read, its principal is given again without reading it; after any commit it
 * is read again. Nothing can go stale: revoked keys, ended sessions, role, capability and grant
 * changes, deleted users and bots (cascades), and guest mode are all seen on the next request on
 * every replica, including changes made outside the handlers (a cascade, an admin's SQL). No
 * invalidation call has to be remembered by a future route.
 *
 * Each statement returns its row as one JSON object (parsed with zod here), so libSQL builds one
 * column instead of nine, and is prepared once per process on a native connection: a request pays
 * neither query building nor SQL parsing.
 */
import { eq, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { reachableBots } from '../../shared/access/object-rules';
import type { Db } from '../../shared/db/client';
import { apiKeys, botGrants, sessions, settings, users } from '../../shared/db/schema';
import { CAPABILITIES, type Capability } from '../../shared/domain/constants';
import { normalizeGuestMode } from '../../shared/settings/guest-mode';
import { parseStoredValue } from '../../shared/settings/stored-value';
import { prepareJsonRead } from './prepared-json-read';
import type { Credential, Principal } from './principal';

const isCapability = (value: string): value is Capability =>
  (CAPABILITIES as readonly string[]).includes(value);

/**
 * The account fields of a lookup's JSON object: the user row, its granted bot ids (a subquery on the
 * grant table's primary key) and, for the guest principal only, the stored guest-mode row as text.
 */
const accountFields = sql`'userId', ${users.id}, 'username', ${users.username}, 'role', ${users.role},
  'capabilities', json(${users.capabilities}), 'allBots', ${users.allBots},
  'grants', (SELECT json_group_array(${botGrants.botId}) FROM ${botGrants} WHERE ${botGrants.userId} = ${users.id}),
  'guestMode', CASE WHEN ${users.role} = 'guest'
    THEN (SELECT ${settings.value} FROM ${settings} WHERE ${settings.key} = 'guestMode') END`;

const jsonObject = (fields: SQL) => ({ row: sql<string>`json_object(${fields})` });

const AccountSchema = z.object({
  userId: z.string(),
  username: z.string(),
  role: z.enum(['admin', 'member', 'guest']),
  capabilities: z.array(z.string()),
  allBots: z.union([z.literal(0), z.literal(1)]).transform((flag) => flag === 1),
  grants: z.array(z.string()),
  guestMode: z.string().nullable(),
});
type Account = z.infer<typeof AccountSchema>;

const KeyRowSchema = AccountSchema.extend({ keyId: z.string() });
const SessionRowSchema = AccountSchema.extend({ sessionId: z.string(), expiresAt: z.number() });

function parseRow<T>(schema: z.ZodType<T>, text: string): T {
  const parsed = schema.safeParse(parseStoredValue(text));
  if (!parsed.success)
    throw new Error(`the stored account of a credential is unreadable: ${parsed.error.message}`);
  return parsed.data;
}

/** The principal of an account, or undefined for the guest principal while guest mode is off. */
function principalOf(account: Account, credential: Credential): Principal | undefined {
  if (account.role === 'guest') {
    const guestMode = normalizeGuestMode(
      account.guestMode === null ? undefined : parseStoredValue(account.guestMode),
    );
    if (!guestMode.enabled) return undefined;
    return {
      userId: account.userId,
      username: account.username,
      role: 'guest',
      capabilities: [],
      bots: guestMode.bots,
      credential,
      guestPermissions: guestMode.permissions,
    };
  }
  return {
    userId: account.userId,
    username: account.username,
    role: account.role,
    capabilities: account.capabilities.filter(isCapability),
    bots: reachableBots(account, account.allBots ? 'all' : account.grants),
    credential,
  };
}

export interface ApiKeyLookup {
  keyId: string;
  /** Undefined for the guest principal while guest mode is off. */
  principal: Principal | undefined;
}

export interface SessionLookup {
  /** When the session ends, as stored (lucia keeps whole seconds). */
  expiresAt: Date;
  principal: Principal | undefined;
}

export interface PrincipalLoader {
  /** The key with this SHA-256 and its principal, or undefined for an unknown (or revoked) key. */
  byApiKeyHash(keyHash: string): Promise<ApiKeyLookup | undefined>;
  /** The same by the key's id: how an open socket's key is read again. */
  byApiKeyId(keyId: string): Promise<ApiKeyLookup | undefined>;
  /** The session with this id and its principal, or undefined for an unknown (or ended) session. */
  bySessionId(sessionId: string): Promise<SessionLookup | undefined>;
}

export function createPrincipalLoader(db: Db): PrincipalLoader {
  /** The key read by one unique column: its hash (a request's key) or its id (an open socket's key). */
  const keyReadBy = (column: typeof apiKeys.keyHash | typeof apiKeys.id) =>
    prepareJsonRead(
      db,
      db
        .select(jsonObject(sql`'keyId', ${apiKeys.id}, ${accountFields}`))
        .from(apiKeys)
        .innerJoin(users, eq(users.id, apiKeys.userId))
        .where(eq(column, sql.placeholder('key'))),
      (text) => {
        const key = parseRow(KeyRowSchema, text);
        return {
          keyId: key.keyId,
          principal: principalOf(key, { kind: 'api-key', keyId: key.keyId }),
        };
      },
    );
  const keyByHash = keyReadBy(apiKeys.keyHash);
  const keyById = keyReadBy(apiKeys.id);
  const sessionRead = prepareJsonRead(
    db,
    db
      .select(
        jsonObject(sql`'sessionId', ${sessions.id}, 'expiresAt', ${sessions.expiresAt}, ${accountFields}`),
      )
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.id, sql.placeholder('sessionId'))),
    (text) => {
      const session = parseRow(SessionRowSchema, text);
      return {
        // lucia's adapter stores epoch seconds.
        expiresAt: new Date(session.expiresAt * 1000),
        principal: principalOf(session, { kind: 'session', sessionId: session.sessionId }),
      };
    },
  );

  return {
    byApiKeyHash: (keyHash) => keyByHash({ key: keyHash }),
    byApiKeyId: (keyId) => keyById({ key: keyId }),
    bySessionId: (sessionId) => sessionRead({ sessionId }),
  };
}
