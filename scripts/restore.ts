/**
 * `make restore FROM=backups/snapshot-…`: puts a snapshot back as DATA_DIR's database and uploads, with
 * the service stopped (shared/backup/restore-snapshot.ts). The data it replaces is moved aside.
 */
import { restoreSnapshot } from '../shared/backup/restore-snapshot';
import { SnapshotError } from '../shared/backup/snapshot-manifest';
import { loadConfig } from '../shared/config';

const config = loadConfig(process.env);
const from = process.argv[2];
if (!from) {
  console.error('Name the snapshot to restore: make restore FROM=backups/snapshot-<time>');
  process.exit(2);
}
try {
  const { manifest, replacedFolder } = await restoreSnapshot(config, from);
  console.log(
    `Restored the snapshot of ${manifest.createdAt} (schema ${manifest.schemaVersion ?? 'empty'}, ${manifest.uploads.length} upload(s)) into ${config.dataDir}.` +
      (replacedFolder ? ` The data it replaced is in ${replacedFolder}.` : ''),
  );
} catch (error) {
  if (!(error instanceof SnapshotError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
