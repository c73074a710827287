import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FFMPEG_NOT_FOUND, FFPROBE_NOT_FOUND, locateFfmpeg, locateFfprobe } from './ffmpeg-locator';

/** Where the Debian ffmpeg package installs its programs (the test machines have it). */
const FFMPEG = '/usr/bin/ffmpeg';
const FFPROBE = '/usr/bin/ffprobe';
const noStatic = () => undefined;

describe('locateFfmpeg', () => {
  it('uses FFMPEG_PATH first', () => {
    const found = locateFfmpeg({
      configuredPath: FFMPEG,
      searchPath: '',
      resolveStaticBinary: () => '/elsewhere',
    });
    expect(found).toEqual({ ok: true, value: FFMPEG });
  });

  it('gives the clear error when FFMPEG_PATH points at nothing, without falling back', () => {
    const found = locateFfmpeg({ configuredPath: '/nonexistent/ffmpeg', searchPath: '/usr/bin' });
    expect(found.ok).toBe(false);
    if (!found.ok) {
      expect(found.error).toContain(FFMPEG_NOT_FOUND);
      expect(found.error).toContain('/nonexistent/ffmpeg');
    }
  });

  it('rejects a directory in FFMPEG_PATH', () => {
    expect(locateFfmpeg({ configuredPath: '/usr/bin', searchPath: '' }).ok).toBe(false);
  });

  it('takes the ffmpeg-static binary when the package gives a path that exists', () => {
    const found = locateFfmpeg({
      configuredPath: undefined,
      searchPath: '',
      resolveStaticBinary: () => FFMPEG,
    });
    expect(found).toEqual({ ok: true, value: FFMPEG });
  });

  it('skips an ffmpeg-static path whose download never happened and searches PATH', () => {
    const found = locateFfmpeg({
      configuredPath: undefined,
      searchPath: '/nonexistent:/usr/bin',
      resolveStaticBinary: () => '/missing/ffmpeg',
    });
    expect(found).toEqual({ ok: true, value: FFMPEG });
  });

  it('copes with ffmpeg-static not being installed at all', () => {
    expect(locateFfmpeg({ configuredPath: undefined, searchPath: '/usr/bin' })).toEqual({
      ok: true,
      value: FFMPEG,
    });
  });

  it('reports the clear error when nothing is found', () => {
    expect(
      locateFfmpeg({ configuredPath: undefined, searchPath: '/nonexistent', resolveStaticBinary: noStatic }),
    ).toEqual({
      ok: false,
      error: FFMPEG_NOT_FOUND,
    });
  });
});

describe('locateFfprobe', () => {
  it('takes the ffprobe beside the ffmpeg found', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ffprobe-locator-'));
    try {
      symlinkSync(FFMPEG, join(dir, 'ffmpeg'));
      symlinkSync(FFPROBE, join(dir, 'ffprobe'));
      const found = locateFfprobe({ configuredPath: join(dir, 'ffmpeg'), searchPath: '/usr/bin' });
      expect(found).toEqual({ ok: true, value: join(dir, 'ffprobe') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('falls back to PATH when the ffmpeg found has no ffprobe beside it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ffprobe-locator-'));
    try {
      symlinkSync(FFMPEG, join(dir, 'ffmpeg'));
      const found = locateFfprobe({
        configuredPath: undefined,
        searchPath: '/usr/bin',
        resolveStaticBinary: () => join(dir, 'ffmpeg'),
      });
      expect(found).toEqual({ ok: true, value: FFPROBE });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports the clear error when there is none', () => {
    expect(
      locateFfprobe({ configuredPath: undefined, searchPath: '/nonexistent', resolveStaticBinary: noStatic }),
    ).toEqual({
      ok: false,
      error: FFPROBE_NOT_FOUND,
    });
  });
});
