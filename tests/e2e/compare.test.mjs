// Compare two runs in headless Chromium: HTA's two real Kineto ranks, rank 0 as A (the trace
// loaded) and rank 1 as B through strata.compare(null, b); the operator and kernel tables equal
// an independent diff of the two files' cpu_op / kernel records computed here; the steps are
// matched by number; the Compare tab shows the changed rows by |Δ|, a row selects its events in
// A's timeline and reports B's count, and its CSV holds every row; the call tree's rows are in
// pre-order with siblings by |Δ|, a row selects its leaf name's events, its CSV is the reply's
// rows (the tree's figures against the raw events: tree_diff_test); a bad B keeps A and the
// previous B; a trace dropped on the tab, or picked with "Compare with...", is the new B.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { dataPath, dataUrl, parseTrace, poll, readTraceText, skipUnlessData, strataSuite, usToNs } from './lib.mjs';

const DIR = 'pytorch_kineto/hta/trace_filter';
const RANK0 = `${DIR}/sampled_rank-0.json.gz`;
const RANK1 = `${DIR}/sampled_rank-1.json.gz`;

// Per name of the records of category `cat` (complete events): {count, totalNs}.
function sums(rel, cat) {
  const out = new Map();
  for (const r of parseTrace(readTraceText(dataPath(rel))).records) {
    if (r.ph !== 'X' || r.cat !== cat) continue;
    const x = out.get(r.name) || { count: 0, totalNs: 0 };
    x.count += 1;
    x.totalNs += usToNs(r.dur);
    out.set(r.name, x);
  }
  return out;
}

