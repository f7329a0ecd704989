// SQLite profiles in the browser: an Nsight Systems export and an Ascend PyTorch profiler db
// picked with the file input (the worker reads the File's pages in slices through the reader
// VFS), their processes drawn in the timeline's headers, a kernel's details, flows from runtime
// calls; a database of another kind and a cut-short one end in a message, the trace kept.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { dataPath, dataUrl, folderEntries, poll, skipUnlessData, strataSuite, tempDir } from './lib.mjs';

const NSYS = 'nsys/nvfuser/pr3924/report1.sqlite';
const ASCEND_DIR = 'ascend/msinsight/db_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/';
const ASCEND = ASCEND_DIR + 'ascend_pytorch_profiler_0.db';
const ANALYSIS = ASCEND_DIR + 'analysis.db';
const ASCEND_FOLDER = 'ascend/msinsight/db_level1';
const TEXT_RANK0 = 'ascend/msinsight/text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/';
// The db's own numbers (sqlite3 on the file): PYTORCH_API rows of type "op" and their host time;
// TASK ⋈ COMPUTE_TASK_INFO rows and their time; OVERLAP_ANALYSIS within STEP_TIME by type
// (0 compute, 1 communication, 2 communication not overlapped, 3 free); OP_MEMORY rows.
const DB = {
  ops: 860,
  opsHostUs: 481579.75,
  kernels: 187,
  kernelsUs: 8903.431,
  computeUs: 8903.431,
  communicationUs: 102108.1,
  overlapUs: 102108.1 - 98071.947,
  freeUs: 25258.144,
  commOps: 4,
  opMemory: 184,
};
const near = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-3 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

