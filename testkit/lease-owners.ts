/**
 * Who owns which bot, read from the lease bucket the way a daemon reads it (its store, its view), by an
 * observer on its own NATS connection: what the failover test and the scale bench report.
 */
import { connect } from 'nats';
import { systemClock } from '../daemon/ownership/clock';
import { JetStreamLeaseStore } from '../daemon/ownership/jetstream-lease-store';
import { DEFAULT_LEASE_TIMING } from '../daemon/ownership/lease-timing';
import { LeaseView } from '../daemon/ownership/lease-view';

export interface LeaseOwners {
  /** Bots by the daemon that owns them, while its liveness lease is live. */
  owners(): Map<string, string[]>;
  ownerOf(botId: string): string | undefined;
  /** Daemons whose liveness lease is live. */
  liveDaemons(): string[];
  close(): Promise<void>;
}

export async function watchLeaseOwners(natsUrl: string): Promise<LeaseOwners> {
  const connection = await connect({ servers: natsUrl });
  const store = await JetStreamLeaseStore.open(connection);
  const view = new LeaseView(DEFAULT_LEASE_TIMING.ttlMs);
  const watch = await store.watch((change) => view.apply(change, systemClock.now()));
  const owners = () => view.owners(systemClock.now());
  return {
    owners,
    ownerOf: (botId) => [...owners()].find(([, bots]) => bots.includes(botId))?.[0],
    liveDaemons: () => view.liveDaemons(systemClock.now()),
    async close() {
      watch.stop();
      await connection.close();
    },
  };
}
