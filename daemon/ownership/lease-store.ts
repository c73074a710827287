/**
 * Where ownership leases live: a key-value bucket with a revision per key and compare-and-set writes
 * (JetStream KV in production, jetstream-lease-store.ts). The lease keeper only needs these few
 * operations, so it is tested against the real bucket without knowing NATS.
 *
 * Failures from outside are values: `conflict` (the key is not at the revision the caller expected:
 * somebody else wrote it) and `unavailable` (the store could not be reached or did not answer in time;
 * the write may or may not have landed).
 */
import type { Result } from '../../shared/result';

export type StoreFailure = 'conflict' | 'unavailable';

export interface StoredLease {
  key: string;
  /** The stored text (JSON), or null where the key was deleted. */
  value: string | null;
  /** Increases with every write to the bucket; a deletion has a revision too. */
  revision: number;
}

export interface LeaseWatch {
  stop(): void;
}

export interface LeaseStore {
  /**
   * Calls `onChange` with every current key, then with every later write and deletion, in the order
   * the store applied them. Resolves once the current keys have been delivered.
   */
  watch(onChange: (change: StoredLease) => void): Promise<LeaseWatch>;
  /** The key as stored now; undefined if it never existed. */
  get(key: string): Promise<Result<StoredLease | undefined, 'unavailable'>>;
  /** Writes only if the key does not exist (or was deleted); resolves with the new revision. */
  create(key: string, value: string): Promise<Result<number, StoreFailure>>;
  /** Writes only if the key is still at `revision`. */
  update(key: string, value: string, revision: number): Promise<Result<number, StoreFailure>>;
  /** Writes whatever is there. */
  put(key: string, value: string): Promise<Result<number, 'unavailable'>>;
  /** Deletes; only if the key is still at `revision` when one is given. */
  delete(key: string, revision?: number): Promise<Result<void, StoreFailure>>;
}
