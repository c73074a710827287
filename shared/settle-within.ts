/** How a piece of work ended when given a time limit. */
export type Settled = { kind: 'done' } | { kind: 'failed'; error: unknown } | { kind: 'overran' };

/**
 * Waits for `work` at most `ms`. Work still running then is abandoned, not stopped: the caller moves on
 * (a shutdown step past its budget, a goodbye to a voice server that no longer answers).
 */
export function settleWithin(work: Promise<unknown>, ms: number): Promise<Settled> {
  let timer: NodeJS.Timeout | undefined;
  const overran = new Promise<Settled>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms), { kind: 'overran' });
  });
  const settled = work.then(
    (): Settled => ({ kind: 'done' }),
    (error: unknown): Settled => ({ kind: 'failed', error }),
  );
  return Promise.race([settled, overran]).finally(() => clearTimeout(timer));
}

/** The promise's value, or undefined when it fails or takes longer than `ms` (the late answer is dropped). */
export function valueWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  return Promise.race([promise.catch(() => undefined), late]).finally(() => clearTimeout(timer));
}
