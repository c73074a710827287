/**
 * Another process holding the database's write lock for a while, as a second api or daemon in the
 * middle of a long write would: a node child with its own libSQL connection that begins a write
 * transaction, says so, and rolls it back after `forMs`. It must be another process and must let go
 * on its own clock: the local libSQL client waits for a lock synchronously, so while the app under
 * test waits, nothing else in the test's process runs.
 */
import { spawn } from 'node:child_process';

const HOLDER = `
import { createClient } from '@libsql/client';
const client = createClient({ url: process.env.DB_URL });
const tx = await client.transaction('write');
process.stdout.write('locked\\n');
setTimeout(async () => {
  await tx.rollback();
  client.close();
  process.exit(0);
}, Number(process.env.HOLD_MS));
`;

/** Resolves once the lock is held; `released` resolves when the holder has let go and exited. */
export async function holdWriteLock(
  databaseUrl: string,
  forMs: number,
): Promise<{ released: Promise<void> }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', HOLDER], {
    env: { ...process.env, DB_URL: databaseUrl, HOLD_MS: String(forMs) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const released = new Promise<void>((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`the lock holder failed (${code}): ${errors}`)),
    ),
  );
  // Handled here too, so a holder failing before the test awaits it is not an unhandled rejection.
  released.catch(() => undefined);
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    released.catch(reject);
  });
  return { released };
}
