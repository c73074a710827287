/**
 * One operation of the table sent to a bot's owner over the bus, its reply parsed on arrival: the
 * envelope with BotReplySchema and the data with the op's own reply schema. Bus failures stay
 * BusErrors for the caller to interpret; a reply that does not parse is a defect and throws an Error.
 */
import type { z } from 'zod';
import { BOT_OPS, type BotOp, type BotOpArgs, type BotOpData, parseOpArgs, timeoutOf } from './bot-ops';
import type { Bus } from './bus';
import { type Actor, BotReplySchema } from './messages';

type RawPhrase = NonNullable<z.infer<typeof BotReplySchema>['phrases']>[number];

import { botCommandSubject } from './subjects';

export interface OpReply<Op extends BotOp> {
  ok: boolean;
  status: number;
  message: string;
  /** The receipt as phrases; absent from a daemon older than them (its `message` is all there is). */
  phrases: RawPhrase[] | undefined;
  /** Parsed with the op's reply schema; undefined on a refusal. */
  data: BotOpData<Op> | undefined;
}

export async function requestOp<Op extends BotOp>(
  bus: Bus,
  botId: string,
  op: Op,
  args: BotOpArgs<Op>,
  actor: Actor,
): Promise<OpReply<Op>> {
  const checked = parseOpArgs(op, args);
  if (!checked.ok) throw new Error(checked.error);
  const timeoutMs = timeoutOf(op);
  const raw = await bus.request(
    botCommandSubject(botId),
    { op, args: checked.args, actor },
    timeoutMs ? { timeoutMs } : {},
  );
  const parsed = BotReplySchema.safeParse(raw);
  if (!parsed.success) throw new Error(`malformed reply from the daemon for ${op}: ${parsed.error.message}`);
  const { ok, status, message = '', phrases, data: rawData } = parsed.data;
  if (!ok && status !== 200) return { ok, status, message, phrases, data: undefined };
  const data = BOT_OPS[op].reply.safeParse(rawData);
  if (!data.success) throw new Error(`malformed ${op} data from the daemon: ${data.error.message}`);
  return { ok, status, message, phrases, data: data.data as BotOpData<Op> };
}
