// Every rank on one timeline: HTA's two real Kineto ranks (distributedInfo rank 0 and 1) opened
// together through strata.open([...]) load as one trace, a section group per rank on one time
// axis; strata.analysis('ranks') compares them (per-rank GPU parts equal a sweep over each file's
// GPU records, collectives matched across ranks); the folder of the two opens in the Runs tab
// with its Distributed view enabled, also when the files are renamed (ranks found by their heads).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dataPath, dataUrl, skipUnlessData, strataSuite } from './lib.mjs';
import { gpuRecords, sweep } from './gpu-sweep.mjs';

const DIR = 'pytorch_kineto/hta/trace_filter';
const RANK0 = `${DIR}/sampled_rank-0.json.gz`;
const RANK1 = `${DIR}/sampled_rank-1.json.gz`;

describe('every rank on one timeline', { skip: skipUnlessData(RANK0, RANK1) }, () => {
  let s;
  strataSuite((e) => (s = e.session));

  test('two ranks opened together are one trace with a section group per rank', async () => {
    const sections = async () => {
      await s.frame();
      const h = await s.call(() => window.strata.trackHeaders());
      return h.processes.map((p) => p.name).filter((n) => n !== 'Global');
    };
    const one = await s.open(dataUrl(RANK0));
    const oneSections = await sections();
    const two = await s.open(dataUrl(RANK1));
    const twoSections = await sections();
    const both = await s.call(
      (l) => window.strata.open(l),
      [dataUrl(RANK0), dataUrl(RANK1)],
      120_000,
      'strata.open([rank 0, rank 1])',
    );
    assert.deepEqual(both.errors, []);
    assert.deepEqual(
      both.files.map((f) => f.name),
      ['sampled_rank-0.json.gz', 'sampled_rank-1.json.gz'],
    );
    assert.equal(both.events, one.events + two.events);
    // One clock: the load spans both ranks as each ran.
    assert.equal(both.startNs, Math.min(one.startNs, two.startNs));
    assert.equal(both.endNs, Math.max(one.endNs, two.endNs));
    // The sections: rank 0's, then rank 1's, each named after its own (the GPUs' pids 0..7 are
    // in both files: two sections each).
    const names = await sections();
    assert.equal(names.length, oneSections.length + twoSections.length, JSON.stringify(names));
    assert.deepEqual(names, [...oneSections.map((n) => `rank 0 ${n}`), ...twoSections.map((n) => `rank 1 ${n}`)]);
    const firstOf1 = names.findIndex((n) => n.startsWith('rank 1 '));
    assert.ok(firstOf1 > 0, JSON.stringify(names));
    names.forEach((n, i) => assert.ok(n.startsWith(i < firstOf1 ? 'rank 0 ' : 'rank 1 '), `${i}: ${n}`));
    s.assertNoErrors();
  });

  test("strata.analysis('ranks') compares the ranks: parts and collectives", async () => {
    await s.call((l) => window.strata.open(l), [dataUrl(RANK0), dataUrl(RANK1)], 120_000, 'open both');
    const list = await s.call(() => window.strata.analysis());
    assert.ok(
      list.analyses.find((a) => a.name === 'ranks' && a.available),
      JSON.stringify(list),
    );
    const t = await s.call(() => window.strata.analysis('ranks'));
    assert.deepEqual(t.errors, []);
    const col = (k) => t.columns.findIndex((c) => c.key === k);
    const ranks = t.rows.filter((r) => r.parent === -1 && String(r.cells[col('name')]).startsWith('rank '));
    assert.deepEqual(
      ranks.map((r) => r.cells[col('name')]),
      ['rank 0', 'rank 1'],
    );
    const records = [gpuRecords(dataPath(RANK0)), gpuRecords(dataPath(RANK1))];
    ranks.forEach((row, i) => {
      const want = sweep(records[i]);
      for (const k of ['span', 'compute', 'exposed_comm', 'exposed_memcpy', 'idle'])
        assert.equal(BigInt(row.cells[col(k)]), want[k], `rank ${i} ${k}`);
      assert.ok(row.link.tracks.length >= 1, 'a rank row opens its GPU streams');
    });
    // Collectives: the k-th nccl kernel of each rank, latency the shorter, skew the start gap.
    const nccl = records.map((rs) => rs.filter((r) => r.kind === 1).sort((x, y) => (x.a < y.a ? -1 : 1)));
    const group = t.rows.findIndex((r) => String(r.cells[col('name')]).startsWith('Collectives'));
    const coll = t.rows.filter((r) => r.parent === group);
    assert.equal(coll.length, nccl[0].length);
    const want = nccl[0].map((p, k) => {
      const q = nccl[1][k];
      const dp = p.b - p.a,
        dq = q.b - q.a;
      return {
        first: p.a < q.a ? p.a : q.a,
        latency: dp < dq ? dp : dq,
        skew: p.a > q.a ? p.a - q.a : q.a - p.a,
        late: q.a > p.a ? 'rank 1' : 'rank 0',
      };
    });
    want.sort((x, y) => (x.first < y.first ? -1 : x.first > y.first ? 1 : 0));
    coll.forEach((row, i) => {
      assert.equal(BigInt(row.cells[col('latency')]), want[i].latency, `collective ${i} latency`);
      assert.equal(BigInt(row.cells[col('skew')]), want[i].skew, `collective ${i} skew`);
      assert.equal(row.cells[col('late_rank')], want[i].late, `collective ${i} late rank`);
      // It opens the late rank's kernel; no message size in these files, so no bandwidth.
      assert.ok(row.link.name.startsWith('ncclKernel'), JSON.stringify(row.link));
      assert.equal(row.link.tracks.length, 1);
      assert.equal(row.cells[col('busbw')], null);
      assert.ok(row.why && row.why.busbw, JSON.stringify(row));
    });
    // The late rank's events are what the link selects.
    const first = coll[0];
    const ev = await s.call(
      ([n, tr]) => window.strata.eventsNamed(n, tr),
      [first.link.name, first.link.tracks],
      30_000,
      'eventsNamed',
    );
    assert.ok(JSON.stringify(ev).length > 2, JSON.stringify(ev));
    s.assertNoErrors();
  });

  test('one rank alone gets a sentence, not a table', async () => {
    await s.open(dataUrl(RANK0));
    const t = await s.call(() => window.strata.analysis('ranks'));
    assert.deepEqual(t.rows, []);
    assert.match(t.errors[0], /^one rank \(rank 0\) in this trace/);
  });

  // The folder opens as one run of these workers, and its Distributed view lists cards 0 and 1.
  async function assertDistributedRun(folder, run, workers) {
    const r = await s.call((l) => window.strata.open(l), folder, 120_000, 'strata.open(folder)');
    assert.deepEqual(r.runs, [{ name: run, workers: workers.map((name) => ({ name, spans: [''] })) }]);
    await s.call((q) => window.strata.selectRun(q), { view: 'Distributed' }, 120_000, 'selectRun');
    const st = await s.call(() => window.strata.stats(), undefined, 120_000, 'strata.stats()');
    assert.equal(st.views.Distributed.enabled, true, JSON.stringify(st.views.Distributed));
    assert.deepEqual(
      st.distributed.map((d) => d.card),
      [0, 1],
    );
    s.assertNoErrors();
  }

  test('the folder of the ranks opens in the Runs tab with Distributed enabled', async () => {
    const folder = ['sampled_rank-0.json.gz', 'sampled_rank-1.json.gz'].map((f) => ({
      path: `trace_filter/${f}`,
      url: dataUrl(`${DIR}/${f}`),
    }));
    await assertDistributedRun(folder, 'trace_filter', ['sampled_rank-0', 'sampled_rank-1']);
  });

  test('renamed ranks (names that say nothing) are found by their distributedInfo', async () => {
    // rank 1's file first, under names that neither say Kineto nor the rank.
    const folder = [
      { path: 'job/first.json.gz', url: dataUrl(RANK1) },
      { path: 'job/second.json.gz', url: dataUrl(RANK0) },
    ];
    await assertDistributedRun(folder, 'job', ['rank0', 'rank1']);
  });
});
