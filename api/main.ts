/** The api alone (scaled-out layout): REST, docs and the WebSocket gateway; bots live in daemons. */
import { startHttpProcess } from './process';

await startHttpProcess({ withDaemon: false });
