/**
 * `make backup [TO=folder]`: a consistent snapshot of DATA_DIR's database and uploads while the service
 * runs (shared/backup/take-snapshot.ts), in a new `snapshot-<UTC time>` folder under TO (`backups`).
 */
import { SnapshotError } from '../shared/backup/snapshot-manifest';
import { takeSnapshot } from '../shared/backup/take-snapshot';
import { loadConfig } from '../shared/config';

const config = loadConfig(process.env);
const into = process.argv[2] || 'backups';
try {
  const { folder, manifest } = await takeSnapshot(config, into);
  console.log(
    `Snapshot written to ${folder}: the database (schema ${manifest.schemaVersion ?? 'empty'}) and ${manifest.uploads.length} upload(s).`,
  );
} catch (error) {
  if (!(error instanceof SnapshotError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
