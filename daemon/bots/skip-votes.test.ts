import { describe, expect, it } from 'vitest';
import { SkipVotes, votesNeeded } from './skip-votes';

describe('votesNeeded', () => {
  it('is the ratio of the people, rounded up, at least one', () => {
    expect(votesNeeded(3, 0.5)).toBe(2);
    expect(votesNeeded(4, 0.5)).toBe(2);
    expect(votesNeeded(10, 0.7)).toBe(7);
    expect(votesNeeded(1, 0.5)).toBe(1);
    expect(votesNeeded(0, 0.5)).toBe(1);
    expect(votesNeeded(5, 0)).toBe(1);
    expect(votesNeeded(5, 1)).toBe(5);
  });
});

describe('SkipVotes', () => {
  it('counts each voter once per play and starts over for the next play', () => {
    const votes = new SkipVotes();
    const first = {};
    expect(votes.cast(first, { kind: 'channel', id: 'a' })).toBe(true);
    expect(votes.cast(first, { kind: 'channel', id: 'a' })).toBe(false);
    // The same id from the web is another identity.
    expect(votes.cast(first, { kind: 'web', id: 'a' })).toBe(true);
    expect(votes.tally(first, 3, 0.5)).toEqual({ votes: 2, needed: 2 });
    const second = {};
    expect(votes.tally(second, 3, 0.5)).toEqual({ votes: 0, needed: 2 });
    expect(votes.tally(undefined, 3, 0.5)).toEqual({ votes: 0, needed: 0 });
  });

  it('clears every vote when a channel voter is gone, not when someone else leaves', () => {
    const votes = new SkipVotes();
    const play = {};
    votes.cast(play, { kind: 'channel', id: 'a' });
    votes.cast(play, { kind: 'web', id: 'w' });
    expect(votes.clearIfVoterLeft(new Set(['a']))).toBe(false);
    expect(votes.tally(play, 1, 0.5).votes).toBe(2);
    expect(votes.clearIfVoterLeft(new Set(['b']))).toBe(true);
    expect(votes.tally(play, 1, 0.5).votes).toBe(0);
  });
});
