/** GET/POST /api/bot/settings. */
import { OpenAPIHono } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { getSettings, postSettings } from '../../openapi/routes/settings';
import type { GuestModeEvent } from '../../shared/bus/messages';
import { GUEST_MODE_EVENTS, SETTINGS_EVENTS } from '../../shared/bus/subjects';
import { sessions } from '../../shared/db/schema';
import { GUEST_PRINCIPAL_ID } from '../../shared/domain/constants';
import { readSettings } from '../../shared/settings/settings';
import type { AppDeps, AppEnv } from '../env';
import { validationHook } from '../errors';
import { mergeSettings, publicSettings, writeSettings } from './settings-store';

export function settingsRoutes({ db, bus }: AppDeps) {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(getSettings, async (c) => c.json(publicSettings(await readSettings(db)), 200))
    .openapi(postSettings, async (c) => {
      const current = await readSettings(db);
      const next = mergeSettings(current, c.req.valid('json'));
      const changed = await writeSettings(db, current, next);
      if (changed.length) bus.publish(SETTINGS_EVENTS, { keys: changed });
      if (changed.includes('guestMode')) {
        // Disabling guest mode ends guest sessions at once; the gateway closes or re-scopes sockets.
        if (!next.guestMode.enabled) await db.delete(sessions).where(eq(sessions.userId, GUEST_PRINCIPAL_ID));
        const event: GuestModeEvent = { enabled: next.guestMode.enabled, bots: next.guestMode.bots };
        bus.publish(GUEST_MODE_EVENTS, event);
      }
      return c.json(publicSettings(next), 200);
    });
}
