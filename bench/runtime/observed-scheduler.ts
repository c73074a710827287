/**
 * The daemon's frame clock with a window onto it: every player it drives is wrapped, so each frame a
 * player actually sends (its frame health counts one more) is logged with its tick's lateness. The
 * players' own frame health only counts frames over 10 ms late; the log gives p99 and max as well.
 */
import type { FrameCounts, FrameHealthSnapshot } from '../../daemon/audio/clock/frame-health';
import {
  FrameScheduler,
  type FrameTick,
  type ScheduledPlayer,
} from '../../daemon/audio/clock/frame-scheduler';
import { LatenessLog } from './lateness';

/** A scheduled player that keeps frame health (the audio player, whatever engine drives it). */
interface HealthReporting {
  readonly frameHealth: FrameHealthSnapshot;
}

const reportsHealth = (player: ScheduledPlayer): player is ScheduledPlayer & HealthReporting =>
  'frameHealth' in player;

export class ObservedScheduler extends FrameScheduler {
  readonly lateness = new LatenessLog();
  private readonly observers = new Map<ScheduledPlayer, ScheduledPlayer>();
  private readonly healthReporting = new Set<HealthReporting>();

  override add(player: ScheduledPlayer): void {
    if (this.observers.has(player)) return;
    const observer = reportsHealth(player) ? this.observe(player) : player;
    this.observers.set(player, observer);
    super.add(observer);
  }

  override remove(player: ScheduledPlayer): void {
    const observer = this.observers.get(player);
    if (!observer) return;
    this.observers.delete(player);
    super.remove(observer);
  }

  /** Frame health summed over every player this clock has driven. */
  frameTotals(): FrameCounts {
    const totals = { sent: 0, late: 0, missed: 0 };
    for (const player of this.healthReporting) {
      const { total } = player.frameHealth;
      totals.sent += total.sent;
      totals.late += total.late;
      totals.missed += total.missed;
    }
    return totals;
  }

  private observe(player: ScheduledPlayer & HealthReporting): ScheduledPlayer {
    this.healthReporting.add(player);
    return {
      prepare: () => player.prepare(),
      dispatch: (tick: FrameTick) => {
        const sentBefore = player.frameHealth.total.sent;
        player.dispatch(tick);
        if (player.frameHealth.total.sent > sentBefore) this.lateness.record(tick.latenessMs);
      },
    };
  }
}
