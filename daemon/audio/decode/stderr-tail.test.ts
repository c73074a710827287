import { describe, expect, it } from 'vitest';
import { STDERR_TAIL_BYTES, StderrTail } from './stderr-tail';

describe('StderrTail', () => {
  it('keeps only the last 8 KB', () => {
    const tail = new StderrTail();
    for (let i = 0; i < 100; i++) tail.append(Buffer.from(`line ${i} ${'x'.repeat(200)}\n`));
    const text = tail.text();
    expect(text.length).toBe(STDERR_TAIL_BYTES);
    expect(text.endsWith(`line 99 ${'x'.repeat(200)}\n`)).toBe(true);
    expect(text).not.toContain('line 0 ');
  });

  it('summarises ffmpeg’s verdict (last line) and its cause (the line before)', () => {
    const tail = new StderrTail();
    tail.append(
      Buffer.from('noise\n[mp3 @ 0x55b844c9d880] Failed to read frame size\r\n/tmp/a.mp3: Invalid'),
    );
    tail.append(Buffer.from(' argument\n\n'));
    expect(tail.summary()).toBe('/tmp/a.mp3: Invalid argument ([mp3] Failed to read frame size)');
  });

  it('summarises a single line alone, and nothing as empty', () => {
    const tail = new StderrTail();
    expect(tail.summary()).toBe('');
    tail.append(Buffer.from('x.ogg: No such file or directory\n'));
    expect(tail.summary()).toBe('x.ogg: No such file or directory');
  });

  it('never hands out a URL query, where platforms put tokens', () => {
    const tail = new StderrTail();
    tail.append(
      Buffer.from(
        '[http @ 0x1] HTTP error 401\nhttp://jf.local:8096/Audio/ab/stream?static=true&ApiKey=s3cret: Server returned 401\n',
      ),
    );
    expect(tail.summary()).toBe(
      'http://jf.local:8096/Audio/ab/stream?…: Server returned 401 ([http] HTTP error 401)',
    );
    expect(tail.text()).not.toContain('s3cret');
  });
});
