import { describe, expect, it } from 'vitest';
import { FrameRing, MAX_OPUS_FRAME_BYTES, newRingRecord, RING_SLOTS } from './frame-ring';

const frame = (n: number) => Uint8Array.of(n, n + 1, n + 2);

describe('FrameRing', () => {
  it('hands records over in order, with their generation, sequence and bytes', () => {
    const ring = new FrameRing();
    expect(ring.put(1, 0, 'audio', frame(10))).toBe(true);
    expect(ring.put(1, 1, 'audio', frame(20))).toBe(true);
    expect(ring.put(1, 2, 'end')).toBe(true);
    expect(ring.size).toBe(3);
    const record = newRingRecord();
    const taken = [];
    while (ring.take(record)) {
      const { generation, sequence, kind, opus } = record;
      taken.push({ generation, sequence, kind, opus: [...opus] });
    }
    expect(taken).toEqual([
      { generation: 1, sequence: 0, kind: 'audio', opus: [10, 11, 12] },
      { generation: 1, sequence: 1, kind: 'audio', opus: [20, 21, 22] },
      { generation: 1, sequence: 2, kind: 'end', opus: [] },
    ]);
    expect(ring.size).toBe(0);
  });

  it('lets the consumer look at the oldest record without taking it, and skip it', () => {
    const ring = new FrameRing();
    ring.put(1, 0, 'audio', frame(10));
    ring.put(1, 1, 'audio', frame(20));
    const record = newRingRecord();
    expect(ring.peek(record)).toBe(true);
    expect([record.sequence, ...record.opus]).toEqual([0, 10, 11, 12]);
    expect(ring.peek(record)).toBe(true);
    expect(record.sequence).toBe(0);
    expect(ring.size).toBe(2);
    ring.skip();
    expect(ring.take(record)).toBe(true);
    expect([record.sequence, ...record.opus]).toEqual([1, 20, 21, 22]);
    expect(ring.peek(record)).toBe(false);
    ring.skip();
    expect(ring.size).toBe(0);
  });

  it('refuses to overwrite: a full ring says no until a record is taken', () => {
    const ring = new FrameRing();
    for (let i = 0; i < RING_SLOTS; i++) expect(ring.put(1, i, 'audio', frame(i))).toBe(true);
    expect(ring.put(1, RING_SLOTS, 'audio', frame(99))).toBe(false);
    const record = newRingRecord();
    expect(ring.take(record)).toBe(true);
    expect(record.sequence).toBe(0);
    expect(ring.put(1, RING_SLOTS, 'audio', frame(99))).toBe(true);
  });

  it('copies a taken frame out of the ring: puts cannot change it before the next take', () => {
    const ring = new FrameRing();
    const record = newRingRecord();
    ring.put(1, 0, 'audio', frame(1));
    ring.take(record);
    const sent = record.opus;
    for (let i = 0; i < RING_SLOTS; i++) ring.put(1, i + 1, 'audio', frame(50));
    expect([...sent]).toEqual([1, 2, 3]);
    ring.take(record);
    expect([...record.opus]).toEqual([50, 51, 52]);
  });

  it('flush drops everything written; dropStale drops only older generations at the head', () => {
    const ring = new FrameRing();
    const record = newRingRecord();
    ring.put(1, 0, 'audio', frame(1));
    ring.put(1, 1, 'audio', frame(2));
    ring.flush();
    expect(ring.take(record)).toBe(false);
    ring.put(1, 2, 'audio', frame(3));
    ring.put(2, 0, 'audio', frame(4));
    ring.dropStale(2);
    expect(ring.size).toBe(1);
    expect(ring.take(record)).toBe(true);
    expect(record).toMatchObject({ generation: 2, sequence: 0 });
  });

  it('is shared through its buffer: a second view (the other thread) sees the same records', () => {
    const producer = new FrameRing();
    const consumer = new FrameRing(producer.buffer);
    producer.put(7, 0, 'audio', frame(5));
    const record = newRingRecord();
    expect(consumer.take(record)).toBe(true);
    expect(record.generation).toBe(7);
    expect(producer.size).toBe(0);
  });

  it('carries the gain epoch of each record, and tells the producer what the consumer expects next', () => {
    const producer = new FrameRing();
    const consumer = new FrameRing(producer.buffer);
    expect(producer.consumerNext(4)).toBeUndefined();
    producer.put(4, 0, 'audio', frame(1));
    producer.put(4, 1, 'audio', frame(2), 1);
    const record = newRingRecord();
    consumer.take(record);
    expect(record).toMatchObject({ generation: 4, sequence: 0, epoch: 0 });
    consumer.acknowledge(4, 1);
    consumer.take(record);
    expect(record).toMatchObject({ generation: 4, sequence: 1, epoch: 1 });
    consumer.acknowledge(4, 2);
    expect(producer.consumerNext(4)).toBe(2);
    // Another pipeline's producer learns nothing from it.
    expect(producer.consumerNext(5)).toBeUndefined();
  });

  it('keeps working when its counters wrap around 2³²', () => {
    const ring = new FrameRing();
    // Both counters just below the signed 32-bit limit, as after ~1.4 years of continuous audio.
    const header = new Int32Array(ring.buffer, 0, 2);
    header[0] = 2 ** 31 - 2;
    header[1] = 2 ** 31 - 2;
    const record = newRingRecord();
    for (let i = 0; i < 20; i++) {
      expect(ring.put(3, i, 'audio', frame(i))).toBe(true);
      expect(ring.size).toBe(1);
      expect(ring.take(record)).toBe(true);
      expect(record.sequence).toBe(i);
    }
  });

  it('refuses a frame larger than a slot', () => {
    expect(() => new FrameRing().put(1, 0, 'audio', new Uint8Array(MAX_OPUS_FRAME_BYTES + 1))).toThrow(
      /does not fit/,
    );
  });
});
