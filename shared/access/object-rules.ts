/**
 * Rules about one stored thing rather than a route: whose saved queue or API key a caller may act on,
 * who may list every account's keys, and what a new account may do. The api's handlers enforce them
 * and the browser UI asks the same functions before showing a control, so the page offers exactly
 * what the server allows (the route rules have the same arrangement in route-access.ts).
 *
 * Pure data and functions: the web bundle imports it (no Node modules).
 */
import {
  BASIC_MEMBER_CAPABILITIES,
  CAPABILITIES,
  type Capability,
  type PrincipalRole,
  type Role,
  SHARED_QUEUE_OWNER,
} from '../domain/constants';
import { passesEveryCheck } from './route-access';

/** The caller as these rules see it: the api's principal and the page's `Me` (`user.id`) both say it. */
export interface Actor {
  userId: string;
  role: PrincipalRole;
}

/**
 * The owners whose saved queues a caller sees, loads and deletes: their own and the shared bucket
 * (SPEC "Saved queues": lists return own plus shared; another user's private queue is absent). The
 * shared bucket is everyone's, as saving under a shared queue's name overwrites it, so any member may
 * delete a shared queue too. Admins are no exception: another user's private queue is theirs alone.
 * The api's list query filters by exactly these owners, so the list shows what the rule allows.
 */
export const savedQueueOwnersFor = (actor: Actor): [string, string] => [actor.userId, SHARED_QUEUE_OWNER];

/** A saved queue a caller may load or delete: its owner is one of `savedQueueOwnersFor(actor)`. */
export const mayUseSavedQueue = (actor: Actor, queue: { ownerId: string }): boolean =>
  savedQueueOwnersFor(actor).includes(queue.ownerId);

/** A queue in the shared bucket (the page marks it so). */
export const isSharedQueue = (queue: { ownerId: string }): boolean => queue.ownerId === SHARED_QUEUE_OWNER;

/** `GET /api/keys?all=1` (SPEC "API keys"): every user's keys, for admins only. */
export const mayListAllApiKeys = (actor: Actor): boolean => passesEveryCheck(actor);

/** Deleting an API key (SPEC "API keys"): own keys only, an admin any. */
export const mayDeleteApiKey = (actor: Actor, key: { userId: string }): boolean =>
  key.userId === actor.userId || passesEveryCheck(actor);

/**
 * The bots an account reaches: every bot for an admin (who passes every check) or an account granted
 * all of them, else the bots it was granted. The principal of a request, `GET /api/session/me` and an
 * account's permissions page all say it this way.
 */
export const reachableBots = (
  subject: { role: PrincipalRole },
  granted: 'all' | readonly string[],
): 'all' | string[] => (passesEveryCheck(subject) || granted === 'all' ? 'all' : [...granted]);

/**
 * What a new account may do from the start: an admin passes every check anyway, so it is stored with
 * every capability and every bot; a member starts with the basic player rights and no bot.
 */
export const startingPermissions = (role: Role): { capabilities: Capability[]; allBots: boolean } =>
  passesEveryCheck({ role })
    ? { capabilities: [...CAPABILITIES], allBots: true }
    : { capabilities: [...BASIC_MEMBER_CAPABILITIES], allBots: false };
