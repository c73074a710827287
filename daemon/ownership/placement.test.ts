import { describe, expect, it } from 'vitest';
import { assignOrphans, fairShare } from './placement';

const count = (plan: Map<string, string>, daemonId: string) =>
  [...plan.values()].filter((owner) => owner === daemonId).length;
const bots = (n: number) => Array.from({ length: n }, (_, i) => `bot-${i}`);

describe('placement of orphaned bots', () => {
  it('fills the least-loaded daemons first', () => {
    const plan = assignOrphans(
      bots(4),
      new Map([
        ['a', 3],
        ['b', 0],
        ['c', 1],
      ]),
    );
    expect(count(plan, 'b')).toBe(3);
    expect(count(plan, 'c')).toBe(1);
    expect(count(plan, 'a')).toBe(0);
  });

  it('spreads a batch over equally loaded daemons instead of piling it on one', () => {
    const plan = assignOrphans(
      bots(9),
      new Map([
        ['a', 0],
        ['b', 0],
        ['c', 0],
      ]),
    );
    expect([count(plan, 'a'), count(plan, 'b'), count(plan, 'c')]).toEqual([3, 3, 3]);
  });

  it('gives the same answer to every daemon, whatever order they list things in', () => {
    const one = assignOrphans(
      bots(7),
      new Map([
        ['a', 1],
        ['b', 2],
      ]),
    );
    const other = assignOrphans(
      bots(7).reverse(),
      new Map([
        ['b', 2],
        ['a', 1],
      ]),
    );
    expect(other).toEqual(one);
  });

  it('places nothing when no daemon is live', () => {
    expect(assignOrphans(bots(2), new Map()).size).toBe(0);
  });

  it('rounds the fair share up', () => {
    expect(fairShare(5, 2)).toBe(3);
    expect(fairShare(4, 2)).toBe(2);
    expect(fairShare(3, 0)).toBe(3);
  });
});
