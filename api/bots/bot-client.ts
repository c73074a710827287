/**
 * The api's one way to reach a bot: every operation of the table in shared/bus/bot-ops.ts goes to the
 * daemon that owns the bot over the bus, and comes back parsed with the op's reply schema.
 *
 * - Bus failures become 503s whose sentence tells them apart (nobody runs the bot, the daemon is slow,
 *   the bus is down); "nobody runs it" (or "its daemon failed") for a bot that is not stored is a 404,
 *   as the stored record tells: a bot deleted a moment ago is gone, never a 500.
 * - A refusal (`ok: false` with a status other than 200) becomes the API error with the receipt as its
 *   text; a disconnected bot's refusal also carries `{message, ok: false}` (DECISIONS.md).
 * - A reply that does not parse is a defect, not an outage: it is thrown as an Error, which the app's
 *   error handler logs once and answers 500. It is never turned into an "offline" status.
 * - Once an op that may change a bot has been sent, whatever its outcome, the listeners of `onChange`
 *   hear of it (the status view drops what it had heard of that bot, status-view.ts).
 */
import { eq } from 'drizzle-orm';
import {
  type BotOp,
  type BotOpArgs,
  type BotOpData,
  isReadOnly,
  startsAudio,
} from '../../shared/bus/bot-ops';
import { type OpReply, requestOp } from '../../shared/bus/bot-request';
import { BusError } from '../../shared/bus/bus';
import type { Actor } from '../../shared/bus/messages';
import { bots } from '../../shared/db/schema';
import type { BotStatus } from '../../shared/domain/schemas';
import { isPhraseCode, type Phrase, type PhraseData, say } from '../../shared/i18n/phrases';
import type { AppDeps } from '../env';
import { ApiError } from '../errors';
import type { ListedBot } from './stored-bots';

/** What an op answered: whether it did what was asked, its receipt (as phrases), and its parsed data. */
export interface BotOutcome<Op extends BotOp> {
  ok: boolean;
  said: Phrase[];
  data: BotOpData<Op>;
}

/** How a status probe ended when the bus itself works: no daemon runs the bot, or it did not answer. */
export type Unanswered = 'no-responders' | 'timeout';

/** How a bus request ended: answered (`ok` or `refused`), or the bus's failure. */
export type BusOutcome = 'ok' | 'refused' | BusError['failure'];

/** Told each bus request's op, outcome and seconds (the api's metrics, api/metrics/api-metrics.ts). */
export type BusRequestTimer = (op: BotOp, outcome: BusOutcome, seconds: number) => void;

export class BotClient {
  private readonly changeListeners = new Set<(botId: string) => void>();

  constructor(
    private readonly deps: Pick<AppDeps, 'bus' | 'db'>,
    private readonly timeRequest: BusRequestTimer = () => undefined,
  ) {}

  /** Calls `listener` with a bot's id after each op that may have changed the bot. */
  onChange(listener: (botId: string) => void): void {
    this.changeListeners.add(listener);
  }

  /** Runs one op for `actor`; a refusal or a bus failure is thrown as an ApiError. */
  async call<Op extends BotOp>(
    botId: string,
    op: Op,
    args: BotOpArgs<Op>,
    actor: Actor,
  ): Promise<BotOutcome<Op>> {
    try {
      return await this.exchange(botId, op, args, actor);
    } catch (error) {
      if (!(error instanceof BusError)) throw error;
      // No daemon runs the bot, or its daemon failed while letting it go: either way, a bot that is no
      // longer stored is simply not found.
      if (
        (error.failure === 'no-responders' || error.failure === 'handler-failed') &&
        !(await this.isStored(botId))
      )
        throw new ApiError(404, say.botNotFound());
      throw busFailureToApiError(error);
    }
  }

