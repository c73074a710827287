/** Retransmission timeout from RTT samples (RFC 6298: α = 1/8, β = 1/4), bounded as TS clients do. */

export const INITIAL_RTO_MS = 500;
/** Below RFC 6298's 1 s floor: on a LAN a lost command should not stall a second. */
export const MIN_RTO_MS = 200;
/** TS3AudioBot and tsclientlib cap the timeout at 1 s. */
export const MAX_RTO_MS = 1000;

export class RttEstimator {
  private srtt?: number;
  private rttvar = 0;
  rtoMs = INITIAL_RTO_MS;

  sample(rttMs: number): void {
    if (this.srtt === undefined) {
      this.srtt = rttMs;
      this.rttvar = rttMs / 2;
    } else {
      this.rttvar = 0.75 * this.rttvar + 0.25 * Math.abs(this.srtt - rttMs);
      this.srtt = 0.875 * this.srtt + 0.125 * rttMs;
    }
    this.rtoMs = Math.min(MAX_RTO_MS, Math.max(MIN_RTO_MS, this.srtt + 4 * this.rttvar));
  }

  get smoothedMs(): number | undefined {
    return this.srtt;
  }
}
