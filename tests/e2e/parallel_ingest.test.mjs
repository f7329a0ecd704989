// Parallel ingest (web/worker/sliced.js): a big plain Chrome JSON, picked or opened by a URL whose
// server answers Range requests, is parsed by several workers and merged into the store one
// worker builds. Each trace is loaded with ?workers=1 semantics (strata.setWorkers(1)) and with 2
// or 3 workers, and the store digests (strata.storeDigest(), core/store/store_digest.h), event
// counts, phases and messages must be equal. Small files are sliced here by lowering the
// threshold (setWorkers' second argument); one test keeps the default threshold on an 80 MB
// trace.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { REPO_ROOT, dataPath, hasData, newStrataPage, poll, serverAndBrowser, tempDir } from './lib.mjs';

const MAKE_DEMO = path.join(REPO_ROOT, 'build/native/strata_make_demo');
const REAL = 'chrome_trace/catapult/multiple_input_latency.json';

// Events of every order-dependent kind (B/E pairs, flows, counters, metadata, async), spread so
// that any cut splits them. `tricky`: every event ends with a long string member whose text ends
// with `},{`, so the cut scan, which starts inside such a string almost always, stops at its end
// (a cut inside a string) and only rarely at the next event.
function generated(events, tricky) {
  const parts = [];
  for (let i = 0; i < events; ++i) {
    const ts = 1000 + i * 3,
      tid = 1 + (i % 3);
    const name = `op${i % 23}`;
    switch (i % 8) {
      case 0:
        parts.push(`{"ph":"B","pid":1,"tid":${tid},"ts":${ts},"name":"${name}"}`);
        break;
      case 5:
        parts.push(`{"ph":"E","pid":1,"tid":${tid},"ts":${ts}}`);
        break;
      case 2:
        parts.push(`{"ph":"s","cat":"ac2g","id":${i % 40},"pid":1,"tid":${tid},"ts":${ts},"name":"f"}`);
        break;
      case 3:
        parts.push(`{"ph":"C","pid":2,"ts":${ts},"name":"mem","args":{"value":${i % 11}}}`);
        break;
      case 4:
        parts.push(`{"ph":"M","pid":1,"tid":${tid},"name":"thread_name","args":{"name":"t${i % 5}"}}`);
        break;
      case 6:
        parts.push(`{"ph":"b","cat":"a","id":"0x${i % 6}","pid":3,"tid":1,"ts":${ts},"name":"async"}`);
        break;
      default:
        parts.push(`{"ph":"X","pid":1,"tid":${tid},"ts":${ts},"dur":${i % 4},"name":"${name}"}`);
    }
  }
  const pad = (i) => `,"note":"${'x'.repeat(200 + (i % 50))} ${i % 7} },{"}`;
  const events_ = tricky ? parts.map((p, i) => p.slice(0, -1) + pad(i)) : parts;
  return `{"traceEvents":[${events_.join(',')}],"displayTimeUnit":"ns"}`;
}

