// A SQLite profile as the compared B in headless Chromium: the Nsight Systems export picked with
// "Compare with..." against itself (opened by URL as A) gives empty tables with B's event count
// equal to A's; the Ascend database as B (by URL) lists its device tasks as added kernels, as
// many as the database holds; a database that is not a profile is refused with a message and the previous B
// stays.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dataPath, dataUrl, poll, skipUnlessData, strataSuite } from './lib.mjs';

const NSYS = 'nsys/nvfuser/pr3924/report1.sqlite';
const ASCEND_DIR = 'ascend/msinsight/db_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/';
const ASCEND = ASCEND_DIR + 'ascend_pytorch_profiler_0.db';
const ANALYSIS = ASCEND_DIR + 'analysis.db';
// The Ascend db's device tasks that are not copies (sqlite3 on the file, as sqlite.test.mjs):
// 552 TASK rows, 24 of them of type MEMCPY_ASYNC (the kernel table lists compute and
// communication work, as the GPU breakdown classifies it).
const ASCEND_KERNELS = 552 - 24;

describe('compare with a SQLite profile', { skip: skipUnlessData(NSYS, ASCEND, ANALYSIS) }, () => {
  let s;
  strataSuite((e) => (s = e.session));
  const compare = (b, what) => s.call((x) => window.strata.compare(null, x), b, 120_000, what);
  const kernelsOf = (rows, side) => rows.reduce((n, r) => n + r[side], 0);

  test('the Nsight export picked as B against itself: every table empty', async () => {
    const a = await s.open(dataUrl(NSYS));
    await s.page.setInputFiles('#compare-input', dataPath(NSYS));
    await poll(async () => (await s.call(() => window.strata.compareView())).b === 'report1.sqlite', {
      timeout: 60_000,
      message: 'the picked database as B',
    });
    const res = await s.call(() => window.strata.compareResult());
    assert.equal(res.b.events, a.events);
    for (const [key, t] of Object.entries(res.tables)) {
      assert.deepEqual([t.changed, t.added, t.removed], [[], [], []], key);
    }
    assert.ok(res.tables.kernel.unchanged > 0, 'the export has kernels');
    s.assertNoErrors();
  });

  test('the Ascend db as B: its kernels are added; a non-profile db keeps that B', async () => {
    await s.open(dataUrl(NSYS));
    const r = await compare(dataUrl(ASCEND), 'strata.compare(null, ascend db)');
    assert.equal(r.ok, true, r.error);
    const k = r.result.tables.kernel;
    assert.equal(k.changed.length, 0, 'no kernel name is shared by a CUDA and an Ascend run');
    assert.equal(kernelsOf(k.added, 'bCount'), ASCEND_KERNELS);
    const bad = await compare(dataUrl(ANALYSIS), 'strata.compare(null, analysis.db)');
    assert.equal(bad.ok, false);
    assert.match(bad.error, /analysis\.db/);
    assert.equal(bad.result.b.name, 'ascend_pytorch_profiler_0.db');
    const v = await s.call(() => window.strata.compareView());
    assert.equal(v.b, 'ascend_pytorch_profiler_0.db');
  });
});
