/**
 * GET /ws: the WebSocket upgrade. Authenticated like REST (session cookie or API key), and the
 * cross-site check applies to the upgrade even though it is a GET: a page on another site must not
 * open a socket with the user's cookie.
 */

import type { NodeWebSocket } from '@hono/node-ws';
import { Hono } from 'hono';
import { say } from '../../shared/i18n/phrases';
import type { Authenticator } from '../access/authenticate';
import { principalOf } from '../access/principal';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import type { ProxyTrust } from '../middleware/client-view';
import { isCrossSiteCookieRequest } from '../middleware/cross-site';
import type { WsGateway } from './gateway';

export const WS_PATH = '/ws';

export function wsRoutes(
  gateway: WsGateway,
  authenticate: Authenticator,
  upgradeWebSocket: NodeWebSocket['upgradeWebSocket'],
  trust: ProxyTrust,
) {
  return new Hono<AppEnv>().get(
    WS_PATH,
    async (c, next) => {
      if (isCrossSiteCookieRequest(c, trust)) throw new ApiError(403, say.crossSite());
      const principal = await authenticate(c);
      if (!principal) throw new ApiError(401, say.notSignedIn());
      c.set('principal', principal);
      await next();
    },
    upgradeWebSocket((c) => {
      const principal = principalOf(c);
      let detach: (() => void) | undefined;
      let closed = false;
      return {
        onOpen: (_event, ws) => {
          void gateway
            .open(
              { send: (text) => ws.send(text), close: (code, reason) => ws.close(code, reason) },
              principal,
            )
            .then((leave) => {
              if (closed) leave();
              else detach = leave;
            });
        },
        onClose: () => {
          closed = true;
          detach?.();
        },
      };
    }),
  );
}
