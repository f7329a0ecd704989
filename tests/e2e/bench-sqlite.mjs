// Opens one SQLite profile by the file input in headless Chromium and prints the time from the
// pick to the loaded summary (median of 3, after one warm-up open), and how much of each open
// the engine worker spent in its file reads (FileReaderSync, timed by wrapping it in the worker
// from here: the benchmark's own probe, not the app's). Run by scripts/bench-sqlite.
//   node tests/e2e/bench-sqlite.mjs FILE.db
import path from 'node:path';
import { poll, setupStrata } from './lib.mjs';

const file = process.argv[2];
if (!file) throw new Error('usage: bench-sqlite.mjs FILE.db');
const env = await setupStrata();
try {
  const { session, page } = env;
  const times = [];
  const reads = [];
  let last = null;
  const worker = page.workers().find((w) => w.url().includes('engine-worker'));
  if (!worker) throw new Error('no engine worker');
  await worker.evaluate(() => {
    const read = self.FileReaderSync.prototype.readAsArrayBuffer;
    self.benchReads = { count: 0, bytes: 0, ms: 0 };
    self.FileReaderSync.prototype.readAsArrayBuffer = function (blob) {
      const t = performance.now();
      const out = read.call(this, blob);
      self.benchReads.ms += performance.now() - t;
      self.benchReads.count += 1;
      self.benchReads.bytes += out.byteLength;
      return out;
    };
  });
  for (let run = 0; run < 4; ++run) {
    await session.open('/demo/demo-trace.json'); // another trace in between: each pick is a new load
    await worker.evaluate(() => Object.assign(self.benchReads, { count: 0, bytes: 0, ms: 0 }));
    const t0 = Date.now();
    await page.setInputFiles('#file-input', file);
    last = await poll(
      async () => {
        const s = await session.summary();
        return s.files.length && s.files[0].name === path.basename(file) ? s : null;
      },
      { timeout: 120_000, message: 'the db loaded' },
    );
    if (run > 0) {
      times.push(Date.now() - t0);
      reads.push(await worker.evaluate(() => ({ ...self.benchReads, ms: Math.round(self.benchReads.ms) })));
    }
  }
  const median = [...times].sort((a, b) => a - b)[1];
  console.log(
    JSON.stringify({
      file: path.basename(file),
      events: last.events,
      errors: last.errors,
      heapBytes: last.heapBytes,
      openMs: times,
      medianMs: median,
      reads,
    }),
  );
} finally {
  await env.close();
}