describe('compare two runs', { skip: skipUnlessData(RANK0, RANK1) }, () => {
  let s;
  strataSuite((e) => (s = e.session));
  const compare = (a, b, what) =>
    s.call(([x, y]) => window.strata.compare(x, y), [a, b], 120_000, what || 'strata.compare()');
  // A row's click (key: a table's, or 'tree' with the row's path); A's selection once it has one.
  async function selectRow(key, name, message) {
    assert.equal(await s.call(([k, n]) => window.strata.compareSelect(k, n), [key, name]), true);
    await s.frame();
    await s.frame();
    return poll(
      async () => {
        const x = await s.call(() => window.strata.selection());
        return x.count > 0 && x;
      },
      { message },
    );
  }

  test('strata.compare(null, b): the tables equal an independent diff; steps by number', async () => {
    await s.open(dataUrl(RANK0));
    const r = await compare(null, dataUrl(RANK1));
    assert.equal(r.ok, true, r.error);
    const res = r.result;
    assert.equal(res.a.name, 'sampled_rank-0.json.gz');
    assert.equal(res.b.name, 'sampled_rank-1.json.gz');
    for (const [key, cat] of [
      ['operator', 'cpu_op'],
      ['kernel', 'kernel'],
    ]) {
      const a = sums(RANK0, cat),
        b = sums(RANK1, cat);
      const t = res.tables[key];
      const only = (x, y) => [...x.keys()].filter((n) => !y.has(n)).sort();
      assert.deepEqual(t.added.map((row) => row.name).sort(), only(b, a), `${key} added`);
      assert.deepEqual(t.removed.map((row) => row.name).sort(), only(a, b), `${key} removed`);
      const both = [...a.keys()].filter((n) => b.has(n));
      assert.equal(t.changed.length + t.unchanged, both.length, key);
      let differ = 0;
      for (const n of both) {
        const x = a.get(n),
          y = b.get(n);
        const row = t.changed.find((c) => c.name === n);
        if (x.count !== y.count || Math.abs(x.totalNs - y.totalNs) > x.count + y.count) {
          ++differ;
          assert.ok(row, `${key} ${n} changed`);
        }
        if (!row) continue;
        assert.equal(row.aCount, x.count, n);
        assert.equal(row.bCount, y.count, n);
        assert.ok(Math.abs(row.aTotalNs - x.totalNs) <= x.count, `${n}: ${row.aTotalNs} vs ${x.totalNs}`);
        assert.ok(Math.abs(row.bTotalNs - y.totalNs) <= y.count, `${n}: ${row.bTotalNs} vs ${y.totalNs}`);
        assert.equal(row.deltaNs, row.bTotalNs - row.aTotalNs);
      }
      assert.ok(differ > 0, key);
      for (let i = 1; i < t.changed.length; ++i)
        assert.ok(Math.abs(t.changed[i - 1].deltaNs) >= Math.abs(t.changed[i].deltaNs), `${key} by |Δ|`);
    }
    assert.equal(res.steps.align, 'number');
    assert.deepEqual(
      res.steps.rows.map((row) => [row.aStep, row.bStep]),
      [
        [551, 551],
        [552, 552],
      ],
    );
    for (const row of res.steps.rows) {
      const sum = (p) => Object.values(p).reduce((x, y) => x + y, 0);
      assert.equal(sum(row.aParts), row.aDurNs);
      assert.equal(sum(row.bParts), row.bDurNs);
    }
    const again = await s.call(() => window.strata.compareResult());
    assert.deepEqual(again, res);
    // A is untouched: still the one trace loaded.
    const sum = await s.summary();
    assert.deepEqual(
      sum.files.map((f) => f.name),
      ['sampled_rank-0.json.gz'],
    );
    s.assertNoErrors();
  });

  test('the Compare tab: rows by |Δ|, a row selects its events in A, CSV of every table', async () => {
    const res = await s.call(() => window.strata.compareResult());
    await s.call(() => window.strata.setTab('compare'));
    await s.frame();
    const v = await s.call(() => window.strata.compareView());
    assert.equal(v.hasB, true);
    assert.equal(v.key, 'operator');
    assert.equal(v.align, 'number');
    const t = res.tables.operator;
    const byAbs = [...t.changed].sort((x, y) => Math.abs(y.deltaNs) - Math.abs(x.deltaNs));
    assert.deepEqual(
      v.changed.map((n) => Math.abs(t.changed.find((row) => row.name === n).deltaNs)),
      byAbs.map((row) => Math.abs(row.deltaNs)),
    );
    assert.equal(v.added.length, t.added.length);
    assert.equal(v.removed.length, t.removed.length);
    const top = t.changed.find((row) => row.name === v.changed[0]);
    const sel = await selectRow('operator', top.name, 'the row selects its events in A');
    assert.equal(sel.count, top.aCount);
    assert.ok(sel.events.every((e) => e.name === top.name));
    const after = await s.call(() => window.strata.compareView());
    assert.equal(after.selected, top.name);
    assert.equal(after.selectedB, top.bCount);
    for (const key of ['operator', 'kernel', 'xla_op', 'category']) {
      const csv = await s.call((k) => window.strata.compareCsv(k), key);
      const lines = csv.trimEnd().split('\n');
      const tk = res.tables[key];
      assert.equal(lines[0].split(',')[0], 'status');
      assert.equal(lines.length - 1, tk.changed.length + tk.added.length + tk.removed.length, key);
    }
    const steps = (await s.call(() => window.strata.compareCsv('steps'))).trimEnd().split('\n');
    assert.equal(steps.length, 3);
    assert.match(steps[1], /^551,551,/);
    s.assertNoErrors();
  });

  test('the call tree: siblings by |Δ|, a row selects its events in A, CSV rows equal the reply', async () => {
    const res = await s.call(() => window.strata.compareResult());
    const tree = res.tree;
    assert.ok(tree.rows.length > 0, 'two ranks differ');
    assert.ok(tree.aNodes > 0 && tree.bNodes > 0);
    assert.equal(tree.note, '');
    const statuses = new Set(tree.rows.map((r) => r.status));
    for (const st of statuses) assert.ok(['changed', 'unchanged', 'added', 'removed', 'replaced'].includes(st), st);
    tree.rows.forEach((r, i) => {
      assert.equal(r.deltaNs, r.bTotalNs - r.aTotalNs, r.path);
      if (r.parent >= 0) {
        assert.ok(r.parent < i, 'pre-order');
        assert.equal(r.depth, tree.rows[r.parent].depth + 1);
      } else assert.equal(r.depth, 0);
      if (r.status === 'replaced') assert.ok(r.aNames.length > 0 && r.bNames.length > 0, r.path);
    });
    const siblings = new Map();
    for (const r of tree.rows) siblings.set(r.parent, [...(siblings.get(r.parent) || []), Math.abs(r.deltaNs)]);
    for (const [, d] of siblings) for (let i = 1; i < d.length; ++i) assert.ok(d[i - 1] >= d[i], 'siblings by |Δ|');

    await s.call(() => window.strata.setTab('compare'));
    const row = tree.rows.find((r) => r.status === 'changed' && !r.name.startsWith('ProfilerStep#') && r.aCount > 0);
    assert.ok(row, 'a changed operator row');
    const sel = await selectRow('tree', row.path, 'the tree row selects its events in A');
    assert.ok(sel.events.every((e) => e.name === row.name));
    assert.ok(sel.count >= row.aCount, 'every event of the leaf name, this path among them');
    const v = await s.call(() => window.strata.compareView());
    assert.equal(v.key, 'tree');
    assert.equal(v.selected, row.path);
    assert.equal(v.selectedB, row.bCount);
    assert.ok(v.treeShown.length > 0);
    const paths = new Set(tree.rows.map((r) => r.path));
    assert.ok(v.treeShown.every((p) => paths.has(p)));
    assert.deepEqual(
      v.treeShown.slice(0, 3),
      tree.rows
        .filter((r) => r.depth <= 1)
        .slice(0, 3)
        .map((r) => r.path),
      'the top two levels shown first, in the reply order',
    );

    // One CSV line per row, in the reply's order, with its path and figures.
    const csv = (await s.call(() => window.strata.compareCsv('tree'))).trimEnd().split('\n');
    const fields = (line) => {
      const out = [];
      let cur = '',
        quoted = false;
      for (let i = 0; i < line.length; ++i) {
        const c = line[i];
        if (quoted && c === '"' && line[i + 1] === '"') ((cur += '"'), ++i);
        else if (c === '"') quoted = !quoted;
        else if (c === ',' && !quoted) (out.push(cur), (cur = ''));
        else cur += c;
      }
      return [...out, cur];
    };
    const head = fields(csv[0]);
    assert.deepEqual(head.slice(0, 5), ['status', 'depth', 'path', 'name', 'a_count']);
    assert.equal(csv.length - 1, tree.rows.length);
    const col = (n) => head.indexOf(n);
    tree.rows.forEach((r, i) => {
      const f = fields(csv[i + 1]);
      assert.equal(f[col('status')], r.status);
      assert.equal(f[col('path')], r.path);
      assert.equal(Number(f[col('a_count')]), r.aCount);
      assert.equal(Number(f[col('b_count')]), r.bCount);
      assert.ok(Math.abs(Number(f[col('delta_us')]) * 1e3 - r.deltaNs) < 1, r.path);
    });
    s.assertNoErrors();
  });

  test('a bad B keeps A and the previous B, and says why', async () => {
    const r = await s.call(async () => {
      const bytes = new TextEncoder().encode('PK\u0003\u0004 not a trace');
      return window.strata.compare(null, new File([bytes], 'broken.zip'));
    });
    assert.equal(r.ok, false);
    assert.match(r.error, /broken\.zip/);
    assert.equal(r.result.b.name, 'sampled_rank-1.json.gz');
    assert.ok(r.result.errors.some((e) => e.includes('broken.zip')));
    const v = await s.call(() => window.strata.compareView());
    assert.match(v.error, /broken\.zip/);
    assert.equal(v.b, 'sampled_rank-1.json.gz');
    const sum = await s.summary();
    assert.deepEqual(
      sum.files.map((f) => f.name),
      ['sampled_rank-0.json.gz'],
    );
  });

  test('a trace dropped on the Compare tab is B; the same trace against itself is empty', async () => {
    await s.call(() => window.strata.setTab('compare'));
    const bytes = fs.readFileSync(dataPath(RANK0));
    const dt = await s.page.evaluateHandle(
      ({ b64 }) => {
        const bin = atob(b64);
        const u8 = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
        const d = new DataTransfer();
        d.items.add(new File([u8], 'itself.json.gz'));
        return d;
      },
      { b64: bytes.toString('base64') },
    );
    for (const type of ['dragenter', 'dragover', 'drop'])
      await s.page.dispatchEvent('#canvas', type, { dataTransfer: dt });
    const v = await poll(
      async () => {
        const x = await s.call(() => window.strata.compareView());
        return x.b === 'itself.json.gz' && x;
      },
      { timeout: 60_000, message: 'the dropped file as B' },
    );
    assert.deepEqual([v.changed, v.added, v.removed], [[], [], []]);
    const res = await s.call(() => window.strata.compareResult());
    for (const t of Object.values(res.tables)) assert.deepEqual([t.changed, t.added, t.removed], [[], [], []]);
    assert.deepEqual(res.tree.rows, []);
    assert.equal(res.tree.unchanged, res.tree.aNodes);
    assert.equal(await s.call(() => window.strata.tab()), 'compare');
    const sum = await s.summary();
    assert.equal(sum.files[0].name, 'sampled_rank-0.json.gz'); // the drop did not replace A
  });

  test('"Compare with..." picks B; strata.compare(a, b) opens A first', async () => {
    await s.page.setInputFiles('#compare-input', dataPath(RANK1));
    await poll(async () => (await s.call(() => window.strata.compareView())).b === 'sampled_rank-1.json.gz', {
      timeout: 60_000,
      message: 'the picked file as B',
    });
    const r = await compare(dataUrl(RANK1), dataUrl(RANK0), 'strata.compare(rank 1, rank 0)');
    assert.equal(r.ok, true, r.error);
    assert.equal(r.result.a.name, 'sampled_rank-1.json.gz');
    assert.equal(r.result.b.name, 'sampled_rank-0.json.gz');
    s.assertNoErrors();
  });
});
