/**
 * POST /api/admin/daemons/{daemonId}/drain: asks that daemon, over the bus, to hand its bots to the
 * others one at a time and then stop (daemon/daemon.ts `drain`). Only the daemon of that id answers the
 * subject, so "no responders" means none of that id runs.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { drainDaemon } from '../../openapi/routes/daemons';
import { BusError } from '../../shared/bus/bus';
import { DrainReplySchema } from '../../shared/bus/messages';
import { daemonDrainSubject } from '../../shared/bus/subjects';
import { say } from '../../shared/i18n/phrases';
import { principalOf } from '../access/principal';
import { recordAudit } from '../audit/audit-log';
import { busFailureToApiError } from '../bots/bot-client';
import type { AppDeps, AppEnv } from '../env';
import { ApiError, validationHook } from '../errors';

export function daemonRoutes({ db, bus }: AppDeps) {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(drainDaemon, async (c) => {
    const { daemonId } = c.req.valid('param');
    const reply = DrainReplySchema.parse(await askToDrain(bus, daemonId));
    if (!reply.started) throw new ApiError(409, say.drainAlone(daemonId));
    const principal = principalOf(c);
    await recordAudit(
      db,
      'daemon.drained',
      { id: principal.userId, username: principal.username },
      { id: null, username: daemonId },
    );
    return c.json({ daemonId, bots: reply.bots }, 202);
  });
}

async function askToDrain(bus: AppDeps['bus'], daemonId: string): Promise<unknown> {
  try {
    return await bus.request(daemonDrainSubject(daemonId), {});
  } catch (error) {
    if (!(error instanceof BusError)) throw error;
    if (error.failure === 'no-responders') throw new ApiError(404, say.daemonNotRunning(daemonId));
    throw busFailureToApiError(error);
  }
}
