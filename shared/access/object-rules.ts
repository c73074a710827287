/**
 * Rules about one stored thing rather than a route: whose saved queue or API key a caller may act on,
 * and who may list every account's keys. The api's handlers enforce them and the browser UI asks the
 * same functions before showing a control, so the page offers exactly what the server allows (the
 * route rules have the same arrangement in route-access.ts).
 *
 * Pure data and functions: the web bundle imports it (no Node modules).
 */
import { type PrincipalRole, SHARED_QUEUE_OWNER } from '../domain/constants';
import { passesEveryCheck } from './route-access';

/** The caller as these rules see it: the api's principal and the page's `Me` (`user.id`) both say it. */
export interface Actor {
  userId: string;
  role: PrincipalRole;
}

/**
 * A saved queue a caller may load or delete: their own or a shared one (SPEC "Saved queues": lists
 * return own plus shared; another user's private queue is absent). The shared bucket is everyone's,
 * as saving under a shared queue's name overwrites it, so any member may delete a shared queue too.
 * Admins are no exception: another user's private queue is theirs alone.
 */
export const mayUseSavedQueue = (actor: Actor, queue: { ownerId: string }): boolean =>
  queue.ownerId === actor.userId || queue.ownerId === SHARED_QUEUE_OWNER;

/** `GET /api/keys?all=1` (SPEC "API keys"): every user's keys, for admins only. */
export const mayListAllApiKeys = (actor: Actor): boolean => passesEveryCheck(actor);

/** Deleting an API key (SPEC "API keys"): own keys only, an admin any. */
export const mayDeleteApiKey = (actor: Actor, key: { userId: string }): boolean =>
  key.userId === actor.userId || passesEveryCheck(actor);
