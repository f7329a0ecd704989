// XProf xplane.pb in the browser: format detection, the planes summary against the file's
// structure (per SOURCES.md), a gzip copy, an XLA op's details (stats decoded in the worker),
// and the upstream-corrupt file failing cleanly while the previous trace stays.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { dataPath, dataUrl, poll, skipUnlessData, strataSuite } from './lib.mjs';

const JAX = 'xplane/tracelens/jax08_gemm/tw003.xplane.pb';
const CORRUPT = 'xplane/xprof/tpu_inference_2.xplane.pb';

describe('xplane', { skip: skipUnlessData(JAX, CORRUPT) }, () => {
  let env;
  strataSuite((e) => (env = e));

  test('opens a JAX GPU xplane with its planes and derived XLA rows', async () => {
    const s = await env.session.open(dataUrl(JAX));
    assert.deepEqual(s.errors, []);
    assert.equal(s.files[0].format, 'xplane');
    assert.equal(s.planes.length, 11);
    const gpu = s.planes.find((p) => p.name === '/device:GPU:0');
    assert.deepEqual(gpu.lines, [
      { name: 'Stream #16(Kernel)', events: 42 },
      { name: 'Stream #17(Kernel)', events: 12 },
    ]);
    const host = s.planes.find((p) => p.name === '/host:CPU');
    assert.equal(
      host.lines.reduce((n, l) => n + l.events, 0),
      3728,
    );
    assert.ok(s.events >= 3782, `events ${s.events}`);
    assert.ok(s.flows > 0, 'launch → kernel flows');
    env.session.assertNoErrors();
  });

  test("shows an XLA op's stats in the details", async () => {
    const { session } = env;
    // The XLA Ops row of the GPU (the host's python line has a "copy.1" too, without stats).
    const found = await session.find('copy.1');
    const op = found.matches.find((m) => m.pid === '/device:GPU:0');
    assert.ok(op, JSON.stringify(found));
    await session.call((e) => window.strata.select({ event: e }), op.event);
    const d = await poll(
      async () => {
        const v = await session.details();
        return v && v.args && v.args.hlo_op ? v : null;
      },
      { message: 'details() with args.hlo_op' },
    );
    assert.equal(d.args.hlo_op, 'copy.1');
    assert.equal(d.args.hlo_module, 'jit_convert_element_type');
    assert.equal(d.args.program_id, 1);
  });

  test('opens the same file gzip-compressed', async () => {
    const gz = zlib.gzipSync(fs.readFileSync(dataPath(JAX)));
    const plain = await env.session.summary();
    const s = await env.session.openBytes(gz, 'tw003.xplane.pb.gz');
    assert.deepEqual(s.errors, []);
    assert.equal(s.files[0].format, 'xplane');
    assert.equal(s.files[0].compression, 'gzip');
    assert.equal(s.events, plain.events);
  });

  test('the upstream-corrupt file fails naming the byte, the previous trace stays', async () => {
    const before_ = await env.session.summary();
    const s = await env.session.open(dataUrl(CORRUPT));
    assert.ok(
      s.errors.some((e) => /corrupt at byte 0/.test(e)),
      JSON.stringify(s.errors),
    );
    assert.equal(s.events, before_.events);
    assert.equal(s.files[0].format, 'xplane');
  });
});

// Issue 5: the xplanes of a multi-host run, picked together (the file input takes several),
// open as one trace: both hosts' planes and events, a section group per host named by its
// file, and the second host's op details re-read from its own file.
const SECOND = 'xplane/tracelens/jax_conv_minimal_legacy/chi-mi300x-013.ord.vultr.cpe.ice.amd.com.xplane.pb';

describe('several xplanes at once', { skip: skipUnlessData(JAX, SECOND) }, () => {
  let env;
  strataSuite((e) => (env = e));

  test('two hosts picked together load as one trace with a section group each', async () => {
    const { session, page } = env;
    const one = await session.open(dataUrl(JAX));
    const two = await session.open(dataUrl(SECOND));
    await page.evaluate(() => {
      window.__loaded = new Promise((r) =>
        window.addEventListener('strata:loaded', (e) => r(e.detail), { once: true }),
      );
    });
    await page.setInputFiles('#file-input', [dataPath(JAX), dataPath(SECOND)]);
    const s = await session.call(() => window.__loaded, undefined, 60_000, 'the pick to load');
    assert.deepEqual(s.errors, []);
    assert.deepEqual(
      s.files.map((f) => f.name),
      ['tw003.xplane.pb', 'chi-mi300x-013.ord.vultr.cpe.ice.amd.com.xplane.pb'],
    );
    assert.equal(s.planes.length, one.planes.length + two.planes.length);
    assert.equal(s.events, one.events + two.events);
    // The second host's GPU section, and an op of it with its stats.
    const found = await session.find('copy');
    // pid is the section's key: the second host's same-named plane is keyed "<plane> #2".
    const host1 = found.matches.filter((m) => m.pid === '/device:GPU:0');
    const host2 = found.matches.filter((m) => m.pid === '/device:GPU:0 #2');
    assert.ok(host1.length > 0 && host2.length > 0, JSON.stringify(found.matches.slice(0, 5)));
    await session.call((e) => window.strata.select({ event: e }), host2[0].event);
    // Its stats come from the second file's bytes (a read in the first file would not decode).
    const d = await poll(
      async () => {
        const v = await session.details();
        return v && v.args && v.args.correlation_id !== undefined ? v : null;
      },
      { message: 'details() of the second host with its stats' },
    );
    assert.equal(d.name, host2[0].name);
    assert.equal(d.pid, '/device:GPU:0 #2');
    env.session.assertNoErrors();
  });
});
