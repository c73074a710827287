/**
 * Starts a daemon on already opened backends: the bots it owns, their voice sessions and playback. On
 * the in-process bus it is the only daemon and owns every bot; on NATS it owns the bots it claims in the
 * JetStream bucket while its liveness lease lives, so any number of daemons can share the work.
 */
import { NatsBus } from '../shared/bus/nats-bus';
import type { AppConfig } from '../shared/config';
import type { Backends } from '../shared/process';
import { sourceContextOf } from '../shared/sources/platform-modules';
import { raiseClockThreadPriority } from '../shared/thread-priority';
import { ts3OptionsFor } from './bots/connection/ts3-options';
import { type ChatApiFactory, chatApiFactory } from './chat/chat-api';
import { Daemon } from './daemon';
import type { OwnershipFactory } from './ownership/bot-ownership';
import { JetStreamLeaseStore } from './ownership/jetstream-lease-store';
import { LeaseKeeper } from './ownership/lease-keeper';

/**
 * How the daemon's bots reach the REST API for chat commands: the given factory (the api's own fetch,
 * in one process), else API_URL; undefined when neither exists (bots then ignore chat commands).
 */
function chatFor(config: AppConfig, api: ChatApiFactory | undefined) {
  const factory =
    api ?? (config.apiUrl && chatApiFactory({ baseUrl: config.apiUrl, serviceToken: config.serviceToken }));
  return factory ? { api: factory, prefix: config.chatPrefix } : undefined;
}

/** Leases on the bus's NATS connection; undefined on the in-process bus (the default: every bot). */
async function leasesFor(config: AppConfig, bus: Backends['bus']): Promise<OwnershipFactory | undefined> {
  if (!(bus instanceof NatsBus)) return undefined;
  const store = await JetStreamLeaseStore.open(bus.connection, { replicas: config.leaseReplicas });
  return (hooks) => new LeaseKeeper({ store, daemonId: config.daemonId, hooks });
}

/** `onDrained`: what the entry does once a drain has moved every bot (daemon/main.ts stops the process). */
export async function startDaemon(
  config: AppConfig,
  { db, bus }: Backends,
  chatApi?: ChatApiFactory,
  onDrained?: () => void,
) {
  // This thread runs the 20 ms frame clock: it goes first when the system allows (shared/thread-priority.ts).
  raiseClockThreadPriority();
  const chat = chatFor(config, chatApi);
  const ownership = await leasesFor(config, bus);
  const daemon = new Daemon({
    db,
    bus,
    daemonId: config.daemonId,
    // The one context of the daemon's platform code, made of its configuration here and handed down.
    sourceContext: sourceContextOf(db, config),
    ts3: ts3OptionsFor(config.ts3LicenseRoot),
    ffmpeg: config.ffmpeg,
    encoder: { build: config.opusBuild },
    ...(chat ? { chat } : {}),
    ...(ownership ? { ownership } : {}),
    ...(onDrained ? { onDrained } : {}),
  });
  await daemon.start();
  return daemon;
}
