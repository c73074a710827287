/**
 * A daemon process for the ownership scale bench: the real LeaseKeeper on the real JetStream store over
 * its own NATS connection, with bots whose voice connections are stubbed. Its hooks are the seam: a
 * bot it owns is a name in a set, "in a voice session" for every other bot (so hand-overs and takeovers
 * carry that flag as they do for real bots), and taking one on or letting it go costs nothing, so the
 * figures are those of the lease protocol alone, not of voice servers.
 *
 * Env: NATS_URL, DAEMON_ID, BOTS (how many; ids bot-0000…). SIGTERM stops it gracefully (a hand-over);
 * the bench SIGKILLs it for a crash.
 */
import { connect } from 'nats';
import { JetStreamLeaseStore } from '../../daemon/ownership/jetstream-lease-store';
import { LeaseKeeper } from '../../daemon/ownership/lease-keeper';

export const benchBotIds = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `bot-${String(i).padStart(4, '0')}`);

const bots = benchBotIds(Number(process.env.BOTS));
const connection = await connect({ servers: process.env.NATS_URL });
const store = await JetStreamLeaseStore.open(connection);
const owned = new Set<string>();
const keeper = new LeaseKeeper({
  store,
  daemonId: process.env.DAEMON_ID!,
  hooks: {
    listBots: async () => bots,
    own: async (botId) => {
      owned.add(botId);
      return true;
    },
    release: async (botId) => {
      owned.delete(botId);
    },
    isActive: (botId) => owned.has(botId) && Number(botId.slice(4)) % 2 === 0,
  },
});
await keeper.start();
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void keeper
    .handOver()
    .then(() => connection.close())
    .then(() => process.exit(0));
});
