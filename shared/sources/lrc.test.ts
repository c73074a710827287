import { describe, expect, it } from 'vitest';
import { lineAt, mergeLyrics, parseLrc } from './lrc';

describe('LRC', () => {
  const lines = parseLrc(
    '[ti:Song]\n[00:01.50]First line\n[00:01.50]第一行\n[00:05.00][01:05.00]Chorus\n[00:03]Second\n\n[00:04.00]',
  );

  it('orders lines by time, pairs a translation with its time and repeats multi-tag lines', () => {
    expect(lines).toEqual([
      { seconds: 1.5, text: 'First line', translation: '第一行' },
      { seconds: 3, text: 'Second' },
      { seconds: 5, text: 'Chorus' },
      { seconds: 65, text: 'Chorus' },
    ]);
  });

  it('finds the line playing at a position', () => {
    expect([0, 1.5, 4.9, 70].map((s) => lineAt(lines, s))).toEqual([-1, 0, 1, 3]);
  });

  it('merges a translation after each original line, which parseLrc pairs back', () => {
    const merged = mergeLyrics(
      '[00:01.00]Hello\n[00:02.00]World',
      '[by:x]\n[00:01.000]你好\n[00:09.00]Orphan',
    );
    expect(merged).toBe('[00:01.00]Hello\n[00:01.00]你好\n[00:02.00]World');
    expect(parseLrc(merged!)).toEqual([
      { seconds: 1, text: 'Hello', translation: '你好' },
      { seconds: 2, text: 'World' },
    ]);
  });
});
