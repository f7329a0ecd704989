// Profiler folders and the Runs tab end to end (issue 9): an Ascend folder of two ranks opened
// with strata.open([{path, url}]) and through the real <input webkitdirectory>, the PyTorch
// profiler plugin's three Kineto runs, a folder with a file missing, the Diff and the Trace view.
// Every number read back through strata.stats() is checked against sums this file computes
// itself from the CSV / JSON files.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  CALL_TIMEOUT_MS,
  dataPath,
  folderEntries as entries,
  hasData,
  parseTrace,
  readTraceText,
  strataSuite,
} from './lib.mjs';

const ASCEND = 'ascend/msinsight/text_level1';
const KINETO = 'pytorch_kineto/kineto-tb_plugin';
const OUT = 'ASCEND_PROFILER_OUTPUT';

// ---- independent reference --------------------------------------------------------------------
// RFC 4180: quoted fields may hold commas, quotes ("") and newlines.
function parseCsv(text) {
  const rows = [];
  let row = [],
    field = '',
    quoted = false;
  for (let i = 0; i < text.length; ++i) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        ++i;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') ++i;
      row.push(field);
      field = '';
      if (row.length > 1 || row[0] !== '') rows.push(row);
      row = [];
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  const head = rows.shift().map((h) => h.replace(/^\uFEFF/, '').trim());
  return rows.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i]])));
}
const csv = (rel) => parseCsv(fs.readFileSync(dataPath(rel), 'utf8'));
const sum = (rows, col) => rows.reduce((s, r) => s + (Number(r[col]) || 0), 0);
const near = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

function checkOperators(ops, rows, what) {
  assert.equal(ops.length, new Set(rows.map((r) => r.Name)).size, `${what}: one row per operator name`);
  assert.equal(
    ops.reduce((s, o) => s + o.calls, 0),
    rows.length,
    `${what}: calls`,
  );
  const cols = {
    hostSelfUs: 'Host Self Duration(us)',
    hostTotalUs: 'Host Total Duration(us)',
    deviceSelfUs: 'Device Self Duration(us)',
    deviceTotalUs: 'Device Total Duration(us)',
  };
  for (const [k, col] of Object.entries(cols))
    near(
      ops.reduce((s, o) => s + o[k], 0),
      sum(rows, col),
      `${what} ${k}`,
    );
  // One operator in full: the most called.
  const counts = new Map();
  for (const r of rows) counts.set(r.Name, (counts.get(r.Name) || 0) + 1);
  const [name, calls] = [...counts].sort((a, b) => b[1] - a[1])[0];
  const op = ops.find((o) => o.name === name);
  assert.equal(op.calls, calls);
  near(
    op.hostTotalUs,
    sum(
      rows.filter((r) => r.Name === name),
      cols.hostTotalUs,
    ),
    `${what} ${name}`,
  );
}
function checkKernels(kernels, count, totalUs, minUs, maxUs, what) {
  assert.equal(
    kernels.reduce((s, k) => s + k.count, 0),
    count,
    `${what}: kernel count`,
  );
  near(
    kernels.reduce((s, k) => s + k.totalUs, 0),
    totalUs,
    `${what}: kernel time`,
  );
  near(Math.min(...kernels.map((k) => k.minUs)), minUs, `${what}: min`);
  near(Math.max(...kernels.map((k) => k.maxUs)), maxUs, `${what}: max`);
  for (const k of kernels) near(k.avgUs * k.count, k.totalUs, `${what}: avg of ${k.name}`);
}
function checkAscendKernels(kernels, rows, what) {
  const d = rows.map((r) => Number(r['Duration(us)']));
  checkKernels(
    kernels,
    rows.length,
    d.reduce((s, v) => s + v, 0),
    Math.min(...d),
    Math.max(...d),
    what,
  );
}
function checkDistributed(dist) {
  assert.deepEqual(
    dist.map((r) => r.card),
    [0, 1],
  );
  for (const r of dist) {
    const rows = csv(`${ASCEND}/rank${r.card}_ascend_pt/${OUT}/step_trace_time.csv`);
    near(r.computeUs, sum(rows, 'Computing'), `card ${r.card} compute`);
    near(r.communicationUs, sum(rows, 'Communication'), `card ${r.card} communication`);
    near(r.overlapUs, sum(rows, 'Overlapped'), `card ${r.card} overlap`);
    near(r.freeUs, sum(rows, 'Free'), `card ${r.card} free`);
  }
}

const skipAscend = hasData(ASCEND) ? false : `sample data absent: ../shared/data/${ASCEND}`;
const skipKineto = hasData(KINETO) ? false : `sample data absent: ../shared/data/${KINETO}`;