  /**
   * Runs an op whose arguments must first be looked up on a music platform. No platform is asked for
   * a bot that could not play the answer (SPEC Player rule 9): an op that starts audio is refused
   * (409, as the daemon refuses it) for a disconnected bot before `resolveArgs` runs. That takes a
   * status request first, unless the caller already heard the bot is connected (`heardConnected`,
   * from BotStatusView): then the op goes at once, one bus request, and the daemon's answer decides,
   * as it checks the connection on arrival anyway. A bot that lost its connection or its daemon since
   * is refused by that answer, with the statuses and bodies the status request would have given.
   */
  async callResolving<Op extends BotOp>(
    botId: string,
    op: Op,
    actor: Actor,
    resolveArgs: () => Promise<BotOpArgs<Op>>,
    heardConnected = false,
  ): Promise<BotOutcome<Op>> {
    if (startsAudio(op) && !heardConnected && !(await this.call(botId, 'status', {}, actor)).data.connected)
      throw new ApiError(409, say.notConnected(), refusalExtra);
    return this.call(botId, op, await resolveArgs(), actor);
  }

  /**
   * A read's live answer, or why nobody answered for the bot (a fail-over, a daemon still taking on a
   * new bot, or a slow one). A bus that is down is still an error (503).
   */
  async probe<Op extends 'status' | 'queue'>(
    botId: string,
    op: Op,
    actor: Actor,
  ): Promise<BotOpData<Op> | Unanswered> {
    try {
      return (await this.exchange(botId, op, {} as BotOpArgs<Op>, actor)).data;
    } catch (error) {
      if (!(error instanceof BusError)) throw error;
      if (error.failure === 'no-responders' || error.failure === 'timeout') return error.failure;
      throw busFailureToApiError(error);
    }
  }

  private async exchange<Op extends BotOp>(
    botId: string,
    op: Op,
    args: BotOpArgs<Op>,
    actor: Actor,
  ): Promise<BotOutcome<Op>> {
    let reply: OpReply<Op>;
    const sentAt = performance.now();
    try {
      reply = await requestOp(this.deps.bus, botId, op, args, actor);
      this.timeRequest(op, reply.ok ? 'ok' : 'refused', (performance.now() - sentAt) / 1000);
    } catch (error) {
      if (error instanceof BusError) this.timeRequest(op, error.failure, (performance.now() - sentAt) / 1000);
      throw error;
    } finally {
      if (!isReadOnly(op)) for (const listener of this.changeListeners) listener(botId);
    }
    const { ok, status, message, phrases, data } = reply;
    const said = knownPhrases(phrases) ?? [say.said(message || `${op} failed`)];
    if (!ok && status !== 200) {
      throw new ApiError(
        status as ConstructorParameters<typeof ApiError>[0],
        said[0] ?? say.requestFailed(),
        status === 409 ? refusalExtra : undefined,
      );
    }
    return { ok, said, data: data as BotOpData<Op> };
  }

  private async isStored(botId: string): Promise<boolean> {
    return (
      (await this.deps.db.query.bots.findFirst({ where: eq(bots.id, botId), columns: { id: true } })) !==
      undefined
    );
  }
}

/**
 * The reply's phrases when this api knows every code; otherwise (a daemon older than phrases, or newer
 * than this api) its text in the daemon's LOCALE is all that can be said.
 */
function knownPhrases(phrases: PhraseData[] | undefined): Phrase[] | undefined {
  if (!phrases?.length) return undefined;
  const known: Phrase[] = [];
  for (const { code, params = {} } of phrases) {
    if (!isPhraseCode(code)) return undefined;
    known.push({ code, params });
  }
  return known;
}

/** A refused audio command also says its receipt as `message`, with `ok: false` (DECISIONS.md). */
const refusalExtra = (error: string) => ({ message: error, ok: false });

export function busFailureToApiError(error: BusError): ApiError {
  switch (error.failure) {
    case 'no-responders':
      return new ApiError(503, say.noDaemon());
    case 'timeout':
      return new ApiError(503, say.daemonSlow());
    case 'unavailable':
      return new ApiError(503, say.busDown());
    case 'handler-failed':
      return new ApiError(500, `the bot daemon failed: ${error.message}`);
  }
}

/** A stored bot no daemon answers for, shown as disconnected with its saved volume and mode. */
export function offlineStatus(bot: ListedBot): BotStatus {
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
    skipVotes: { votes: 0, needed: 0 },
    listeners: 0,
  };
}
