// scripts/bench-parallel --browser: the browser's parallel ingest (web/worker/sliced.js) on a
// generated 1 GB plain Chrome JSON in headless Chromium, picked from disk and opened by URL
// (scripts/serve.mjs answers Range requests), with 1 and 2 workers (?workers=N), rounds
// interleaved so both counts see the same machine load. Prints the medians, the ratio, each
// slice's figures (summary().slices) and the 8-core model from them; checks that every load's
// store digest equals the one-worker load's.
// Each load starts --settle-ms (1000) after the page is ready, as a user's pick comes after the
// page has started (its slice workers start with the engine worker and compile meanwhile).
//   node scripts/bench/parallel-browser.mjs <trace.json> [--rounds N] [--workers 1,2] [--no-url]
//     [--settle-ms 1000]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../serve.mjs';
import { snapshot, delta } from './thread-cpu.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const file = path.resolve(args[0]);
const rounds = Number(opt('--rounds', '3'));
const counts = opt('--workers', '1,2').split(',').map(Number);
const withUrl = !args.includes('--no-url');
const settleMs = Number(opt('--settle-ms', '1000'));
const loadAvg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const size = fs.statSync(file).size;

const server = await startServer({
  root: path.join(ROOT, 'dist'),
  port: 0,
  mounts: { '/bench-files/': path.dirname(file) },
});
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--use-angle=swiftshader'],
});

// A load's CPU seconds: each worker thread's (Chromium names them DedicatedWorker; by start
// order: the engine worker, the slice workers, then the read workers, whose threads start
// once their parent's script runs), the rest of the page's renderer process, and each other
// process kind (the browser process, which reads the file; the GPU process, which draws).
function cpuOf(threads) {
  const workers = threads.filter((t) => t.name.startsWith('DedicatedWorker'));
  const renderer = workers.length ? workers[0].pid : -1;
  const sum = (ts) => ts.reduce((a, t) => a + t.cpu, 0);
  return {
    workers: workers.map((t) => t.cpu),
    renderer: sum(threads.filter((t) => t.pid === renderer && !t.name.startsWith('DedicatedWorker'))),
    others: sum(threads.filter((t) => t.pid !== renderer)),
    byKind: Object.fromEntries(
      [...new Set(threads.filter((t) => t.pid !== renderer).map((t) => t.kind))].map((k) => [
        k,
        sum(threads.filter((t) => t.pid !== renderer && t.kind === k)),
      ]),
    ),
    total: sum(threads),
  };
}

// One load in a fresh page (fresh engine and slice workers, as a user's first load of the tab).
async function load(workers, how) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await page.goto(`${server.url}?workers=${workers}`);
    await page.waitForFunction(() => window.strata);
    await page.evaluate(() => window.strata.ready);
    await new Promise((r) => setTimeout(r, settleMs));
    const before = snapshot();
    let s;
    if (how === 'pick') {
      await page.evaluate(() => {
        window.__loaded = new Promise((r) =>
          window.addEventListener('strata:loaded', (e) => r(e.detail), { once: true }),
        );
      });
      await page.setInputFiles('#file-input', file);
      s = await page.evaluate(() => window.__loaded);
    } else {
      s = await page.evaluate((u) => strata.open(u), `/bench-files/${path.basename(file)}`);
    }
    const cpu = cpuOf(delta(before, snapshot()));
    const digest = await page.evaluate(() => strata.storeDigest());
    return {
      loadMs: s.loadMs,
      workers: s.workers,
      slices: s.slices,
      events: s.events,
      heapBytes: s.heapBytes,
      digest,
      cpu,
    };
  } finally {
    await page.close();
  }
}

const loadBefore = loadAvg();
const runs = [];
for (let r = 0; r < rounds; ++r)
  for (const how of withUrl ? ['pick', 'url'] : ['pick'])
    for (const n of counts) {
      const x = await load(n, how);
      runs.push({ ...x, how, n });
      console.error(`round ${r + 1} ${how} workers=${n}: ${(x.loadMs / 1000).toFixed(2)} s (${x.workers} used)`);
    }
const loadAfter = loadAvg();
await browser.close();
await server.close();