describe('profiler folders and the Runs tab', () => {
  let env, call;
  const stats = () => call(() => window.strata.stats(), undefined, 120_000, 'strata.stats()');
  const openFolder = (list) => call((l) => window.strata.open(l), list, 120_000, 'strata.open(folder)');
  const selectRun = (q) => call((x) => window.strata.selectRun(x), q, 120_000, 'strata.selectRun()');
  strataSuite((e) => {
    env = e;
    call = env.session.call;
  });

  test('an Ascend folder of two ranks via strata.open([{path, url}])', { skip: skipAscend }, async () => {
    const r = await openFolder(entries(ASCEND));
    assert.deepEqual(r.runs, [
      {
        name: 'text_level1',
        workers: [
          { name: 'rank0', spans: [''] },
          { name: 'rank1', spans: [''] },
        ],
      },
    ]);
    assert.equal(await call(() => window.strata.tab()), 'runs');
    const s = await stats();
    assert.deepEqual(s.runs, r.runs);
    assert.deepEqual(s.selection, { run: 'text_level1', worker: 'rank0', span: '', view: 'Operator' });
    assert.deepEqual(s.errors, []);
    for (const v of ['Operator', 'Kernel', 'Trace', 'Memory', 'Distributed', 'Diff'])
      assert.equal(s.views[v].enabled, true, v);
    checkOperators(s.operators, csv(`${ASCEND}/rank0_ascend_pt/${OUT}/operator_details.csv`), 'rank0');
    checkAscendKernels(s.kernels, csv(`${ASCEND}/rank0_ascend_pt/${OUT}/kernel_details.csv`), 'rank0');
    checkDistributed(s.distributed);
    // The other rank.
    assert.deepEqual(await selectRun({ worker: 'rank1', view: 'kernel' }), {
      run: 'text_level1',
      worker: 'rank1',
      span: '',
      view: 'Kernel',
    });
    const s1 = await stats();
    checkOperators(s1.operators, csv(`${ASCEND}/rank1_ascend_pt/${OUT}/operator_details.csv`), 'rank1');
    checkAscendKernels(s1.kernels, csv(`${ASCEND}/rank1_ascend_pt/${OUT}/kernel_details.csv`), 'rank1');
    assert.equal(await selectRun({ worker: 'rank7' }), null);
    env.session.assertNoErrors();
  });

  test('Diff compares two ranks; Trace opens the profile on the timeline', { skip: skipAscend }, async () => {
    await openFolder(entries(ASCEND));
    const d = await call(
      () => window.strata.runsDiff({ a: { run: 0, profile: 0 }, b: { run: 0, profile: 1 } }),
      undefined,
      120_000,
    );
    assert.deepEqual(d.errors, []);
    const a = csv(`${ASCEND}/rank0_ascend_pt/${OUT}/operator_details.csv`);
    const b = csv(`${ASCEND}/rank1_ascend_pt/${OUT}/operator_details.csv`);
    assert.equal(d.operatorDiff.length, new Set([...a, ...b].map((r) => r.Name)).size);
    const row = d.operatorDiff.find((x) => x.name === a[0].Name);
    const hostA = sum(
      a.filter((x) => x.Name === row.name),
      'Host Total Duration(us)',
    );
    const hostB = sum(
      b.filter((x) => x.Name === row.name),
      'Host Total Duration(us)',
    );
    near(row.aHostUs, hostA, 'diff a');
    near(row.bHostUs, hostB, 'diff b');
    near(row.hostDiffUs, hostB - hostA, 'diff');
    assert.ok(d.stepDiff.rows.length > 0);
    const last = d.stepDiff.rows[d.stepDiff.rows.length - 1];
    near(
      last.cumulativeDiffUs,
      d.stepDiff.rows.reduce((s, x) => s + x.diffUs, 0),
      'cumulative',
    );
    await selectRun({ worker: 'rank0', view: 'Trace' });
    assert.equal(await call(() => window.strata.tab()), 'timeline');
    const sum0 = await env.session.summary();
    assert.equal(sum0.files[0].name, 'trace_view.json');
    assert.ok(sum0.events > 0);
    env.session.assertNoErrors();
  });

  test('a missing file disables only the views that need it', { skip: skipAscend }, async () => {
    const gone = 'text_level1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv';
    await openFolder(entries(ASCEND, [gone]));
    await selectRun({ worker: 'rank1', view: 'Kernel' });
    const s = await stats();
    assert.deepEqual(s.views.Kernel, { enabled: false, note: 'needs kernel_details.csv' });
    assert.equal(s.views.Operator.enabled, true);
    assert.deepEqual(s.kernels, []);
    checkOperators(s.operators, csv(`${ASCEND}/rank1_ascend_pt/${OUT}/operator_details.csv`), 'rank1');
    await selectRun({ worker: 'rank0' });
    assert.equal((await stats()).views.Kernel.enabled, true);
    env.session.assertNoErrors();
  });

  test('the folder picker (<input webkitdirectory>) opens the same runs', { skip: skipAscend }, async () => {
    await env.page.setInputFiles('#folder-input', dataPath(ASCEND));
    let s = null;
    for (const t0 = Date.now(); Date.now() - t0 < CALL_TIMEOUT_MS; ) {
      s = await stats();
      if (s.runs.length && s.operators.length) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.deepEqual(s.runs, [
      {
        name: 'text_level1',
        workers: [
          { name: 'rank0', spans: [''] },
          { name: 'rank1', spans: [''] },
        ],
      },
    ]);
    checkOperators(s.operators, csv(`${ASCEND}/rank0_ascend_pt/${OUT}/operator_details.csv`), 'picked rank0');
    checkDistributed(s.distributed);
    env.session.assertNoErrors();
  });

  test("the plugin's three Kineto runs", { skip: skipKineto }, async () => {
    const r = await openFolder(entries(KINETO));
    assert.deepEqual(r.runs, [
      { name: 'resnet50_autograd_api_num_workers_0', workers: [{ name: 'worker0', spans: [''] }] },
      { name: 'resnet50_num_workers_0', workers: [{ name: 'worker0', spans: ['1623143566756'] }] },
      { name: 'resnet50_num_workers_4', workers: [{ name: 'worker0', spans: ['1623213129365'] }] },
    ]);
    await selectRun({ run: 'resnet50_num_workers_0', view: 'Kernel' });
    const s = await stats();
    assert.deepEqual(s.selection, {
      run: 'resnet50_num_workers_0',
      worker: 'worker0',
      span: '1623143566756',
      view: 'Kernel',
    });
    assert.equal(s.views.Distributed.enabled, false);
    assert.match(s.views.Distributed.note, /^needs /);
    const { records } = parseTrace(
      readTraceText(dataPath(`${KINETO}/resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz`)),
    );
    const kernels = records.filter((e) => e.ph === 'X' && String(e.cat).toLowerCase() === 'kernel');
    const d = kernels.map((e) => Number(e.dur));
    checkKernels(
      s.kernels,
      kernels.length,
      d.reduce((a, v) => a + v, 0),
      Math.min(...d),
      Math.max(...d),
      'kineto',
    );
    // Operators: every call of an operator is one "Operator" event of its name, leaving out the
    // step and the wrappers the plugin hides (tb_plugin is_operator_node: DataLoader __next__,
    // Optimizer.*, (Distributed)DataParallel.forward).
    const hidden = (n) =>
      /^ProfilerStep#/.test(n) ||
      /^enumerate\(DataLoader\)#.*\.__next__$/.test(n) ||
      n.startsWith('Optimizer.') ||
      n === 'DataParallel.forward' ||
      n === 'DistributedDataParallel.forward';
    const ops = records.filter((e) => e.ph === 'X' && e.cat === 'Operator' && !hidden(e.name));
    const byName = new Map();
    for (const e of ops) byName.set(e.name, (byName.get(e.name) || 0) + 1);
    assert.ok(s.operators.length > 0);
    for (const o of s.operators.slice(0, 20)) assert.equal(o.calls, byName.get(o.name), o.name);
    assert.equal(
      s.operators.reduce((a, o) => a + o.calls, 0),
      ops.length,
    );
    // Host total = the calls' durations (aten::conv2d never nests in itself).
    const conv = s.operators.find((o) => o.name === 'aten::conv2d');
    near(
      conv.hostTotalUs,
      ops.filter((e) => e.name === 'aten::conv2d').reduce((a, e) => a + e.dur, 0),
      'aten::conv2d host total',
    );
    // Call stacks and input shapes come from the trace's records.
    assert.ok(
      s.operators.some((o) => o.callStacks && o.callStacks.length),
      'call stacks',
    );
    await selectRun({ groupByShape: true });
    const g = await stats();
    const pairs = new Set(ops.map((e) => `${e.name}|${JSON.stringify((e.args || {})['Input Dims']) || ''}`));
    assert.equal(g.operators.length, pairs.size, 'one row per (name, input shape)');
    assert.equal(
      g.operators.reduce((a, o) => a + o.calls, 0),
      ops.length,
    );
    const shaped = g.operators.find((o) => o.name === 'aten::conv2d');
    assert.match(shaped.inputShape, /^\[\[/);
    await selectRun({ groupByShape: false });
    // Diff of two runs' traces: each side's calls are its own trace's.
    const diff = await call(
      () => window.strata.runsDiff({ a: { run: 1, profile: 0 }, b: { run: 2, profile: 0 } }),
      undefined,
      120_000,
    );
    assert.deepEqual(diff.errors, []);
    const other = parseTrace(
      readTraceText(dataPath(`${KINETO}/resnet50_num_workers_4/worker0.1623213129365.pt.trace.json.gz`)),
    ).records;
    const convB = other.filter((e) => e.ph === 'X' && e.cat === 'Operator' && e.name === 'aten::conv2d');
    const row = diff.operatorDiff.find((x) => x.name === 'aten::conv2d');
    assert.equal(row.aCalls, byName.get('aten::conv2d'));
    assert.equal(row.bCalls, convB.length);
    near(
      row.bHostUs,
      convB.reduce((a, e) => a + e.dur, 0),
      'diff b host',
    );
    near(row.hostDiffUs, row.bHostUs - row.aHostUs, 'diff host');
    env.session.assertNoErrors();
  });
});
