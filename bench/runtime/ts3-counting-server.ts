/**
 * The TS3 test server in its own process for the runtime bench, in counting mode: it speaks the whole
 * protocol to every bot but keeps no audio, counting packets and their lateness per client and
 * decoding only a sample (voice-counter.ts). Driven by the bench over IPC (protocol.ts).
 */
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { COUNTING_SERVER_OPS } from './protocol';
import { serveRpc } from './rpc';
import { VoiceCounter } from './voice-counter';

const counter = new VoiceCounter();
const watches = new Map<number, Promise<number | null>>();
let nextWatchId = 1;
let server: Ts3TestServer | undefined;

const running = (): Ts3TestServer => {
  if (!server) throw new Error('the server has not been started');
  return server;
};

serveRpc(COUNTING_SERVER_OPS, {
  start: async ({ rooms }) => {
    const channels = Array.from({ length: rooms }, (_, i) => ({ name: `Room${i}` }));
    server = await Ts3TestServer.start({
      channels: [{ name: 'Lobby', isDefault: true }, ...channels],
      voiceListener: counter.onPacket,
    });
    return { port: server.port, rootPublicKey: server.rootPublicKey };
  },
  startWindow: () => {
    counter.startWindow();
    return {};
  },
  take: () => counter.take(),
  watch: ({ nickname, target, timeoutMs }) => {
    const client = running().clientByName(nickname);
    if (!client) throw new Error(`no client named ${nickname}`);
    const watchId = nextWatchId++;
    watches.set(watchId, counter.watch(client.id, target, timeoutMs));
    return { watchId };
  },
  awaitWatch: async ({ watchId }) => {
    const arrival = watches.get(watchId);
    if (!arrival) throw new Error(`no watch ${watchId}`);
    watches.delete(watchId);
    return { arrivedAtEpochMs: await arrival };
  },
  shutdown: async () => {
    await server?.close();
    return {};
  },
});
