/**
 * Which daemon takes which orphaned bot. Every daemon computes the same answer from the same view of
 * the bucket, so normally exactly one of them claims each orphan and nobody collides; when views
 * differ, the compare-and-set on the lease still lets only one win.
 *
 * Orphans go one by one (in id order) to the least-loaded live daemon, the load counting the bots
 * given out before; ties go to the daemon that ranks first for that bot by rendezvous hashing, so a
 * batch of orphans with equal loads spreads instead of all landing on one daemon.
 */
import { createHash } from 'node:crypto';

/** bot id → daemon id. */
export function assignOrphans(
  orphans: readonly string[],
  loads: ReadonlyMap<string, number>,
): Map<string, string> {
  const load = new Map(loads);
  const plan = new Map<string, string>();
  for (const botId of [...orphans].sort()) {
    let best: { daemonId: string; load: number; rank: string } | undefined;
    for (const [daemonId, daemonLoad] of load) {
      const candidate = { daemonId, load: daemonLoad, rank: rank(botId, daemonId) };
      if (!best || candidate.load < best.load || (candidate.load === best.load && candidate.rank < best.rank))
        best = candidate;
    }
    if (!best) break;
    plan.set(botId, best.daemonId);
    load.set(best.daemonId, best.load + 1);
  }
  return plan;
}

/** The most bots one daemon should hold when they are spread evenly. */
export const fairShare = (bots: number, daemons: number): number => Math.ceil(bots / Math.max(1, daemons));

function rank(botId: string, daemonId: string): string {
  return createHash('sha1').update(`${botId}/${daemonId}`).digest('hex');
}
