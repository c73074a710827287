import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildFfmpegArgs, type FfmpegInput } from './ffmpeg-args';

const outputTail = ['-vn', '-f', 's16le', '-ar', '48000', '-ac', '2', 'pipe:1'];

describe('buildFfmpegArgs', () => {
  it('decodes a file to 48 kHz stereo s16le on stdout', () => {
    const args = buildFfmpegArgs({ kind: 'file', path: '/music/a.mp3' }, 0);
    expect(args.slice(-outputTail.length)).toEqual(outputTail);
    expect(args).toContain('-nostdin');
    expect(args).not.toContain('-ss');
    expect(args[args.indexOf('-i') + 1]).toBe('/music/a.mp3');
  });

  it('decodes and resamples on one thread each', () => {
    const args = buildFfmpegArgs({ kind: 'file', path: '/music/a.mp3' }, 0);
    expect(args[args.indexOf('-threads') + 1]).toBe('1');
    expect(args.indexOf('-threads')).toBeLessThan(args.indexOf('-i'));
    expect(args[args.indexOf('-filter_threads') + 1]).toBe('1');
  });

  it('seeks with -ss before -i', () => {
    const args = buildFfmpegArgs({ kind: 'file', path: 'a.flac' }, 3.5);
    expect(args.indexOf('-ss')).toBeLessThan(args.indexOf('-i'));
    expect(args[args.indexOf('-ss') + 1]).toBe('3.500');
  });

  it('cuts a preview with -t after -i, counted from the seek point', () => {
    const args = buildFfmpegArgs({ kind: 'file', path: 'a.flac' }, 10, 30);
    expect(args.indexOf('-t')).toBeGreaterThan(args.indexOf('-i'));
    expect(args[args.indexOf('-t') + 1]).toBe('20.000');
    expect(buildFfmpegArgs({ kind: 'file', path: 'a.flac' }, 40, 30)[args.indexOf('-t') + 1]).toBe('0.000');
    expect(buildFfmpegArgs({ kind: 'file', path: 'a.flac' }, 0)).not.toContain('-t');
  });

  it('reconnects dropped http streams, with no header option (headers are the relay’s)', () => {
    const args = buildFfmpegArgs({ kind: 'url', url: 'http://127.0.0.1:4000/stream/key' }, 0);
    expect(args).toContain('-reconnect');
    expect(args.indexOf('-reconnect')).toBeLessThan(args.indexOf('-i'));
    expect(args).not.toContain('-headers');
    expect(args[args.indexOf('-i') + 1]).toBe('http://127.0.0.1:4000/stream/key');
  });

  it('leaves http-only options out for other URL schemes', () => {
    expect(buildFfmpegArgs({ kind: 'url', url: 'rtmp://x/live' }, 0)).not.toContain('-reconnect');
  });

  it('reads another process’s raw PCM from stdin with its format', () => {
    const args = buildFfmpegArgs(
      { kind: 'stream', stream: new PassThrough(), rawFormat: { sampleRateHz: 44_100, channels: 2 } },
      0,
    );
    expect(args.slice(args.indexOf('-f'), args.indexOf('-i') + 2)).toEqual([
      '-f',
      's16le',
      '-ar',
      '44100',
      '-ac',
      '2',
      '-protocol_whitelist',
      'pipe',
      '-format_whitelist',
      's16le',
      '-threads',
      '1',
      '-i',
      'pipe:0',
    ]);
    expect(args).not.toContain('-nostdin');
  });

  describe('whitelists: ffmpeg reads only its input, with audio demuxers only', () => {
    const whitelists = (input: FfmpegInput) => {
      const args = buildFfmpegArgs(input, 0);
      const at = (name: string) => args.indexOf(name);
      expect(at('-protocol_whitelist')).toBeLessThan(at('-i'));
      expect(at('-format_whitelist')).toBeLessThan(at('-i'));
      return {
        protocols: args[at('-protocol_whitelist') + 1]?.split(','),
        formats: args[at('-format_whitelist') + 1]?.split(','),
      };
    };
    const NO_PLAYLISTS = ['hls', 'dash', 'concat', 'applehttp', 'mpd'];

    it('an upload: files, audio containers', () => {
      const { protocols, formats } = whitelists({ kind: 'file', path: '/music/a.mp3' });
      expect(protocols).toEqual(['file']);
      expect(formats).toEqual(expect.arrayContaining(['mp3', 'flac', 'mov', 'ogg', 'matroska']));
      for (const format of NO_PLAYLISTS) expect(formats).not.toContain(format);
    });

    it('the relay: http only, audio containers, no playlist demuxer', () => {
      const { protocols, formats } = whitelists({ kind: 'url', url: 'http://127.0.0.1:4000/stream/key' });
      expect(protocols).toEqual(['http', 'tcp']);
      for (const format of NO_PLAYLISTS) expect(formats).not.toContain(format);
    });

    it('the relay’s own HLS playlist: the hls demuxer, and crypto for AES-128 segments', () => {
      const input: FfmpegInput = { kind: 'url', url: 'http://127.0.0.1:4000/stream/key', hlsPlaylist: true };
      const { protocols, formats } = whitelists(input);
      expect(protocols).toEqual(['http', 'tcp', 'crypto']);
      expect(formats).toContain('hls');
      expect(formats).toContain('mpegts');
      expect(formats).not.toContain('dash');
    });

    it('a stream: the pipe, audio containers', () => {
      const { protocols, formats } = whitelists({ kind: 'stream', stream: new PassThrough() });
      expect(protocols).toEqual(['pipe']);
      for (const format of NO_PLAYLISTS) expect(formats).not.toContain(format);
    });
  });
});
