/**
 * The bots a principal may see, oldest first, with their live statuses: what GET /api/bot answers
 * and what a WebSocket is greeted with. One prepared read of the stored bots (stored-bots.ts), and
 * each status from the status view, which asks a daemon only for a bot it has not heard of lately.
 */

import { canReachBot } from '../../shared/access/route-access';
import type { BotStatus } from '../../shared/domain/schemas';
import { actorOf, type Principal } from '../access/principal';
import type { AppDeps } from '../env';
import type { BotStatusView } from './status-view';
import { storedBots } from './stored-bots';

export type BotLister = (principal: Principal) => Promise<BotStatus[]>;

export function botLister({ db }: Pick<AppDeps, 'db'>, statuses: BotStatusView): BotLister {
  const stored = storedBots(db);
  return async (principal) => {
    const visible = (await stored()).filter((bot) => canReachBot(principal, bot.id));
    const actor = actorOf(principal);
    return Promise.all(visible.map((bot) => statuses.statusOf(bot, actor)));
  };
}
