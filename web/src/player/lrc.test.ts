import { describe, expect, it } from 'vitest';
import { lineAt, parseLrc } from './lrc';

describe('LRC lyrics', () => {
  const lines = parseLrc(
    '[ti:Song]\n[00:01.50]First line\n[00:01.50]第一行\n[00:05.00][01:05.00]Chorus\n[00:03]Second\n\n[00:04.00]',
  );

  it('orders lines by time, pairs a translation with its time tag and repeats multi-tag lines', () => {
    expect(lines).toEqual([
      { seconds: 1.5, text: 'First line', translation: '第一行' },
      { seconds: 3, text: 'Second' },
      { seconds: 5, text: 'Chorus' },
      { seconds: 65, text: 'Chorus' },
    ]);
  });

  it('finds the line playing at a position', () => {
    expect(lineAt(lines, 0)).toBe(-1);
    expect(lineAt(lines, 1.5)).toBe(0);
    expect(lineAt(lines, 4.9)).toBe(1);
    expect(lineAt(lines, 70)).toBe(3);
  });
});
