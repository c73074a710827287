/**
 * The lease store on a JetStream key-value bucket (`bot-owners`), created at start if absent, on the
 * bus's own NATS connection: leases share the fate of the subscriptions they guard, so a daemon cut
 * off from NATS loses both together.
 *
 * A server without JetStream is a startup error naming the fix: falling back to "every daemon takes
 * every bot" would bring back the double ownership leases exist to prevent.
 */
import {
  type JetStreamClient,
  type KV,
  type KvEntry,
  type NatsConnection,
  type NatsError,
  StorageType,
} from 'nats';
import { logger } from '../../shared/logger';
import { err, ok, type Result } from '../../shared/result';
import type { LeaseStore, LeaseWatch, StoredLease, StoreFailure } from './lease-store';

const log = logger('daemon.leases');

export const LEASE_BUCKET = 'bot-owners';
/** JetStream's "wrong last sequence": the key is not at the expected revision. */
const WRONG_LAST_SEQUENCE = 10071;
/** NATS answers 503 to JetStream API calls when the server runs without JetStream. */
const JETSTREAM_NOT_ENABLED = '503';
/** A write that takes longer is reported unavailable; shorter than the renew interval, so tries never pile up. */
const REQUEST_TIMEOUT_MS = 1500;
const WATCH_RETRY_MS = 1000;

export interface JetStreamLeaseStoreOptions {
  bucket?: string;
  /** Copies of the bucket in a JetStream cluster (3 on a three-node cluster); used when creating it. */
  replicas?: number;
}

export class JetStreamLeaseStore implements LeaseStore {
  private constructor(private readonly kv: KV) {}

  /** Binds to the bucket, creating it if absent; throws a clear error when JetStream is off. */
  static async open(
    nc: NatsConnection,
    { bucket = LEASE_BUCKET, replicas = 1 }: JetStreamLeaseStoreOptions = {},
  ): Promise<JetStreamLeaseStore> {
    const js: JetStreamClient = nc.jetstream({ timeout: REQUEST_TIMEOUT_MS });
    try {
      const kv = await js.views.kv(bucket, {
        history: 1,
        replicas,
        storage: StorageType.File,
        // Reads go to the stream leader, so "is this still my lease?" never gets a follower's stale answer.
        allow_direct: false,
        timeout: REQUEST_TIMEOUT_MS,
      });
      return new JetStreamLeaseStore(kv);
    } catch (error) {
      if ((error as Partial<NatsError>).code === JETSTREAM_NOT_ENABLED)
        throw new Error(
          `NATS at ${nc.getServer()} runs without JetStream, which daemons need for bot ownership leases: ` +
            'start nats-server with -js (or a jetstream {} block in nats-server.conf)',
        );
      throw error;
    }
  }

  async watch(onChange: (change: StoredLease) => void): Promise<LeaseWatch> {
    let stopped = false;
    let current: { stop(): void } | undefined;
    const follow = async (): Promise<void> => {
      let initialized!: () => void;
      const ready = new Promise<void>((resolve) => (initialized = resolve));
      const entries = await this.kv.watch({ key: '>', initializedFn: () => initialized() });
      current = entries;
      void (async () => {
        try {
          for await (const entry of entries) onChange(toStoredLease(entry));
        } catch (error) {
          log.warn({ err: error }, 'lease watch failed');
        }
        if (!stopped) restart();
      })();
      await ready;
    };
    const restart = () => {
      log.warn('lease watch ended; following the bucket again');
      setTimeout(() => {
        if (!stopped) follow().catch(restart);
      }, WATCH_RETRY_MS).unref();
    };
    await follow();
    return {
      stop() {
        stopped = true;
        current?.stop();
      },
    };
  }

  async get(key: string): Promise<Result<StoredLease | undefined, 'unavailable'>> {
    try {
      const entry = await this.kv.get(key);
      return ok(entry ? toStoredLease(entry) : undefined);
    } catch (error) {
      return unavailable(error, key);
    }
  }

  create(key: string, value: string): Promise<Result<number, StoreFailure>> {
    return this.write(key, () => this.kv.create(key, value));
  }

  update(key: string, value: string, revision: number): Promise<Result<number, StoreFailure>> {
    return this.write(key, () => this.kv.update(key, value, revision));
  }

  async put(key: string, value: string): Promise<Result<number, 'unavailable'>> {
    try {
      return ok(await this.kv.put(key, value));
    } catch (error) {
      return unavailable(error, key);
    }
  }

  delete(key: string, revision?: number): Promise<Result<void, StoreFailure>> {
    return this.write(key, () => this.kv.delete(key, revision ? { previousSeq: revision } : undefined));
  }

  private async write<T>(key: string, action: () => Promise<T>): Promise<Result<T, StoreFailure>> {
    try {
      return ok(await action());
    } catch (error) {
      if ((error as { api_error?: { err_code?: number } }).api_error?.err_code === WRONG_LAST_SEQUENCE)
        return err('conflict');
      return unavailable(error, key);
    }
  }
}

function toStoredLease(entry: KvEntry): StoredLease {
  const deleted = entry.operation === 'DEL' || entry.operation === 'PURGE';
  return { key: entry.key, value: deleted ? null : entry.string(), revision: entry.revision };
}

function unavailable(error: unknown, key: string): Result<never, 'unavailable'> {
  log.debug({ err: error, key }, 'lease store unavailable');
  return err('unavailable');
}