const TEXT_OPS = TEXT_RANK0 + 'operator_details.csv';
describe('sqlite profiles', { skip: skipUnlessData(NSYS, ASCEND, ANALYSIS, TEXT_OPS) }, () => {
  let s;
  strataSuite((e) => (s = e.session));

  // Picks `file` with the file input and waits until the summary names it.
  async function pick(file) {
    const name = path.basename(file);
    await s.page.setInputFiles('#file-input', file);
    return poll(
      async () => {
        const x = await s.summary();
        const named = x.files.length && x.files[0].name === name;
        const failed = x.errors.some((e) => e.startsWith(name));
        return named || failed ? x : null;
      },
      { timeout: 60_000, message: `summary() after picking ${name}` },
    );
  }
  async function processNames() {
    await s.frame();
    const h = await s.call(() => window.strata.trackHeaders());
    return h.processes.map((p) => p.name);
  }

  test('an Nsight Systems export: GPU streams, host threads, kernel details, launch flows', async () => {
    const sum = await pick(dataPath(NSYS));
    assert.deepEqual(sum.errors, []);
    assert.equal(sum.files[0].format, 'nsys-sqlite');
    // 18 kernels + 3 memcpy + 3 memset + 990 runtime calls + 13513 NVTX ranges.
    assert.equal(sum.events, 18 + 3 + 3 + 990 + 13513);
    const names = await processNames();
    assert.ok(names.includes('GPU 0 NVIDIA H200'), JSON.stringify(names));
    const found = await s.find('nvjet_tst');
    assert.ok(found.matches.length > 0, JSON.stringify(found));
    await s.call((e) => window.strata.select({ event: e }), found.matches[0].event);
    const d = await poll(async () => s.details(), { message: 'details() of a kernel' });
    assert.match(d.name, /nvjet_tst/);
    assert.equal(d.cat, 'kernel');
    assert.ok(d.durNs > 0, JSON.stringify(d));
    // Its launch: the incoming flow from the driver call of the same correlationId (the
    // export's CUPTI_ACTIVITY_KIND_RUNTIME row; the nvjet kernel is launched by cuLaunchKernelEx).
    assert.ok(Array.isArray(d.flows), JSON.stringify(d));
    const launch = d.flows.filter((f) => f.incoming);
    assert.equal(launch.length, 1, JSON.stringify(d.flows));
    assert.equal(launch[0].name, 'cuLaunchKernelEx');
    assert.ok(launch[0].startNs < d.startNs, JSON.stringify(launch[0]));
    // And from the call's side, the kernel is its outgoing flow.
    await s.call((e) => window.strata.select({ event: e }), launch[0].event);
    const call = await poll(
      async () => {
        const x = await s.details();
        return x && x.name === 'cuLaunchKernelEx' ? x : null;
      },
      { message: 'details() of the launch call' },
    );
    assert.ok(
      call.flows.some((f) => !f.incoming && /nvjet_tst/.test(f.name)),
      JSON.stringify(call.flows),
    );
    // The kernel statistics see the kernels.
    const k = await s.call(() => window.strata.analysis('kernel_stats'));
    assert.ok(JSON.stringify(k).includes('nvjet_tst'), JSON.stringify(k).slice(0, 400));
  });

  test('an Ascend PyTorch profiler db: the text export timeline processes, tasks named', async () => {
    const sum = await pick(dataPath(ASCEND));
    assert.deepEqual(sum.errors, []);
    assert.equal(sum.files[0].format, 'ascend-db');
    const names = await processNames();
    for (const n of ['Python', 'CANN', 'Ascend Hardware', 'HCCL'])
      assert.ok(names.includes(n), `${n} in ${JSON.stringify(names)}`);
    // 2460 PyTorch API + 710 CANN API + 552 tasks + 4 communication ops.
    assert.equal(sum.events, 2460 + 710 + 552 + 4);
    const found = await s.find('hcom_allReduce');
    assert.ok(found.matches.length > 0, JSON.stringify(found));
  });

  test('analysis.db and a cut-short db say why, the trace shown stays', async () => {
    const before = await s.summary();
    const a = await pick(dataPath(ANALYSIS));
    assert.ok(
      a.errors.some((e) => /analysis\.db: .*ascend_pytorch_profiler_<rank>\.db/.test(e)),
      JSON.stringify(a.errors),
    );
    assert.equal(a.events, before.events);
    const tmp = tempDir();
    const cut = path.join(tmp.dir, 'cut.sqlite');
    const bytes = fs.readFileSync(dataPath(NSYS));
    fs.writeFileSync(cut, bytes.subarray(0, bytes.length >> 2));
    const c = await pick(cut);
    assert.ok(
      c.errors.some((e) => /^cut\.sqlite: .*(damaged|cut short)/.test(e)),
      JSON.stringify(c.errors),
    );
    assert.equal(c.events, before.events);
    tmp.cleanup();
  });

  test('a db by URL opens the same', async () => {
    const sum = await s.open(dataUrl(NSYS));
    assert.deepEqual(sum.errors, []);
    assert.equal(sum.files[0].format, 'nsys-sqlite');
  });

  // The Runs tab's tables of an Ascend profile read from its db, as from the text export.
  async function checkDbStats(st) {
    assert.deepEqual(st.errors, []);
    for (const v of ['Operator', 'Kernel', 'Trace', 'Memory', 'Distributed'])
      assert.equal(st.views[v].enabled, true, `${v}: ${JSON.stringify(st.views[v])}`);
    assert.equal(
      st.operators.reduce((a, o) => a + o.calls, 0),
      DB.ops,
      'operator calls',
    );
    near(
      st.operators.reduce((a, o) => a + o.hostTotalUs, 0),
      DB.opsHostUs,
      'operator host time',
    );
    assert.ok(
      st.operators.some((o) => o.deviceSelfUs > 0),
      'some operator launched device tasks',
    );
    const stats = () => s.call(() => window.strata.stats(), undefined, 120_000, 'strata.stats()');
    await s.call((q) => window.strata.selectRun(q), { view: 'Kernel' }, 120_000);
    const k = await stats();
    assert.equal(
      k.kernels.reduce((a, x) => a + x.count, 0),
      DB.kernels,
      'kernel count',
    );
    near(
      k.kernels.reduce((a, x) => a + x.totalUs, 0),
      DB.kernelsUs,
      'kernel time',
    );
    await s.call((q) => window.strata.selectRun(q), { view: 'Distributed' }, 120_000);
    const d = await stats();
    assert.deepEqual(d.errors, []);
    assert.equal(d.distributed.length, 1, JSON.stringify(d.distributed));
    const r = d.distributed[0];
    near(r.computeUs, DB.computeUs, 'compute');
    near(r.communicationUs, DB.communicationUs, 'communication');
    near(r.overlapUs, DB.overlapUs, 'overlap');
    near(r.freeUs, DB.freeUs, 'free');
    return d;
  }

  test('an Ascend db folder: Operator, Kernel and Distributed views from its tables', async () => {
    const r = await s.call((l) => window.strata.open(l), folderEntries(ASCEND_FOLDER), 120_000);
    assert.deepEqual(r.runs, [{ name: 'db_level1', workers: [{ name: 'rank0', spans: [''] }] }]);
    const st = await s.call(() => window.strata.stats(), undefined, 120_000);
    assert.equal(st.note, 'read ascend_pytorch_profiler_0.db');
    await checkDbStats(st);
  });

  test('a folder with the db and the text export is read from the db, and says so', async () => {
    // db_level1's entries plus rank0's text export placed beside its db.
    const out = 'db_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/';
    const csvs = ['operator_details.csv', 'kernel_details.csv', 'step_trace_time.csv', 'trace_view.json'];
    const list = folderEntries(ASCEND_FOLDER).concat(
      csvs.map((f) => ({ path: out + f, url: dataUrl(TEXT_RANK0 + f) })),
    );
    await s.call((l) => window.strata.open(l), list, 120_000);
    const st = await s.call(() => window.strata.stats(), undefined, 120_000);
    assert.equal(st.note, 'read ascend_pytorch_profiler_0.db; the CSV export beside it was not read');
    await checkDbStats(st); // the db's numbers, not the CSV's (859 operator calls there)
    // The profile's trace and memory come from the db too.
    await s.call((q) => window.strata.selectRun(q), { view: 'Memory' }, 120_000);
    const sum = await poll(
      async () => {
        const x = await s.summary();
        return x.files.length && x.files[0].name === 'ascend_pytorch_profiler_0.db' ? x : null;
      },
      { timeout: 60_000, message: 'the db loaded for the Memory view' },
    );
    assert.equal(sum.files[0].format, 'ascend-db');
    // summary() says which file was read and that the export beside it was set aside.
    assert.deepEqual(sum.notes, [st.note]);
    const m = await poll(
      async () => {
        const x = await s.call(() => window.strata.memory());
        return x && Array.isArray(x.devices) && x.devices.some((d) => d.name === 'NPU:0') ? x : null;
      },
      { message: 'memory() of the db' },
    );
    // OP_MEMORY: one allocation per row, on the text export's device name.
    assert.equal(m.devices.find((d) => d.name === 'NPU:0').allocations, DB.opMemory);
  });
});
