import { describe, expect, it } from 'vitest';
import { segmentOrder } from './bench-media';

describe('segmentOrder', () => {
  it('gives each of 156 bots its own order of segments', () => {
    const orders = Array.from({ length: 156 }, (_, index) => segmentOrder(index, 4).join(','));
    expect(new Set(orders).size).toBe(156);
  });

  it('walks all 13 segments before repeating one', () => {
    expect(new Set(segmentOrder(40, 13)).size).toBe(13);
  });
});
