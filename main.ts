/** The single-process default (`make run`): api, WebSocket gateway, daemon and in-process bus together. */
import { startHttpProcess } from './api/process';

await startHttpProcess({ withDaemon: true });