describe('parallel ingest across engine workers', () => {
  const tmp = tempDir();
  const env = serverAndBrowser({ '/gen/': tmp.dir });
  let session;
  let copies = 0;
  const files = {};
  before(async () => {
    const write = (name, text) => {
      files[name] = path.join(tmp.dir, name);
      fs.writeFileSync(files[name], text);
    };
    write('plain.json', generated(40000, false));
    write('tricky.json', generated(20000, true));
    const full = fs.readFileSync(files['plain.json']);
    write('truncated.json', full.subarray(0, Math.floor(full.length * 0.7) + 3));
    write('tricky.json.gz', zlib.gzipSync(fs.readFileSync(files['tricky.json'])));
    // Big enough that its sliced load is still running when the next open comes.
    write('big.json', generated(1_500_000, false));
    session = await newStrataPage(env.browser);
    await session.goto(env.server.origin + '/');
  });
  after(async () => {
    if (session) await session.close();
    tmp.cleanup();
  });

  const setWorkers = (n, minBytes) =>
    session.call(([a, b]) => window.strata.setWorkers(a, b), [n, minBytes], 10_000, 'setWorkers');
  const digest = () => session.call(() => window.strata.storeDigest(), undefined, 60_000, 'storeDigest');

  // Picks a copy of `file` (a fresh name, so the load is told apart) with `workers` workers.
  async function pick(file, workers, minBytes = 1) {
    await setWorkers(workers, minBytes);
    const name = `${++copies}-${path.basename(file)}`;
    const copy = path.join(tmp.dir, name);
    fs.copyFileSync(file, copy);
    await session.page.setInputFiles('#file-input', copy);
    const s = await poll(
      async () => {
        const sum = await session.summary();
        return sum.files.length && sum.files[0].name === name ? sum : null;
      },
      { timeout: 120_000, message: `summary() of ${name}` },
    );
    return { summary: s, digest: await digest() };
  }
  async function byUrl(url, workers, minBytes = 1) {
    await setWorkers(workers, minBytes);
    const s = await session.open(url);
    return { summary: s, digest: await digest() };
  }

  // No error but requests stopped on purpose: the demo's (the start-up trace's follow-up read
  // stops its stream once it has what it wants) and, by URL, the stream a sliced load opened
  // with, which it stops after the head (the slices are read by ranges).
  function assertClean(what, alsoStopped = null) {
    const stopped = (e) =>
      /\/demo\/demo-trace\.json: net::ERR_ABORTED$/.test(e) || (alsoStopped && alsoStopped.test(e));
    const { pageErrors, crashes, consoleErrors, httpErrors } = session.log;
    assert.deepEqual(
      { pageErrors, crashes, consoleErrors, http: httpErrors.filter((e) => !stopped(e)) },
      { pageErrors: [], crashes: [], consoleErrors: [], http: [] },
      what,
    );
    session.clearErrors();
  }
  function assertSame(a, b, what) {
    assert.equal(b.digest, a.digest, `${what}: store digest`);
    assert.ok(/^\d+$/.test(a.digest), `${what}: a digest (${a.digest})`);
    for (const k of ['events', 'counters', 'tracks', 'processes', 'startNs', 'endNs'])
      assert.deepEqual(b.summary[k], a.summary[k], `${what}: ${k}`);
    assert.deepEqual(b.summary.phases, a.summary.phases, `${what}: phases`);
    assert.deepEqual(b.summary.errors, a.summary.errors, `${what}: errors`);
    assert.deepEqual(b.summary.warnings, a.summary.warnings, `${what}: warnings`);
  }

  test('a picked file: 2 and 3 workers give the one-worker store', async () => {
    const one = await pick(files['plain.json'], 1);
    assert.equal(one.summary.workers, 1);
    assert.deepEqual(one.summary.slices, []);
    assert.ok(one.summary.events > 15000, `${one.summary.events} events`);
    for (const n of [2, 3]) {
      const got = await pick(files['plain.json'], n);
      assertSame(one, got, `${n} workers`);
      assert.equal(got.summary.workers, n, 'workers used');
      assert.equal(got.summary.slices.length, n);
      const size = fs.statSync(files['plain.json']).size;
      assert.equal(
        got.summary.slices.reduce((t, s) => t + s.bytes, 0),
        size,
        'the slices cover the file',
      );
      assert.ok(
        got.summary.slices.every((s) => s.absorbed && s.parseMs >= 0),
        JSON.stringify(got.summary.slices),
      );
    }
    assertClean('picked plain.json');
  });

  test('?url= with Range requests: the same store, sliced', async () => {
    const url = env.server.origin + '/gen/plain.json';
    const one = await byUrl(url, 1);
    const two = await byUrl(url, 2);
    assertSame(one, two, 'by URL');
    assert.equal(two.summary.workers, 2);
    assertClean('by URL', /\/gen\/plain\.json: net::ERR_ABORTED$/);
  });

  test('cuts inside strings are refused and the store is still the one-worker one', async () => {
    const one = await pick(files['tricky.json'], 1);
    for (const n of [2, 3]) {
      const got = await pick(files['tricky.json'], n);
      assertSame(one, got, `tricky, ${n} workers`);
      // Each cut lands at the end of a string unless its offset falls in the 4 bytes between one
      // (`"}` `,` `{`) and the next event: with two cuts, one is refused all but never.
      if (n === 3)
        assert.ok(
          got.summary.slices.slice(1).some((s) => !s.absorbed),
          `a cut was refused: ${JSON.stringify(got.summary.slices)}`,
        );
    }
  });

  test('a truncated file gives the one-worker messages', async () => {
    const one = await pick(files['truncated.json'], 1);
    assert.ok(one.summary.errors.length > 0, 'the cut-off is reported');
    const two = await pick(files['truncated.json'], 2);
    assertSame(one, two, 'truncated');
    assert.equal(two.summary.workers, 2);
  });

  test('a compressed file loads with one worker whatever is asked', async () => {
    const one = await pick(files['tricky.json'], 1);
    const gz = await pick(files['tricky.json.gz'], 2);
    assertSame(one, gz, 'gzip');
    assert.equal(gz.summary.workers, 1, 'gzip cannot be cut');
  });

  test('a real Chrome JSON', { skip: !hasData(REAL) && '../shared/data is absent' }, async () => {
    const one = await pick(dataPath(REAL), 1);
    const two = await pick(dataPath(REAL), 2);
    assertSame(one, two, REAL);
    assert.equal(two.summary.workers, 2);
  });

  test('a new open stops a sliced load: its slice workers stop and the new file loads', async () => {
    session.clearErrors();
    const one = await pick(files['plain.json'], 1);
    await setWorkers(2, 1);
    const bigUrl = env.server.origin + '/gen/big.json';
    // Not awaited: the open of plain.json comes while big.json's slices are being parsed.
    const first = session.call((u) => window.strata.open(u), bigUrl, 120_000, 'open big.json');
    await new Promise((r) => setTimeout(r, 400));
    const t0 = Date.now();
    const second = await session.open(env.server.origin + '/gen/plain.json');
    const stoppedIn = Date.now() - t0;
    const firstSummary = await first;
    assert.ok(
      firstSummary.errors.some((e) => /big\.json: the load stopped: another file was opened/.test(e)),
      JSON.stringify(firstSummary.errors),
    );
    assert.equal(second.files[0].name, 'plain.json');
    assertSame(one, { summary: second, digest: await digest() }, 'the file opened meanwhile');
    assert.equal(second.workers, 2);
    // The slice workers are free again: the next sliced load of the big file is whole.
    const again = await byUrl(bigUrl, 2);
    assert.equal(again.summary.workers, 2);
    assert.deepEqual(again.summary.errors, []);
    assert.ok(
      again.summary.slices.every((s) => s.absorbed),
      JSON.stringify(again.summary.slices),
    );
    assert.ok(
      stoppedIn < again.summary.loadMs,
      `stopped and loaded in ${stoppedIn} ms, a whole load ${again.summary.loadMs} ms`,
    );
    assertClean('stopped load', /\/gen\/(big|plain)\.json: net::ERR_ABORTED$/);
  });

  test(
    'the default threshold slices an 80 MB trace',
    { skip: !fs.existsSync(MAKE_DEMO) && 'no build/native/strata_make_demo' },
    async () => {
      session.clearErrors();
      const big = path.join(tmp.dir, 'demo80.json');
      execFileSync(MAKE_DEMO, [big, '40']);
      assert.ok(fs.statSync(big).size > 64 << 20);
      const one = await pick(big, 1, 0);
      const two = await pick(big, 2, 0);
      assertSame(one, two, 'demo 80 MB');
      assert.equal(two.summary.workers, 2);
      assertClean('the 80 MB demo');
    },
  );
});
