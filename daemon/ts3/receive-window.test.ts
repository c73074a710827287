import { describe, expect, it } from 'vitest';
import { ReceiveWindow, SendCounter } from './receive-window';

describe('packet ids and generations', () => {
  it('wraps the send counter into the next generation at id 0', () => {
    const c = new SendCounter(65534);
    expect(c.take()).toEqual({ id: 65534, generation: 0 });
    expect(c.take()).toEqual({ id: 65535, generation: 0 });
    expect(c.take()).toEqual({ id: 0, generation: 1 });
    expect(c.take()).toEqual({ id: 1, generation: 1 });
  });

  it('locates ids around a wrap', () => {
    const w = new ReceiveWindow(65530);
    expect(w.locate(65530)).toEqual({ generation: 0, ahead: 0 });
    expect(w.locate(2)).toEqual({ generation: 1, ahead: 8 });
    expect(w.locate(65000).ahead).toBe(-1);
    w.passTo(65535);
    expect(w.next).toBe(0);
    expect(w.generation).toBe(1);
    expect(w.locate(0)).toEqual({ generation: 1, ahead: 0 });
    expect(w.locate(65535)).toEqual({ generation: 0, ahead: -1 });
  });
});
