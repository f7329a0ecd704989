// XProf xplane.pb in the browser: format detection, the planes summary against the file's
// structure (per SOURCES.md), a gzip copy, an XLA op's details (stats decoded in the worker),
// and the upstream-corrupt file failing cleanly while the previous trace stays.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { dataPath, dataUrl, poll, setupStrata, skipUnlessData } from './lib.mjs';

const JAX = 'xplane/tracelens/jax08_gemm/tw003.xplane.pb';
const CORRUPT = 'xplane/xprof/tpu_inference_2.xplane.pb';

describe('xplane', { skip: skipUnlessData(JAX, CORRUPT) }, () => {
  let env;
  before(async () => { env = await setupStrata(); });
  after(async () => { if (env) await env.close(); });

  test('opens a JAX GPU xplane with its planes and derived XLA rows', async () => {
    const s = await env.session.open(dataUrl(JAX));
    assert.deepEqual(s.errors, []);
    assert.equal(s.files[0].format, 'xplane');
    assert.equal(s.planes.length, 11);
    const gpu = s.planes.find((p) => p.name === '/device:GPU:0');
    assert.deepEqual(gpu.lines, [{ name: 'Stream #16(Kernel)', events: 42 }, { name: 'Stream #17(Kernel)', events: 12 }]);
    const host = s.planes.find((p) => p.name === '/host:CPU');
    assert.equal(host.lines.reduce((n, l) => n + l.events, 0), 3728);
    assert.ok(s.events >= 3782, `events ${s.events}`);
    assert.ok(s.flows > 0, 'launch → kernel flows');
    env.session.assertNoErrors();
  });

  test('shows an XLA op\'s stats in the details', async () => {
    const { session } = env;
    // The XLA Ops row of the GPU (the host's python line has a "copy.1" too, without stats).
    const found = await session.find('copy.1');
    const op = found.matches.find((m) => m.pid === '/device:GPU:0');
    assert.ok(op, JSON.stringify(found));
    await session.call((e) => window.strata.select({ event: e }), op.event);
    const d = await poll(async () => {
      const v = await session.details();
      return v && v.args && v.args.hlo_op ? v : null;
    }, { message: 'details() with args.hlo_op' });
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
    assert.ok(s.errors.some((e) => /corrupt at byte 0/.test(e)), JSON.stringify(s.errors));
    assert.equal(s.events, before_.events);
    assert.equal(s.files[0].format, 'xplane');
  });
});
