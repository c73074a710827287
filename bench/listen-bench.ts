/**
 * The cost of listening along: one bot's stream to 100 listeners (issue 24: under 5 % of one core).
 * This process plays the api: the real ListenHub behind a real HTTP server, fed with batches of real
 * 96 kbit/s Opus frames (as a daemon publishes them, LISTEN_BATCH_MS at a time) on the in-process bus. The 100
 * listeners are another process reading over loopback, so their cost is not counted. The figure is this
 * process's CPU time over wall time, with listeners less without, in % of one core.
 */
import { spawn } from 'node:child_process';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { BotClient } from '../api/bots/bot-client';
import { ListenHub } from '../api/listen/listen-hub';
import { OpusEncoder } from '../daemon/audio/encode/encoder';
import { PCM_FORMAT } from '../daemon/audio/pcm-format';
import { LISTEN_BATCH_MS } from '../daemon/bots/listen/listen-feed';
import { InProcessBus } from '../shared/bus/in-process-bus';
import { botCommandSubject, botListenSubject } from '../shared/bus/subjects';
import type { Db } from '../shared/db/client';
import { sineFrames } from '../testkit/audio-signals';

const LISTENERS = 100;
const MEASURE_MS = 10_000;
const FRAMES_PER_BATCH = LISTEN_BATCH_MS / PCM_FORMAT.frameMs;
const BOT = 'bench-bot';
const ACTOR = { id: 'bench', username: 'bench', role: 'admin' } as const;

const encoder = new OpusEncoder();
const frames = sineFrames(440, 2).map((pcm) => Buffer.from(encoder.encode(pcm)).toString('base64'));
encoder.destroy();

const bus = new InProcessBus();
// The daemon's side: it counts nothing here, it only answers the hub's reports.
bus.respond(botCommandSubject(BOT), () => ({ ok: true, status: 200, message: '' }));
// The bot client reads the database only when nobody answers, which the responder above rules out.
const hub = new ListenHub(bus, new BotClient({ bus, db: undefined as unknown as Db }));
const app = new Hono().get('/listen', async (c) =>
  c.body(await hub.open(BOT, ACTOR), 200, { 'content-type': 'audio/ogg; codecs=opus' }),
);
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
await new Promise((resolve) => server.once('listening', resolve));
const address = server.address();
const port = typeof address === 'object' && address ? address.port : 0;

let next = 0;
const publisher = setInterval(() => {
  const batch = [];
  for (let i = 0; i < FRAMES_PER_BATCH; i++) batch.push(frames[next++ % frames.length]!);
  bus.publish(botListenSubject(BOT), { frames: batch });
}, LISTEN_BATCH_MS);

/** This process's CPU over `ms` of wall time, in % of one core. */
async function cpuPercent(ms: number): Promise<number> {
  const before = process.cpuUsage();
  const started = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const used = process.cpuUsage(before);
  return ((used.user + used.system) / 1000 / (performance.now() - started)) * 100;
}

const listenerScript = `
  const received = [];
  for (let i = 0; i < ${LISTENERS}; i++) {
    received.push(0);
    fetch('http://127.0.0.1:${port}/listen').then(async (r) => {
      for await (const chunk of r.body) received[i] += chunk.length;
    });
  }
  setInterval(() => process.stdout.write(JSON.stringify(received) + '\\n'), 1000);
`;

try {
  const idle = await cpuPercent(MEASURE_MS / 2);
  const listeners = spawn(process.execPath, ['-e', listenerScript], { stdio: ['ignore', 'pipe', 'inherit'] });
  let lastReport: number[] = [];
  listeners.stdout.on('data', (data: Buffer) => {
    const lines = data.toString().trim().split('\n');
    lastReport = JSON.parse(lines.at(-1)!) as number[];
  });
  await new Promise((r) => setTimeout(r, 2000));
  const busy = await cpuPercent(MEASURE_MS);
  const served = lastReport.filter((bytes) => bytes > 0).length;
  listeners.kill();
  console.log(`listen fan-out: ${served} of ${LISTENERS} listeners receiving one bot's stream`);
  console.log(
    `  api CPU without listeners ${idle.toFixed(2)} %, with ${LISTENERS}: ${busy.toFixed(2)} % of one core`,
  );
  console.log(
    `  cost of ${LISTENERS} listeners: ${(busy - idle).toFixed(2)} % of one core (target: under 5 %)`,
  );
} finally {
  clearInterval(publisher);
  hub.close();
  server.close();
  await bus.close();
}
