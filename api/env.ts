/**
 * What every handler can reach: the per-request variables set by middleware, and the process-wide
 * dependencies the app is built with. Handlers keep no state of their own.
 */

import type { Bus } from '../shared/bus/bus';
import type { AppConfig } from '../shared/config';
import type { Db } from '../shared/db/client';
import type { MetricsSource } from '../shared/metrics/exposition';
import type { Principal } from './access/principal';
import type { GatewayOptions } from './ws/gateway-options';

export interface AppDeps {
  db: Db;
  bus: Bus;
  config: AppConfig;
  version: string;
  /** The /ws gateway's sweep for ended sessions: tests shorten it and move its clock. */
  wsGateway?: GatewayOptions;
  /** Metrics served with the app's own on /metrics: the daemon's, where it runs in this process. */
  metrics?: readonly MetricsSource[];
}

export interface AppEnv {
  Variables: {
    requestId: string;
    /** The authenticated caller; unset on public routes when nobody is signed in. */
    principal: Principal | undefined;
  };
}
