/**
 * Incoming packet ids of one packet type (paper §1.9): ids are u16 and wrap, and each wrap raises the
 * generation, which is never sent but feeds the key derivation. Ids in [next, next + 32767] (mod 2^16)
 * count as new; the rest as already seen.
 */
const ID_SPACE = 0x1_0000;
const HALF = 0x8000;

export interface Located {
  generation: number;
  /** How far ahead of the next expected id (0 = the expected one), or -1 if the id is older. */
  ahead: number;
}

export class ReceiveWindow {
  next: number;
  generation = 0;

  constructor(start: number) {
    this.next = start;
  }

  locate(id: number): Located {
    const diff = (id - this.next + ID_SPACE) % ID_SPACE;
    if (diff < HALF) return { generation: this.generation + (id < this.next ? 1 : 0), ahead: diff };
    return { generation: Math.max(0, this.generation - (id > this.next ? 1 : 0)), ahead: -1 };
  }

  /** Moves past `id` (which must be new). */
  passTo(id: number): void {
    const { generation } = this.locate(id);
    this.next = (id + 1) % ID_SPACE;
    this.generation = this.next === 0 ? generation + 1 : generation;
  }
}

/** Outgoing counter of one packet type: the new generation already applies to the packet with id 0. */
export class SendCounter {
  id: number;
  generation = 0;

  constructor(start: number) {
    this.id = start;
  }

  /** The id and generation the next `take` answers, without taking them. */
  peek(): { id: number; generation: number } {
    return { id: this.id, generation: this.generation };
  }

  take(): { id: number; generation: number } {
    const taken = { id: this.id, generation: this.generation };
    this.id = (this.id + 1) % ID_SPACE;
    if (this.id === 0) this.generation++;
    return taken;
  }
}
