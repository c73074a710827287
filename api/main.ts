/** The api alone (scaled-out layout): REST, docs and the WebSocket gateway; bots live in daemons. */
import { loadConfig } from '../shared/config';
import { configureThread } from '../shared/configure-thread';
import { collectProcessMetrics } from '../shared/metrics/exposition';
import { openBackends } from '../shared/process';
import { onShutdown } from '../shared/shutdown';
import { startApi } from './process';

const config = loadConfig(process.env);
configureThread(config);
collectProcessMetrics();
if (!config.natsUrl)
  throw new Error(
    'an api process on its own needs NATS_URL to reach the daemons; `make run` runs both in one process',
  );
const backends = await openBackends(config, 'api', 'api');
const api = await startApi(config, backends);
onShutdown({ http: api.close, backends });
