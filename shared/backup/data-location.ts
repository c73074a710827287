/**
 * Where a service keeps what a snapshot holds: the database file (DATABASE_URL, a local `file:` one;
 * a libSQL server's data is backed up with the server's own tools, docs/backup.md) and the uploads
 * under DATA_DIR/uploads. Bot avatars and upload covers live in the database itself.
 */
import { resolve } from 'node:path';
import { UPLOADS_DIR } from '../sources/local/local-source';
import { SnapshotError } from './snapshot-manifest';

export interface DataLocation {
  dataDir: string;
  databaseUrl: string;
}

export function localDatabasePath({ databaseUrl }: DataLocation): string {
  if (!databaseUrl.startsWith('file:'))
    throw new SnapshotError(
      `DATABASE_URL is a libSQL server (${new URL(databaseUrl).origin}): back its database up with the server's own tools (docs/backup.md); make backup and make restore handle a local database file only.`,
    );
  return resolve(databaseUrl.slice('file:'.length));
}

export const uploadsFolder = ({ dataDir }: DataLocation): string => resolve(dataDir, UPLOADS_DIR);
