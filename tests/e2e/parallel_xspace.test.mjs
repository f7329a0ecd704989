// Parallel ingest of an XSpace (web/worker/sliced.js, core: formats/xplane/xplane_sliced.h): a
// plain *.xplane.pb, picked or opened by a URL whose server answers Range requests, is cut
// between its top-level fields (planes) and parsed by several workers; the store must be the
// one-worker load's: the same digest (strata.storeDigest()), counts, messages and planes. The
// real xplanes of ../shared/data are small, so the threshold is lowered (setWorkers' second
// argument). A gzip'd xplane is inflated first (a gzip stream cannot be entered mid-way), then cut.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { dataPath, hasData, newStrataPage, poll, serverAndBrowser, tempDir } from './lib.mjs';

const REAL = [
  'xplane/xprof/34.83.195.179_6003.xplane.pb',
  'xplane/tracelens/jax_conv_minimal_legacy/chi-mi300x-013.ord.vultr.cpe.ice.amd.com.xplane.pb',
];

describe('parallel ingest of an XSpace', { skip: !hasData(REAL[0]) && '../shared/data is absent' }, () => {
  const tmp = tempDir();
  const env = serverAndBrowser({ '/gen/': tmp.dir });
  let session;
  let copies = 0;
  before(async () => {
    fs.copyFileSync(dataPath(REAL[0]), path.join(tmp.dir, 'tpu.xplane.pb'));
    fs.writeFileSync(path.join(tmp.dir, 'tpu.xplane.pb.gz'), zlib.gzipSync(fs.readFileSync(dataPath(REAL[0]))));
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

  async function pick(file, workers) {
    await setWorkers(workers, 1);
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

  function assertSame(a, b, what) {
    assert.equal(b.digest, a.digest, `${what}: store digest`);
    assert.ok(/^\d+$/.test(a.digest), `${what}: a digest (${a.digest})`);
    for (const k of ['events', 'counters', 'tracks', 'processes', 'startNs', 'endNs', 'phases', 'planes'])
      assert.deepEqual(b.summary[k], a.summary[k], `${what}: ${k}`);
    assert.deepEqual(b.summary.errors, a.summary.errors, `${what}: errors`);
    assert.deepEqual(b.summary.warnings, a.summary.warnings, `${what}: warnings`);
  }

  for (const rel of REAL) {
    test(`${path.basename(rel)}: 2 and 3 workers give the one-worker store`, { skip: !hasData(rel) }, async () => {
      const one = await pick(dataPath(rel), 1);
      assert.equal(one.summary.workers, 1);
      assert.ok(one.summary.events > 0);
      for (const n of [2, 3]) {
        const got = await pick(dataPath(rel), n);
        assertSame(one, got, `${rel}, ${n} workers`);
        assert.equal(got.summary.workers, n, 'workers used');
        assert.equal(
          got.summary.slices.reduce((t, s) => t + s.bytes, 0),
          fs.statSync(dataPath(rel)).size,
          'the slices cover the file',
        );
        assert.ok(
          got.summary.slices.every((s) => s.absorbed),
          JSON.stringify(got.summary.slices),
        );
      }
    });
  }

  test('?url= with Range requests: the same store, sliced', async () => {
    const url = env.server.origin + '/gen/tpu.xplane.pb';
    await setWorkers(1, 1);
    const one = { summary: await session.open(url), digest: await digest() };
    await setWorkers(2, 1);
    const two = { summary: await session.open(url), digest: await digest() };
    assertSame(one, two, 'by URL');
    assert.equal(two.summary.workers, 2);
  });

  test('a gzip xplane is inflated, then cut: the one-worker store', async () => {
    const one = await pick(path.join(tmp.dir, 'tpu.xplane.pb'), 1);
    const gz1 = await pick(path.join(tmp.dir, 'tpu.xplane.pb.gz'), 1);
    assertSame(one, gz1, 'gzip, one worker');
    assert.equal(gz1.summary.workers, 1);
    const gz = await pick(path.join(tmp.dir, 'tpu.xplane.pb.gz'), 2);
    assertSame(one, gz, 'gzip, 2 workers');
    assert.equal(gz.summary.workers, 2, 'inflated and cut');
  });
});
