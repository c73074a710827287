/**
 * What a log line shows of a secret: the logger is configured and used as an entry does, in a process
 * of its own (pino writes to file descriptor 1 itself), and its JSON lines are read back.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SECRET_FIELDS = [
  'token',
  'accessToken',
  'refreshToken',
  'authorization',
  'credential',
  'cookie',
  'password',
];

function logLine(fields: object, options: object = {}): Record<string, unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'logger-'));
  const script = join(dir, 'log-once.ts');
  writeFileSync(
    script,
    [
      `import { configureLogging, logger } from ${JSON.stringify(join(import.meta.dirname, 'logger.ts'))};`,
      `configureLogging({ level: 'info', pretty: false });`,
      `logger('test', ${JSON.stringify(options)}).info(${JSON.stringify(fields)}, 'secrets');`,
    ].join('\n'),
  );
  try {
    const run = spawnSync('node', ['--import', 'tsx', script], { encoding: 'utf8', timeout: 20_000 });
    if (run.status !== 0) throw new Error(run.stderr);
    return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('logger redaction', () => {
  it('hides every secret field at the top, one level and two levels down', () => {
    const secrets = Object.fromEntries(SECRET_FIELDS.map((field) => [field, `${field}-s3cret`]));
    const line = logLine({
      ...secrets,
      platform: { ...secrets },
      session: { login: { ...secrets } },
      songId: 's1',
    });
    const redacted = Object.fromEntries(SECRET_FIELDS.map((field) => [field, '[redacted]']));
    expect(line).toMatchObject({
      ...redacted,
      platform: redacted,
      session: { login: redacted },
      songId: 's1',
      msg: 'secrets',
    });
    expect(JSON.stringify(line)).not.toContain('s3cret');
  });

  it('leaves the lines of a logger declared to carry no secrets as they are, and its siblings redacted', () => {
    const fields = { requestId: 'r1', method: 'GET', path: '/api/bot', status: 200, token: 'not-a-secret' };
    expect(logLine(fields, { noSecrets: true })).toMatchObject({ ...fields, name: 'test' });
    expect(logLine(fields)).toMatchObject({ token: '[redacted]' });
  });
});
