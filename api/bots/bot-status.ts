/**
 * Live bot status comes from the daemon that owns the bot. When no daemon answers for one bot (none
 * owns it during a fail-over, or it is slow), a list still shows it, built from its stored settings
 * as disconnected; a bus that is down fails the whole call with 503.
 */
import { BusError } from '../../shared/bus/bus';
import type { Actor } from '../../shared/bus/messages';
import type { bots } from '../../shared/db/schema';
import { type BotStatus, BotStatusSchema } from '../../shared/domain/schemas';
import { busFailureToApiError, requestBot } from '../daemon-client';
import type { AppDeps } from '../env';

type BotRow = typeof bots.$inferSelect;

export function offlineStatus(bot: BotRow): BotStatus {
  return {
    id: bot.id,
    name: bot.name,
    connected: false,
    playing: false,
    paused: false,
    currentSong: null,
    queueSize: 0,
    volume: bot.volume,
    playMode: bot.playMode,
    elapsed: 0,
  };
}

export async function listedStatus(deps: AppDeps, bot: BotRow, actor: Actor): Promise<BotStatus> {
  try {
    const reply = await requestBot(deps, bot.id, 'status', undefined, actor);
    if (!reply.ok) throw new Error(`status of bot ${bot.id} failed: ${reply.message ?? reply.status}`);
    return BotStatusSchema.parse(reply.data);
  } catch (error) {
    if (!(error instanceof BusError)) throw error;
    if (error.failure === 'no-responders' || error.failure === 'timeout') return offlineStatus(bot);
    throw busFailureToApiError(error);
  }
}
