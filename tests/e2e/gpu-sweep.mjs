// An independent GPU timeline computation for the analysis tests, in JS over a Kineto file's
// records: the GPU records with exact ns, and TraceLens's parts (compute, exposed comm, exposed
// memcpy, idle, span) by a sweep over their boundaries.
import { parseTrace, readTraceText } from './lib.mjs';

// The file's GPU records {pid, name, a, b, kind}: a, b in BigInt ns, exact (ts and dur are read
// as text: epoch microseconds are not exact as JS Numbers); kind 0 compute, 1 comm (nccl
// kernels), 2 memcpy.
export function gpuRecords(file) {
  const text = readTraceText(file).replace(/"(ts|dur)":\s*(-?\d+(?:\.\d+)?)/g, '"$1":"$2"');
  const ns = (v) => {
    const [ip, fp = ''] = String(v).split('.');
    return BigInt(ip) * 1000n + BigInt((fp + '000').slice(0, 3));
  };
  const kinds = { kernel: 0, gpu_memset: 0, gpu_memcpy: 2 };
  return parseTrace(text)
    .records.filter((r) => r && r.ph === 'X' && r.cat in kinds)
    .map((r) => ({
      pid: r.pid,
      name: String(r.name),
      a: ns(r.ts),
      b: ns(r.ts) + ns(r.dur || '0'),
      kind: kinds[r.cat] === 0 && String(r.name).includes('nccl') ? 1 : kinds[r.cat],
    }));
}

// One device's parts: a segment is compute when a compute kernel runs, else exposed comm, else
// exposed memcpy, else idle.
export function sweep(records) {
  const edges = [];
  for (const r of records) edges.push([r.a, 1, r.kind], [r.b, -1, r.kind]);
  edges.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1]));
  const active = [0, 0, 0];
  const out = { compute: 0n, exposed_comm: 0n, exposed_memcpy: 0n, idle: 0n };
  for (let i = 0; i + 1 < edges.length; ++i) {
    active[edges[i][2]] += edges[i][1];
    const len = edges[i + 1][0] - edges[i][0];
    if (active[0] > 0) out.compute += len;
    else if (active[1] > 0) out.exposed_comm += len;
    else if (active[2] > 0) out.exposed_memcpy += len;
    else out.idle += len;
  }
  out.span = edges[edges.length - 1][0] - edges[0][0];
  return out;
}
