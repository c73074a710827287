/**
 * A player's lookahead of encoded frames: a single-producer/single-consumer ring in a SharedArrayBuffer.
 * The audio worker (producer) writes Opus frames into it ahead of the clock; the main thread's 20 ms
 * tick (consumer) takes one per bot. No message crosses threads per frame: both sides share the memory
 * and publish their progress through two Atomics counters.
 *
 * - `written` and `read` only ever grow (wrapping at 2³², compared as unsigned differences); each side
 *   writes only its own counter, so the ring needs no lock. A slot is filled before `written` moves
 *   past it and is free again only once `read` has moved past it.
 * - Every record carries the generation of the pipeline that made it (a seek or a new track starts a
 *   new one) and its sequence number within it. The consumer drops records of an older generation, so
 *   a frame encoded before a seek or skip can never reach the wire, and `flush()` (consumer side)
 *   discards everything already written at once.
 * - Every record also carries its gain epoch: a gain change re-encodes the frames of the lookahead that
 *   are not yet due, and the consumer tells a frame encoded at the old gain from its re-encoding by it.
 * - The consumer publishes the pipeline and sequence it expects next (`acknowledge`), so the producer
 *   can keep its lookahead counted in frames still to be sent, not in slots (superseded records still
 *   hold slots until the consumer reaches and drops them).
 * - A record is an audio frame, or the marker a pipeline writes after its last frame: `end`, or `joined`
 *   when the pipeline queued behind it follows at once (its records come next, in its own generation).
 */

/** The largest single-frame Opus packet: a TOC byte plus 1275 bytes of payload. */
export const MAX_OPUS_FRAME_BYTES = 1276;
/**
 * Slots in a ring: twice the largest lookahead (DEFAULT_LOOKAHEAD_FRAMES), so a lookahead's worth of
 * frames re-encoded after a gain change fits beside the superseded ones not yet dropped.
 */
export const RING_SLOTS = 16;

const WRITTEN = 0;
const READ = 1;
/** The consumer's last acknowledged pipeline generation and the sequence it expects next in it. */
const TAKEN_GENERATION = 2;
const TAKEN_NEXT = 3;
const HEADER_INTS = 4;
/** Per slot: generation, sequence, kind, byte length, gain epoch. */
const META_INTS = 5;

export type RingRecordKind = 'audio' | 'end' | 'joined';
const KIND_CODE: Record<RingRecordKind, number> = { audio: 0, end: 1, joined: 2 };
const KIND_OF_CODE: readonly RingRecordKind[] = ['audio', 'end', 'joined'];

/** What `take` copies out of the ring; one instance is reused for every take. */
export interface RingRecord {
  generation: number;
  /** The gain epoch the frame was encoded in (0 until the pipeline's first gain change). */
  epoch: number;
  sequence: number;
  kind: RingRecordKind;
  /**
   * The frame (audio records only; empty for the markers): a view of `frameBytes`, so valid until
   * the next take into this record. The clock takes thousands of frames a second; a fresh array each
   * would be memory for its thread's garbage collector to chase, pausing the clock.
   */
  opus: Uint8Array;
  /** The record's own copy of a slot's bytes, reused by every take. */
  readonly frameBytes: Uint8Array;
}

export class FrameRing {
  /** The memory to hand to the other thread: `new FrameRing(ring.buffer)` there sees the same ring. */
  readonly buffer: SharedArrayBuffer;
  private readonly header: Int32Array;
  private readonly meta: Int32Array;
  private readonly bytes: Uint8Array;
  /** Each slot's bytes as a view of its own, made once. */
  private readonly slotBytes: readonly Uint8Array[];

  constructor(buffer?: SharedArrayBuffer) {
    const metaBytes = (HEADER_INTS + RING_SLOTS * META_INTS) * Int32Array.BYTES_PER_ELEMENT;
    this.buffer = buffer ?? new SharedArrayBuffer(metaBytes + RING_SLOTS * MAX_OPUS_FRAME_BYTES);
    this.header = new Int32Array(this.buffer, 0, HEADER_INTS);
    this.meta = new Int32Array(
      this.buffer,
      HEADER_INTS * Int32Array.BYTES_PER_ELEMENT,
      RING_SLOTS * META_INTS,
    );
    this.bytes = new Uint8Array(this.buffer, metaBytes, RING_SLOTS * MAX_OPUS_FRAME_BYTES);
    this.slotBytes = Array.from({ length: RING_SLOTS }, (_, slot) =>
      this.bytes.subarray(slot * MAX_OPUS_FRAME_BYTES, (slot + 1) * MAX_OPUS_FRAME_BYTES),
    );
  }

  /** Records written and not yet taken or flushed (stale ones included). */
  get size(): number {
    return (Atomics.load(this.header, WRITTEN) - Atomics.load(this.header, READ)) >>> 0;
  }

  // ---- producer side (the audio worker) ----

