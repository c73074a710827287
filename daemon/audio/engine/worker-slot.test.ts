import { describe, expect, it } from 'vitest';
import { FrameRing } from './frame-ring';
import { type FillableSlot, fillBreadthFirst } from './worker-slot';

/** A slot whose "encoding" writes a numbered frame into a real ring and logs which player it served. */
class LoggingSlot implements FillableSlot {
  readonly ring = new FrameRing();
  failure: unknown;
  private sequence = 0;

  constructor(
    private readonly name: string,
    private readonly log: string[],
    private readonly breaks = false,
  ) {}

  fill(depth: number): void {
    while (this.ring.size < depth) {
      if (this.breaks) throw new Error(`${this.name} broke`);
      this.log.push(this.name);
      this.ring.put(1, this.sequence++, 'audio', Uint8Array.of(this.sequence));
    }
  }

  fail(error: unknown): void {
    this.failure = error;
  }
}

describe('fillBreadthFirst', () => {
  it('gives every player its next frame before any player a second one', () => {
    const log: string[] = [];
    const slots = new Map([1, 2, 3].map((id) => [id, new LoggingSlot(`p${id}`, log)]));
    fillBreadthFirst(slots, 3);
    expect(log).toEqual(['p1', 'p2', 'p3', 'p1', 'p2', 'p3', 'p1', 'p2', 'p3']);
    for (const slot of slots.values()) expect(slot.ring.size).toBe(3);
  });

  it('tops up only what each ring lacks (the worker was late for some players, not all)', () => {
    const log: string[] = [];
    const slots = new Map([1, 2].map((id) => [id, new LoggingSlot(`p${id}`, log)]));
    fillBreadthFirst(slots, 3);
    log.length = 0;
    slots.get(2)?.ring.flush();
    fillBreadthFirst(slots, 3);
    expect(log).toEqual(['p2', 'p2', 'p2']);
  });

  it('a slot that throws fails alone; the others are filled', () => {
    const log: string[] = [];
    const broken = new LoggingSlot('broken', log, true);
    const fine = new LoggingSlot('fine', log);
    fillBreadthFirst(
      new Map<number, LoggingSlot>([
        [1, broken],
        [2, fine],
      ]),
      2,
    );
    expect(String(broken.failure)).toContain('broken broke');
    expect(fine.ring.size).toBe(2);
  });
});
