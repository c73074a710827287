import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../../shared/logger';
import { ok } from '../../shared/result';
import type { MusicSource, PlaybackReport } from '../../shared/sources/music-source';
import { SourceRegistry } from '../../shared/sources/source-registry';
import { PlaybackReporter, PROGRESS_INTERVAL_MS } from './playback-reporter';

const song = (platform: 'library_a' | 'local', id = 'track-1') => ({
  id,
  name: 'Song',
  artist: '',
  album: '',
  duration: 60,
  coverUrl: '',
  platform,
});

describe('PlaybackReporter', () => {
  let reports: PlaybackReport[];
  let position = { seconds: 0, paused: false };
  let reporter: PlaybackReporter;

  beforeEach(() => {
    vi.useFakeTimers();
    reports = [];
    const reporting: MusicSource = {
      platform: 'library_a',
      resolveStream: async () => ok({ input: { kind: 'file', path: '/dev/null' } }),
      reportPlayback: async (report) => void reports.push(report),
    };
    const silent: MusicSource = { platform: 'local', resolveStream: reporting.resolveStream };
    reporter = new PlaybackReporter(new SourceRegistry([reporting, silent]), () => position, logger('test'));
  });
  afterEach(() => vi.useRealTimers());

  it('reports start, progress every 10 s and stop with the last position', () => {
    reporter.trackStarted(song('library_a'));
    position = { seconds: 10, paused: false };
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    position = { seconds: 14, paused: true };
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    reporter.finish();
    reporter.finish();
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS * 3);
    expect(reports).toEqual([
      { kind: 'started', songId: 'track-1' },
      { kind: 'progress', songId: 'track-1', positionSeconds: 10, paused: false },
      { kind: 'progress', songId: 'track-1', positionSeconds: 14, paused: true },
      { kind: 'stopped', songId: 'track-1', positionSeconds: 14 },
    ]);
  });

  it('stops the previous track when the next starts, and ignores sources that do not report', () => {
    reporter.trackStarted(song('library_a', 'a'));
    reporter.trackStarted(song('local', 'b'));
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS * 2);
    expect(reports).toEqual([
      { kind: 'started', songId: 'a' },
      { kind: 'stopped', songId: 'a', positionSeconds: 0 },
    ]);
  });
});