  /** Appends a record; false when all slots are full. */
  put(generation: number, sequence: number, kind: RingRecordKind, opus?: Uint8Array, epoch = 0): boolean {
    const slot = this.reserve();
    if (!slot) return false;
    const length = opus?.length ?? 0;
    if (length > MAX_OPUS_FRAME_BYTES) throw new Error(`Opus frame of ${length} bytes does not fit a slot`);
    if (opus) slot.set(opus);
    this.commit(generation, sequence, kind, length, epoch);
    return true;
  }

  /**
   * The next free slot's memory, for the encoder to write a frame straight into (then `commit`), or
   * undefined when all slots are full. Nothing is published until `commit`.
   */
  reserve(): Uint8Array | undefined {
    const written = Atomics.load(this.header, WRITTEN);
    if ((written - Atomics.load(this.header, READ)) >>> 0 >= RING_SLOTS) return undefined;
    return this.slotBytes[(written >>> 0) % RING_SLOTS];
  }

  /** Publishes the reserved slot as the next record, holding `length` bytes of it. */
  commit(generation: number, sequence: number, kind: RingRecordKind, length: number, epoch = 0): void {
    const written = Atomics.load(this.header, WRITTEN);
    const meta = ((written >>> 0) % RING_SLOTS) * META_INTS;
    this.meta[meta] = generation;
    this.meta[meta + 1] = sequence;
    this.meta[meta + 2] = KIND_CODE[kind];
    this.meta[meta + 3] = length;
    this.meta[meta + 4] = epoch;
    // The store publishes the slot: Atomics order it after the plain writes above.
    Atomics.store(this.header, WRITTEN, (written + 1) | 0);
  }

  /**
   * The sequence the consumer expects next in pipeline `generation`, or undefined until it has taken
   * a frame of that pipeline.
   */
  consumerNext(generation: number): number | undefined {
    // The generation is stored after the sequence it goes with, and read here before it.
    if (Atomics.load(this.header, TAKEN_GENERATION) !== generation) return undefined;
    return Atomics.load(this.header, TAKEN_NEXT);
  }

  // ---- consumer side (the main thread) ----

  /**
   * Takes the oldest record into `into` and returns true, or returns false when the ring is empty.
   */
  take(into: RingRecord): boolean {
    if (!this.peek(into)) return false;
    this.skip();
    return true;
  }

  /**
   * Copies the oldest record into `into` without taking it (so its packet can be built before its
   * tick), or returns false when the ring is empty.
   */
  peek(into: RingRecord): boolean {
    const read = Atomics.load(this.header, READ);
    if (Atomics.load(this.header, WRITTEN) === read) return false;
    const slot = (read >>> 0) % RING_SLOTS;
    const meta = slot * META_INTS;
    into.generation = this.meta[meta] ?? 0;
    into.sequence = this.meta[meta + 1] ?? 0;
    into.epoch = this.meta[meta + 4] ?? 0;
    into.kind = KIND_OF_CODE[this.meta[meta + 2] ?? 0] ?? 'audio';
    const start = slot * MAX_OPUS_FRAME_BYTES;
    const length = this.meta[meta + 3] ?? 0;
    // A plain loop: a few hundred bytes, and `set` would want a view of the slot made for each take.
    for (let i = 0; i < length; i++) into.frameBytes[i] = this.bytes[start + i] ?? 0;
    into.opus = into.frameBytes.subarray(0, length);
    return true;
  }

  /** Drops the oldest record, if there is one. */
  skip(): void {
    const read = Atomics.load(this.header, READ);
    if (Atomics.load(this.header, WRITTEN) !== read) Atomics.store(this.header, READ, (read + 1) | 0);
  }

  /** Tells the producer the consumer now expects `nextSequence` of pipeline `generation`. */
  acknowledge(generation: number, nextSequence: number): void {
    Atomics.store(this.header, TAKEN_NEXT, nextSequence);
    Atomics.store(this.header, TAKEN_GENERATION, generation);
  }

  /** Drops the records at the head that belong to another generation than `generation`. */
  dropStale(generation: number): void {
    for (;;) {
      const read = Atomics.load(this.header, READ);
      if (Atomics.load(this.header, WRITTEN) === read) return;
      if (this.meta[((read >>> 0) % RING_SLOTS) * META_INTS] === generation) return;
      Atomics.store(this.header, READ, (read + 1) | 0);
    }
  }

  /** Discards everything written so far (a seek, a skip or a stop). */
  flush(): void {
    Atomics.store(this.header, READ, Atomics.load(this.header, WRITTEN));
  }
}

export const newRingRecord = (): RingRecord => ({
  generation: 0,
  epoch: 0,
  sequence: 0,
  kind: 'audio',
  opus: new Uint8Array(0),
  frameBytes: new Uint8Array(MAX_OPUS_FRAME_BYTES),
});
