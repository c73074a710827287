import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { EntersStateError, entersState } from './enters-state';

type S = { status: 'a' } | { status: 'b' } | { status: 'c' };

class Machine extends EventEmitter<{ stateChange: [S, S] }> {
  state: S = { status: 'a' };
  set(to: S): void {
    const from = this.state;
    this.state = to;
    this.emit('stateChange', from, to);
  }
}

describe('entersState', () => {
  it('resolves at once when already there, and when the status is entered', async () => {
    const m = new Machine();
    await entersState(m, 'a', 10);
    const waiting = entersState(m, 'b', 1000);
    m.set({ status: 'b' });
    await waiting;
    expect(m.listenerCount('stateChange')).toBe(0);
  });

  it('rejects on the deadline and on a failing status', async () => {
    const m = new Machine();
    await expect(entersState(m, 'b', 20)).rejects.toMatchObject({ kind: 'timeout' });
    const failing = entersState(m, 'b', 1000, ['c']);
    m.set({ status: 'c' });
    await expect(failing).rejects.toBeInstanceOf(EntersStateError);
    expect(m.listenerCount('stateChange')).toBe(0);
  });
});
