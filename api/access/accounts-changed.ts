/**
 * Tells every api process that accounts' rights or credentials changed, so open WebSockets of those
 * accounts are checked again (api/ws/gateway.ts). Requests need no such call: each one reads its
 * principal afresh (load-principal.ts); a socket, authenticated once at its upgrade, does.
 */
import type { Bus } from '../../shared/bus/bus';
import type { AccountsChangedEvent } from '../../shared/bus/messages';
import { ACCOUNTS_CHANGED } from '../../shared/bus/subjects';

/** Call after the change is committed, so a process that reads the account again sees it. */
export function announceAccountsChanged(bus: Bus, userIds: readonly string[]): void {
  if (userIds.length === 0) return;
  const event: AccountsChangedEvent = { userIds: [...new Set(userIds)] };
  bus.publish(ACCOUNTS_CHANGED, event);
}