const reference = runs.find((x) => x.n === 1) || runs[0];
const same = runs.every((x) => x.digest === reference.digest && x.events === reference.events);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const medianRun = (rs) => [...rs].sort((a, b) => a.loadMs - b.loadMs)[Math.floor(rs.length / 2)];
const mb = size / 1e6;
console.log(`file: ${file} (${mb.toFixed(0)} MB), ${rounds} rounds, digests ${same ? 'all equal' : 'DIFFER'}`);
console.log(
  `load average before ${loadBefore}, after ${loadAfter}; ` +
    `${fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm).length} cores`,
);
console.log('| opened | workers | load s (median) | MB/s | speed-up | each round s |');
console.log('|---|---|---|---|---|---|');
for (const how of withUrl ? ['pick', 'url'] : ['pick']) {
  const base = median(runs.filter((x) => x.how === how && x.n === counts[0]).map((x) => x.loadMs));
  for (const n of counts) {
    const rs = runs.filter((x) => x.how === how && x.n === n);
    const ms = median(rs.map((x) => x.loadMs));
    console.log(
      `| ${how === 'pick' ? 'picked' : '?url='} | ${n} | ${(ms / 1000).toFixed(2)} | ${(mb / (ms / 1000)).toFixed(0)} | ` +
        `${(base / ms).toFixed(2)}x | ${rs.map((x) => (x.loadMs / 1000).toFixed(2)).join(' / ')} |`,
    );
  }
}
// Per slice, from the median picked load with the most workers.
const many = medianRun(runs.filter((x) => x.how === 'pick' && x.n === Math.max(...counts)));
if (many && many.slices.length) {
  console.log('\n| slice | MB | read s | parse s | engine worker waited s | merge s | absorbed |');
  console.log('|---|---|---|---|---|---|---|');
  many.slices.forEach((s, k) =>
    console.log(
      `| ${k} | ${(s.bytes / 1e6).toFixed(0)} | ${(s.readMs / 1000).toFixed(2)} | ${(s.parseMs / 1000).toFixed(2)} | ` +
        `${(s.waitMs / 1000).toFixed(2)} | ${(s.mergeMs / 1000).toFixed(2)} | ${s.absorbed} |`,
    ),
  );
  console.log(
    '\n| load | worker threads CPU s (start order) | rest of the renderer CPU s | other processes CPU s | total CPU s | wall s |',
  );
  console.log('|---|---|---|---|---|---|');
  const one1 = medianRun(runs.filter((x) => x.how === 'pick' && x.n === counts[0]));
  for (const [label, x] of [
    [`picked, ${counts[0]} worker(s)`, one1],
    [`picked, ${many.n} workers`, many],
  ])
    console.log(
      `| ${label} | ${x.cpu.workers.map((c) => c.toFixed(2)).join(' / ')} | ${x.cpu.renderer.toFixed(2)} | ` +
        `${x.cpu.others.toFixed(2)} (${Object.entries(x.cpu.byKind)
          .map(([k, c]) => `${k} ${c.toFixed(2)}`)
          .join(', ')}) | ${x.cpu.total.toFixed(2)} | ${(x.loadMs / 1000).toFixed(2)} |`,
    );
  // The model: a load with N workers on N free cores takes the first slice's parse (1/N of the
  // parse), the merges of the N-1 others (each costs what it cost here per byte: the copy into
  // the engine's memory and TraceBuilder::absorb) and the tail after the last merge (finish,
  // zoom levels: serial), measured here as what is left of the load.
  const parse = many.slices.reduce((t, s) => t + s.parseMs + s.readMs, 0); // the whole file's
  const later = many.slices.slice(1);
  const mergePerByte = later.reduce((t, s) => t + s.mergeMs, 0) / later.reduce((t, s) => t + s.bytes, 0);
  const s0 = many.slices[0];
  const tail = many.loadMs - s0.parseMs - later.reduce((t, s) => t + s.waitMs + s.mergeMs, 0);
  const one = median(runs.filter((x) => x.how === 'pick' && x.n === 1).map((x) => x.loadMs));
  console.log('\n| cores N | modelled load s | modelled speed-up over the measured 1-worker load |');
  console.log('|---|---|---|');
  for (const n of [1, 2, 4, 8]) {
    const t = n === 1 ? one : parse / n + mergePerByte * size * ((n - 1) / n) + tail;
    console.log(`| ${n} | ${(t / 1000).toFixed(2)} | ${(one / t).toFixed(2)}x |`);
  }
  console.log(
    `\nmodel inputs: parse (all slices, read + parse) ${(parse / 1000).toFixed(2)} s, merge ` +
      `${((mergePerByte * 1e9) / 1000).toFixed(2)} s per GB absorbed, tail ${(tail / 1000).toFixed(2)} s`,
  );
  // The same from CPU seconds, which a busy machine distorts less: on N free cores a load takes
  // about max(the engine worker's CPU, the browser's total CPU / N). The engine worker's thread
  // (the first worker thread) holds a + b/N + c (N-1)/N: a the part every load pays (preview,
  // finish, zoom levels), b the whole file's parse (at the slice worker's rate per byte: the
  // busiest worker thread after the engine's), c the merge of the whole file.
  if (many.n === 2 && one1 && many.slices.length === 2 && many.cpu.workers.length >= 2) {
    const e1 = one1.cpu.workers[0],
      e2 = many.cpu.workers[0],
      slice = Math.max(...many.cpu.workers.slice(1));
    const [s0, s1] = many.slices.map((x) => x.bytes);
    const b = (slice * size) / s1,
      a = Math.max(0, e1 - b),
      c = Math.max(0, ((e2 - a - (b * s0) / size) * size) / s1);
    console.log('\n| cores N | 1 worker s | N workers s | speed-up (CPU model) |');
    console.log('|---|---|---|---|');
    for (const n of [2, 4, 8]) {
      const t1 = Math.max(e1, one1.cpu.total / n),
        tn = Math.max(a + b / n + (c * (n - 1)) / n, many.cpu.total / n);
      console.log(`| ${n} | ${t1.toFixed(2)} | ${tn.toFixed(2)} | ${(t1 / tn).toFixed(2)}x |`);
    }
    console.log(
      `\nCPU model inputs: every load ${a.toFixed(2)} s, parse ${b.toFixed(2)} s, merge ${c.toFixed(2)} s ` +
        `(per file), browser total ${one1.cpu.total.toFixed(2)} s (1 worker) / ${many.cpu.total.toFixed(2)} s (2)`,
    );
  }
}
if (!same) process.exit(1);
