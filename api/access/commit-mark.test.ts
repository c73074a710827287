import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { commitMark } from './commit-mark';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A database file with a table, in the journal mode given, and a writer connection to it. */
function databaseFile(journalMode: 'WAL' | 'DELETE') {
  const dir = mkdtempSync(join(tmpdir(), 'commit-mark-'));
  dirs.push(dir);
  const file = join(dir, 'db.sqlite');
  const writer = new Database(file);
  writer.exec(`PRAGMA journal_mode = ${journalMode}; CREATE TABLE t (n INTEGER)`);
  return { file, writer };
}

describe('commit mark', () => {
  for (const journalMode of ['WAL', 'DELETE'] as const) {
    it(`moves after each commit of another connection and only then (${journalMode})`, () => {
      const { file, writer } = databaseFile(journalMode);
      const reader = new Database(file);
      const mark = commitMark(reader, file);
      const first = mark();
      expect(mark()).toBe(first);
      writer.exec('INSERT INTO t VALUES (1)');
      const second = mark();
      expect(second).not.toBe(first);
      expect(mark()).toBe(second);
      // A transaction that commits nothing moves nothing; one that commits does.
      writer.exec('BEGIN; SELECT * FROM t; COMMIT');
      expect(mark()).toBe(second);
      writer.exec('BEGIN; UPDATE t SET n = 2; COMMIT');
      expect(mark()).not.toBe(second);
    });
  }

  it('moves when a checkpoint resets the WAL and the next commit starts it again', () => {
    const { file, writer } = databaseFile('WAL');
    const reader = new Database(file);
    const mark = commitMark(reader, file);
    writer.exec('INSERT INTO t VALUES (1)');
    const before = mark();
    writer.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    writer.exec('INSERT INTO t VALUES (2)');
    expect(mark()).not.toBe(before);
  });

  it("sees a commit made through another process's connection", () => {
    const { file } = databaseFile('WAL');
    const reader = new Database(file);
    const mark = commitMark(reader, file);
    const before = mark();
    execFileSync(process.execPath, [
      '-e',
      `const D = require('libsql'); new D(${JSON.stringify(file)}).exec('INSERT INTO t VALUES (3)')`,
    ]);
    expect(mark()).not.toBe(before);
  });
});
