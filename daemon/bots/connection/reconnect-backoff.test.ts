import { describe, expect, it } from 'vitest';
import { reconnectDelayMs } from './reconnect-backoff';

describe('reconnectDelayMs', () => {
  it('doubles from 1 s and stops at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map((attempt) => reconnectDelayMs(attempt))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('follows a custom base and ceiling', () => {
    expect(reconnectDelayMs(2, { baseMs: 100, maxMs: 250 })).toBe(250);
    expect(reconnectDelayMs(1, { baseMs: 100, maxMs: 250 })).toBe(200);
  });
});
