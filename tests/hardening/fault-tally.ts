/**
 * The figures of one fault-injection suite (faults-*.test.ts), recorded to the hardening tally
 * (tally.ts) once the file's tests are done. Every HTTP answer goes through `answered`: a 5xx is a
 * server error unless the fault in place makes it the due answer (503 while the bus is down, 507
 * while the database is full...), so a 500 is always one.
 */
import { afterAll } from 'vitest';
import { type HardeningTally, recordTally } from './tally';

type FaultFigures = Pick<HardeningTally, 'requests' | 'faults' | 'serverErrors' | 'crashes' | 'dataChanged'>;

export interface FaultTally {
  readonly figures: Readonly<FaultFigures>;
  /** Counts one answer and returns its status; a 5xx not listed in `due` counts as a server error. */
  answered(status: number, due?: readonly number[]): number;
  /** Counts faults injected (a process killed, a server stopped, a lock taken...). */
  injected(count?: number): void;
  /** Counts processes (or in-process components) found dead without being asked to stop. */
  crashed(count?: number): void;
  /** Counts refused requests after which the stored data differed. */
  changedData(count?: number): void;
}

export function useFaultTally(suite: string): FaultTally {
  const figures: FaultFigures = { requests: 0, faults: 0, serverErrors: 0, crashes: 0, dataChanged: 0 };
  afterAll(() => recordTally(suite, figures));
  return {
    figures,
    answered(status, due = []) {
      figures.requests++;
      if (status >= 500 && !due.includes(status)) figures.serverErrors++;
      return status;
    },
    injected(count = 1) {
      figures.faults += count;
    },
    crashed(count = 1) {
      figures.crashes += count;
    },
    changedData(count = 1) {
      figures.dataChanged += count;
    },
  };
}
