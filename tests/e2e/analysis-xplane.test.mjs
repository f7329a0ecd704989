// Framework Op Stats on a real JAX GPU xplane, as a user opens it: the analysis is listed and
// available, its rows carry device time (the XLA ops grouped by the framework op their HloProto
// names), the device times add up to what HLO Stats counts over the same XLA Ops events, a row's
// link selects its runs on the timeline's Framework Ops row, and the Analysis tab draws the table.
// On a real TensorFlow GPU xplane: the rows are the TensorFlow ops by name (as XProf's
// TensorFlow Stats), their type in a column of its own, so two ops of one type (the timeline
// shows both by that type) are two rows; a row's link selects that op's own events, not the
// other ops of its type; the tab draws the type.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { boxCentre, clickMouse, dataUrl, poll, skipUnlessData, strataSuite } from './lib.mjs';

const GEMM = 'xplane/tracelens/jax08_gemm/tw003.xplane.pb';
const TF = 'xplane/xprof/34.83.195.179_6003.xplane.pb';

const col = (table, key) => {
  const i = table.columns.findIndex((c) => c.key === key);
  assert.ok(i >= 0, `column ${key} in ${table.columns.map((c) => c.key)}`);
  return i;
};

// Opens the Analysis tab's framework_op_stats sub-tab by a click, as a user does, and returns
// what the tab drew once the table is there.
async function openFrameworkOpTab(s) {
  assert.equal(await s.call(() => window.strata.setTab('analysis')), true);
  const view = () => s.call(() => window.strata.analysisView());
  const first = await poll(
    async () => {
      const v = await view();
      return v && v.analyses.length > 0 && v.layout.subTabs.length === v.analyses.length && v;
    },
    { timeout: 60_000, message: 'the sub-tabs' },
  );
  const i = first.analyses.findIndex((x) => x.name === 'framework_op_stats');
  assert.ok(i >= 0, first.analyses.map((x) => x.name).join());
  const c = boxCentre(first.layout.subTabs[i]);
  await clickMouse(s, c.x, c.y);
  return poll(
    async () => {
      const w = await view();
      return w && w.analysis === 'framework_op_stats' && !w.loading && w.rowCount > 0 && w.layout.rows.length > 0 && w;
    },
    { timeout: 60_000, message: 'the framework_op_stats table' },
  );
}

describe('framework op stats on an xplane', { skip: skipUnlessData(GEMM) }, () => {
  let env;
  strataSuite((e) => (env = e));
  const analysis = (name, args) => env.session.call(([n, a]) => window.strata.analysis(n, a), [name, args || {}]);

  test('rows with device time, adding up to the XLA ops HLO Stats counts', async () => {
    const s = await env.session.open(dataUrl(GEMM));
    assert.deepEqual(s.errors, []);
    const list = await analysis('');
    const a = list.analyses.find((x) => x.name === 'framework_op_stats');
    assert.ok(a && a.available, JSON.stringify(a));
    const t = await analysis('framework_op_stats');
    assert.deepEqual(t.errors, []);
    const dev = col(t, 'device_total');
    const withDevice = t.rows.filter((r) => r.cells[dev] > 0);
    assert.ok(withDevice.length > 0, JSON.stringify(t.rows.slice(0, 3)));
    // JAX framework ops by their scoped names (jit(f)/op), not only HLO op names.
    assert.ok(
      withDevice.some((r) => r.cells[0].includes('/')),
      withDevice.map((r) => r.cells[0]),
    );
    const h = await analysis('hlo_stats');
    const total = col(h, 'total_time');
    const sum = (rows, c) => rows.reduce((acc, r) => acc + Number(r.cells[c] || 0), 0);
    assert.equal(sum(t.rows, dev), sum(h.rows, total));
    // The cuBLAS custom-calls of every jit_dot program are jit(dot)/dot_general's (their
    // instruction's op_name), not rows of their own.
    const hloName = col(h, 'hlo_op_name');
    const calls = h.rows.filter((r) => r.cells[hloName] === 'custom-call.1');
    assert.ok(calls.length > 0, JSON.stringify(h.rows.slice(0, 3)));
    assert.ok(!t.rows.some((r) => r.cells[0] === 'custom-call.1'));
    const dot = t.rows.find((r) => r.cells[0] === 'jit(dot)/dot_general');
    assert.ok(dot && dot.cells[dev] >= sum(calls, total), JSON.stringify(dot));
    // A framework op's link selects its runs on the Framework Ops row: that op's own (the
    // framework op mode), among the runs the timeline shows by its name.
    const op = withDevice.find((r) => r.cells[0].includes('/'));
    const named = await env.session.call(([n, tr]) => window.strata.eventsNamed(n, tr), [op.link.name, op.link.tracks]);
    const own = await env.session.call((l) => window.strata.eventsOfLink(l), op.link);
    assert.ok(
      own.count > 0 && own.count <= named.count,
      JSON.stringify({ link: op.link, own: own.count, named: named.count }),
    );
    assert.ok(
      own.events.every((e) => e.name === op.link.name),
      JSON.stringify(own.events.slice(0, 2)),
    );
    env.session.assertNoErrors();
  });

  test('the Analysis tab draws the table with its device time', async () => {
    const s = env.session;
    const v = await openFrameworkOpTab(s);
    const d = v.columns.indexOf('device_total');
    assert.ok(d >= 0, v.columns.join());
    assert.ok(
      v.rows.some((r) => r.values[d] > 0),
      JSON.stringify(v.rows.slice(0, 3)),
    );
    s.assertNoErrors();
  });
});

