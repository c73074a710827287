/**
 * Where a `.cpuprofile` spent its time: self time summed by file (packages by name) and by function,
 * in percent of the samples and, given the number of requests the profile covered, in µs per request.
 * For `bench/api-bench.ts` with API_BENCH_PROFILE=<dir> (one profile per target's load window):
 *   npx tsx bench/cpuprofile-summary.ts <file.cpuprofile> [requests] [rows]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, requestsArg, rowsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: cpuprofile-summary.ts <file.cpuprofile> [requests] [rows]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const requests = Number(requestsArg ?? 0);
const rows = Number(rowsArg ?? 30);
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));

const shortUrl = (url: string) =>
  url.replace(/^.*node_modules\//, '').replace(new RegExp(`^file://${process.cwd()}/`), '');
const packageOf = (url: string) =>
  url.includes('node_modules/') ? shortUrl(url).replace(/^((@[^/]+\/)?[^/]+).*/, '$1') : shortUrl(url);

const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const { callFrame } = nodes.get(id)!;
  const micros = profile.timeDeltas[i] ?? 0;
  total += micros;
  const where = callFrame.url ? `${shortUrl(callFrame.url)}:${callFrame.lineNumber + 1}` : '(native)';
  const fn = `${callFrame.functionName || '(anonymous)'} ${where}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros);
  const place = callFrame.url ? packageOf(callFrame.url) : callFrame.functionName;
  byFile.set(place, (byFile.get(place) ?? 0) + micros);
});

function table(title: string, sums: Map<string, number>): void {
  console.log(`\n${title}`);
  for (const [name, micros] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    const share = `${((100 * micros) / total).toFixed(1).padStart(5)} %`;
    const perRequest = requests > 0 ? `${(micros / requests).toFixed(1).padStart(7)} µs/req` : '';
    console.log(`${share} ${perRequest}  ${name}`);
  }
}
console.log(`${(total / 1000).toFixed(0)} ms sampled${requests ? `, ${requests} requests` : ''}`);
table('self time by file or package', byFile);
table('self time by function', byFunction);
