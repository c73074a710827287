/**
 * Runs one bot operation for a REST call: checks the bot exists (access was checked by the policy),
 * asks its daemon, and turns a refusal into the API error with the receipt as its text. A refusal
 * because the bot is disconnected also carries `{message, ok: false}` (DECISIONS.md). A reply that
 * answers 200 with `ok: false` (nothing could be played) is a result, not a refusal: the route shows
 * it as `{ok: false, message}`.
 */

import type { BotOp, BotOpArgs } from '../../shared/bus/bot-ops';
import type { BotReply } from '../../shared/bus/messages';
import { GUEST_LABEL } from '../../shared/domain/constants';
import { actorOf, type Principal } from '../auth/principal';
import { findBot } from '../bots/find-bot';
import { askBot } from '../daemon-client';
import type { AppDeps } from '../env';
import { ApiError } from '../errors';

/** The queue label of a request: the account's username, or the guest label for guests. */
export const requesterOf = (principal: Principal): string =>
  principal.role === 'guest' ? GUEST_LABEL : principal.username;

/**
 * Ops slower than the default bus deadline: a start waits up to 15 s for the handshake; a stop writes
 * the profile back and waits for the server to confirm the disconnect.
 */
const SLOW_OPS: Partial<Record<BotOp, number>> = { start: 20_000, stop: 10_000 };

export async function runBotOp<Op extends BotOp>(
  deps: AppDeps,
  principal: Principal,
  botId: string,
  op: Op,
  args: BotOpArgs<Op>,
): Promise<BotReply> {
  await findBot(deps.db, botId);
  const timeoutMs = SLOW_OPS[op];
  const reply = await askBot(deps, botId, op, args, actorOf(principal), timeoutMs ? { timeoutMs } : {});
  if (!reply.ok && reply.status !== 200) {
    const message = reply.message ?? `${op} failed`;
    throw new ApiError(
      reply.status as ConstructorParameters<typeof ApiError>[0],
      message,
      reply.status === 409 ? { message, ok: false } : undefined,
    );
  }
  return reply;
}

/** The receipt of a successful op. */
export const receiptOf = (reply: BotReply): string => reply.message ?? '';
