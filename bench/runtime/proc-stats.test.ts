import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  CLOCK_TICKS_PER_SECOND,
  groupCpu,
  groupMemory,
  parseProcStat,
  parseSchedstat,
  parseSmapsRollup,
} from './proc-stats';

describe('parseProcStat', () => {
  it('reads the fields after a name that holds spaces and parentheses', () => {
    const line =
      '4242 (node (tsx) x) S 4200 4242 4200 0 -1 4194560 1000 0 0 0 150 25 7 3 20 0 11 0 968444 3133440 394 18446744073709551615';
    expect(parseProcStat(line)).toEqual({
      pid: 4242,
      comm: 'node (tsx) x',
      state: 'S',
      ppid: 4200,
      cpuTicks: 175,
      reapedChildrenCpuTicks: 10,
    });
  });
});

describe('parseSmapsRollup', () => {
  it('reads Rss and Pss in kB', () => {
    const text = [
      '55fbfe0f4000-7ffc909ef000 ---p 00000000 00:00 0                          [rollup]',
      'Rss:                1788 kB',
      'Pss:                 275 kB',
      'Pss_Dirty:           116 kB',
      'Shared_Clean:       1632 kB',
    ].join('\n');
    expect(parseSmapsRollup(text)).toEqual({ rssKb: 1788, pssKb: 275 });
  });
});

describe('parseSchedstat', () => {
  it('reads the time on a CPU and the time waiting for one, in ms', () => {
    expect(parseSchedstat('1500000000 250000000 42\n')).toEqual({ runningMs: 1500, waitingMs: 250 });
  });
});

describe('groupCpu and groupMemory', () => {
  it('see a live child, and keep its CPU once it has been reaped', async () => {
    const child = spawn('sh', [
      '-c',
      'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo looped; sleep 30',
    ]);
    await once(child.stdout, 'data');
    const live = groupMemory(process.pid, ['sh']);
    expect(live.decoderCount).toBeGreaterThanOrEqual(1);
    expect(live.decoders.pssKb).toBeGreaterThan(0);
    expect(live.own.pssKb).toBeGreaterThan(0);
    expect(live.own.rssKb).toBeGreaterThanOrEqual(live.own.pssKb);
    const whileRunning = groupCpu(process.pid).childrenMs;
    expect(whileRunning).toBeGreaterThanOrEqual(1000 / CLOCK_TICKS_PER_SECOND);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(groupCpu(process.pid).childrenMs).toBeGreaterThanOrEqual(whileRunning);
  });
});