describe('framework op stats on a TensorFlow xplane', { skip: skipUnlessData(TF) }, () => {
  let env;
  strataSuite((e) => (env = e));
  const analysis = (name) => env.session.call((n) => window.strata.analysis(n, {}), name);

  test('one row per op name, its type beside it', async () => {
    const s = await env.session.open(dataUrl(TF));
    assert.deepEqual(s.errors, []);
    const t = await analysis('framework_op_stats');
    assert.deepEqual(t.errors, []);
    const type = col(t, 'type');
    const count = col(t, 'count');
    // The timeline shows every _Arg op as "_Arg": the table has each by its own name.
    const args = t.rows.filter((r) => r.cells[type] === '_Arg');
    assert.ok(args.length >= 2, JSON.stringify(t.rows.slice(0, 3)));
    assert.equal(new Set(args.map((r) => r.cells[0])).size, args.length);
    assert.ok(
      args.every((r) => r.cells[0] !== '_Arg' && r.link.name === '_Arg'),
      JSON.stringify(args.slice(0, 3)),
    );
    assert.ok(!t.rows.some((r) => r.cells[0] === '_Arg'));
    // A row's link selects that op's own events: as many as its count, none of another op of
    // its type, though the timeline shows both by that type.
    const ofLink = (l) => env.session.call((x) => window.strata.eventsOfLink(x), l);
    const [a, b] = args;
    assert.equal(a.link.frameworkOp, a.cells[0]);
    const selA = await ofLink(a.link);
    const selB = await ofLink(b.link);
    assert.equal(selA.count, a.cells[count], JSON.stringify({ link: a.link, count: selA.count }));
    assert.equal(selB.count, b.cells[count], JSON.stringify({ link: b.link, count: selB.count }));
    const idsA = new Set(selA.events.map((e) => e.event));
    assert.ok(!selB.events.some((e) => idsA.has(e.event)), 'two ops of one type share no event');
    assert.ok(
      selA.events.every((e) => e.name === '_Arg'),
      JSON.stringify(selA.events.slice(0, 2)),
    );
    const byType = await env.session.call(([n, tr]) => window.strata.eventsNamed(n, tr), [a.link.name, []]);
    assert.ok(byType.count >= selA.count + selB.count, JSON.stringify({ byType: byType.count }));
    env.session.assertNoErrors();
  });

  test('the Analysis tab draws the type column', async () => {
    const s = env.session;
    const v = await openFrameworkOpTab(s);
    const type = v.columns.indexOf('type');
    assert.ok(type >= 0, v.columns.join());
    assert.ok(
      v.rows.some((r) => r.cells[type] && r.cells[0] !== r.cells[type]),
      JSON.stringify(v.rows.slice(0, 3)),
    );
    s.assertNoErrors();
  });
});
