/**
 * An upload's loudness (issue 39), through the real app with the real ffmpeg and ffprobe: ReplayGain
 * or R128 tags are taken as they are, any other file is measured once after the upload was answered,
 * the figure is stored with the upload and the local source hands it to the bot with the stream.
 * Uploads stored before this have none, and a file or row deleted while it waits for its measurement
 * is skipped without a fault.
 */
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uploads } from '../../shared/db/schema';
import { LocalSource, UPLOADS_DIR } from '../../shared/sources/local/local-source';
import { UploadLoudnessMeter } from '../../shared/sources/local/upload-loudness';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { makeTempDir, type TempDir } from '../../testkit/audio-signals';
import { startTestApp, type TestApp } from '../../testkit/test-app';
import { addToneUpload } from '../../testkit/tone-uploads';
import { FFMPEG, type SineFile, sendUpload, stereoSine } from './media-files';

let t: TestApp;
let admin: Session;
let media: TempDir;

beforeAll(async () => {
  t = await startTestApp({ withDaemon: false });
  admin = await setupAdmin(t);
  media = makeTempDir('upload-loudness-');
});
afterAll(async () => {
  await t.close();
  media.remove();
});

/** A 3 s stereo sine at -20 dBFS: 20·log10(0.1) = -20 LUFS when measured (media-files.ts). */
const MINUS_20 = { amplitude: 0.1, seconds: 3 };

async function uploadSine(name: string, file: SineFile): Promise<string> {
  const res = await sendUpload(
    t,
    { name, bytes: stereoSine(media.path, file), contentType: 'application/octet-stream' },
    admin.jar,
  );
  expect(res.status, res.error).toBe(200);
  return res.song!.id;
}

const loudnessRow = async (id: string) => {
  const row = await t.db.query.uploads.findFirst({ where: eq(uploads.id, id) });
  return row && { lufs: row.loudnessLufs, peakDb: row.loudnessPeakDb, source: row.loudnessSource };
};
/** Within 0.3 LU (dB) of the figure BS.1770 gives the sine. */
const expectAbout = (value: number | null | undefined, expected: number) => {
  expect(value).toBeGreaterThan(expected - 0.3);
  expect(value).toBeLessThan(expected + 0.3);
};
const measured = (id: string) =>
  vi.waitFor(
    async () => {
      const row = await loudnessRow(id);
      if (row?.source !== 'measured') throw new Error(`upload ${id} not measured yet`);
      return row;
    },
    { timeout: 20_000, interval: 100 },
  );
const resolvedLoudness = async (id: string) => {
  const resolved = await new LocalSource(t.db, t.dataDir).resolveStream({ id, platform: 'local' });
  if (!resolved.ok) throw new Error(resolved.error);
  return resolved.value.loudness;
};

describe('an upload without loudness tags', () => {
  it('is measured after the answer, and the stream carries the measured figure', async () => {
    const id = await uploadSine('plain.wav', { ...MINUS_20, extension: 'wav' });
    const row = await measured(id);
    expectAbout(row.lufs, -20);
    expectAbout(row.peakDb, -20);
    expect(await resolvedLoudness(id)).toEqual({
      integratedLufs: row.lufs,
      peakDb: row.peakDb,
      source: 'measured',
    });
  });

  it('with a ReplayGain tag that does not parse is measured as if it had none', async () => {
    const id = await uploadSine('broken-tag.flac', {
      ...MINUS_20,
      extension: 'flac',
      tags: { REPLAYGAIN_TRACK_GAIN: 'loud', REPLAYGAIN_TRACK_PEAK: '0.5' },
    });
    expectAbout((await measured(id)).lufs, -20);
  });
});

describe('an upload with loudness tags', () => {
  it('stores the ReplayGain figure at once, is never measured, and the stream carries it', async () => {
    // The tags say -18 - (-6.12) = -11.88 LUFS; measured, the file would read -20.
    const tagged = await uploadSine('replaygain.flac', {
      ...MINUS_20,
      extension: 'flac',
      tags: { REPLAYGAIN_TRACK_GAIN: '-6.12 dB', REPLAYGAIN_TRACK_PEAK: '0.5' },
    });
    const expected = { lufs: -18 + 6.12, peakDb: 20 * Math.log10(0.5), source: 'tags' };
    expect(await loudnessRow(tagged)).toEqual(expected);
    // Measurements run one at a time in upload order: once a later upload is measured, any of the
    // tagged one would have ended too.
    await measured(await uploadSine('after.wav', { ...MINUS_20, extension: 'wav' }));
    expect(await loudnessRow(tagged)).toEqual(expected);
    expect(await resolvedLoudness(tagged)).toEqual({
      integratedLufs: expected.lufs,
      peakDb: expected.peakDb,
      source: 'tags',
    });
  });

  it('reads an Opus R128 track gain written in lower case, without a peak', async () => {
    const id = await uploadSine('r128.opus', {
      ...MINUS_20,
      extension: 'opus',
      tags: { r128_track_gain: '-1234' },
    });
    expect(await resolvedLoudness(id)).toEqual({ integratedLufs: -23 + 1234 / 256, source: 'tags' });
  });
});

describe('uploads the figure is not known for', () => {
  it('an upload stored before loudness was kept resolves without one', async () => {
    const song = await addToneUpload(t.db, t.dataDir, 'older', [{ frequencyHz: 997, seconds: 1 }]);
    const resolved = await new LocalSource(t.db, t.dataDir).resolveStream({ id: song.id, platform: 'local' });
    expect(resolved.ok && resolved.value).toEqual({ input: { kind: 'file', path: expect.any(String) } });
  });

  it('a file or row deleted before its measurement is skipped, and the next one is still measured', async () => {
    const meter = new UploadLoudnessMeter(t.db, t.dataDir);
    const storedOf = async (name: string) => {
      const song = await addToneUpload(t.db, t.dataDir, name, [{ frequencyHz: 997, seconds: 2 }]);
      const row = await t.db.query.uploads.findFirst({ where: eq(uploads.id, song.id) });
      return row!;
    };
    const fileGone = await storedOf('file gone');
    unlinkSync(join(t.dataDir, UPLOADS_DIR, fileGone.storedName));
    const rowGone = await storedOf('row gone');
    await t.db.delete(uploads).where(eq(uploads.id, rowGone.id));
    const kept = await storedOf('kept');

    for (const upload of [fileGone, rowGone, kept]) meter.measureLater(FFMPEG, upload);
    await meter.idle();

    expect(await loudnessRow(fileGone.id)).toEqual({ lufs: null, peakDb: null, source: null });
    expect(await loudnessRow(rowGone.id)).toBeUndefined();
    // addToneUpload's default amplitude is 0.5 in both channels: 20·log10(0.5) ≈ -6 LUFS.
    expectAbout((await loudnessRow(kept.id))?.lufs, 20 * Math.log10(0.5));
  });
});
