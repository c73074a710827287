/** The one setting platform `stream` reads at each request, so an admin's change applies at once. */
import type { Db } from '../../db/client';
import { readSettings } from '../../settings/settings';

export async function allowsPrivateHosts(db: Db): Promise<boolean> {
  return (await readSettings(db)).streamAllowPrivateHosts;
}
