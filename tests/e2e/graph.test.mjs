// The Graph tab end to end: HLO text and HloProto files open into the Graph tab (the trace
// stays), laid out without overlaps (checked here from strata.graph()'s boxes), expand / select
// / hops / export; and the timeline → graph link: an XLA op of an xplane that carries its
// module's HloProto opens centred in the graph, and the node leads back to the timeline.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { dataUrl, setupStrata, skipUnlessData } from './lib.mjs';

const KERNEL_REUSE = 'hlo/xla/kernel_reuse.hlo';
const PROTO = 'hlo/tracelens/jax_conv_minimal/jit__normal(11).hlo_proto.pb';
const XPLANE = 'xplane/tracelens/jax_te_fused_attn/934987a2fc2f.xplane.pb';

function assertNoOverlaps(g) {
  const boxes = g.nodes.map((n) => [n.x - n.w / 2, n.y - n.h / 2, n.x + n.w / 2, n.y + n.h / 2, n.name]);
  for (let i = 0; i < boxes.length; ++i)
    for (let j = i + 1; j < boxes.length; ++j) {
      const a = boxes[i], b = boxes[j];
      const overlap = a[0] < b[2] - 0.01 && b[0] < a[2] - 0.01 && a[1] < b[3] - 0.01 && b[1] < a[3] - 0.01;
      assert.ok(!overlap, `${a[4]} overlaps ${b[4]}`);
    }
}

describe('graph viewer: HLO files', { skip: skipUnlessData(KERNEL_REUSE, PROTO) }, () => {
  let env, call;
  before(async () => { env = await setupStrata(); call = env.session.call; });
  after(async () => { if (env) await env.close(); });

  test('an HLO text file opens in the Graph tab, the trace stays', async () => {
    const before = await env.session.summary();
    const s = await env.session.open(dataUrl(KERNEL_REUSE));
    assert.equal(s.graph.name, 'kernel_reuse.hlo');
    assert.equal(s.graph.modules, 5);  // the file's five modules (as the parser test counts)
    assert.equal(s.events, before.events);
    assert.equal(await call(() => window.strata.tab()), 'graph');
    await call(() => window.strata.graphSettled());
    const g = await call(() => window.strata.graph());
    assert.equal(g.modules.length, 5);
    assert.equal(g.module, g.modules[0].name);
    assert.ok(g.nodeCount > 0 && g.nodeCount === g.nodes.length);
    assert.ok(g.layoutMs >= 0);
    assertNoOverlaps(g);
    for (const n of g.nodes) assert.ok(n.name && n.opcode && n.shape, JSON.stringify(n));
    env.session.assertNoErrors();
  });

  test('expand a fusion, select, graph width, export', async () => {
    // The module with the most instructions, opened at its entry.
    const g0 = await call(() => window.strata.graph());
    let best = 0;
    g0.modules.forEach((m, k) => { if (m.instructions > g0.modules[best].instructions) best = k; });
    await call((k) => window.strata.graphOpen(k), best);
    const g = await call(() => window.strata.graph());
    const fusion = g.nodes.find((n) => n.opcode === 'fusion');
    assert.ok(fusion, 'a fusion in the entry computation');
    assert.equal(await call((n) => window.strata.graphExpand(n, true), fusion.name), true);
    const ge = await call(() => window.strata.graph());
    assert.equal(ge.groups.length, 1);
    assert.ok(ge.nodeCount > g.nodeCount - 1, 'the fusion opened into its instructions');
    assert.ok(!ge.nodes.some((n) => n.name === fusion.name), 'an open fusion is a group, not a node');
    assertNoOverlaps(ge);
    const [x0, y0, x1, y1] = ge.groups[0].box;
    for (const n of ge.nodes.filter((n) => n.group === 0))
      assert.ok(n.x - n.w / 2 >= x0 && n.x + n.w / 2 <= x1 && n.y - n.h / 2 >= y0 && n.y + n.h / 2 <= y1, n.name);
    await call((n) => window.strata.graphExpand(n, false), fusion.name);
    assert.equal((await call(() => window.strata.graph())).groups.length, 0);

    const target = g.nodes[Math.floor(g.nodes.length / 2)].name;
    assert.equal(await call((n) => window.strata.graphSelect(n), target), true);
    let sel = await call(() => window.strata.graph());
    assert.equal(sel.selected, target);
    const h1 = await call(() => window.strata.graphHops(1));
    assert.equal(h1.selected, target);
    assert.ok(h1.nodeCount < g.nodeCount || g.nodeCount <= 3, 'one hop shows fewer nodes');
    const dot = await call(() => window.strata.graphExport('dot'));
    assert.match(dot, /^digraph hlo \{/);
    assert.equal((dot.match(/ -> /g) || []).length, h1.edges);
    const svg = await call(() => window.strata.graphExport('svg'));
    assert.equal((svg.match(/<rect /g) || []).length, h1.nodeCount + h1.groups.length);
    await call(() => window.strata.graphHops(0));
    sel = await call(() => window.strata.graph());
    assert.equal(sel.nodeCount, g.nodeCount);
  });

  test('an HloProto file opens too', async () => {
    const s = await env.session.open(dataUrl(PROTO));
    assert.equal(s.graph.modules, 1);
    await call(() => window.strata.graphSettled());
    const g = await call(() => window.strata.graph());
    assert.equal(g.module, 'jit__normal');
    assert.ok(g.nodeCount >= 2);
    assert.ok(g.modules.find((m) => m.name === 'jit__normal').instructions > 100);
    assertNoOverlaps(g);
    env.session.assertNoErrors();
  });
});

describe('graph viewer: linked to the timeline', { skip: skipUnlessData(XPLANE) }, () => {
  let env, call;
  before(async () => { env = await setupStrata(); call = env.session.call; });
  after(async () => { if (env) await env.close(); });

  test('an XLA op opens its module centred on it, and leads back', async () => {
    await env.session.open(dataUrl(XPLANE));
    // The xplane's HloProtos become modules (read one by one after the trace loads).
    let modules = [];
    for (let i = 0; i < 200 && modules.length < 9; ++i) {
      modules = await call(() => window.strata.graphModules());
      if (modules.length < 9) await env.session.frame();
    }
    assert.equal(modules.length, 9);  // as strata_hlo_stats lists them
    assert.ok(modules.every((m) => m.fromTrace));
    const loss = modules.find((m) => m.name === 'jit_loss_fn');
    assert.ok(loss, JSON.stringify(modules.map((m) => m.name)));
    assert.equal(loss.programId, 17);
    assert.equal(loss.instructions, 151);

    // An op of that module on the timeline: its details carry xla.graph.
    await call(() => window.strata.graphOpen('jit_loss_fn'));
    const names = (await call(() => window.strata.graph())).nodes.map((n) => n.name);
    assert.ok(names.length > 10, JSON.stringify(await call(() => window.strata.graph())).slice(0, 300));
    await call(() => window.strata.setTab('timeline'));  // selections happen on the timeline
    let picked = null;
    for (const name of names) {
      const r = await env.session.find(name);
      const m = r.matches.find((x) => x.name === name && String(x.pid).startsWith('/device:'));
      if (!m) continue;
      await call((e) => window.strata.select({ event: e }), m.event);
      let d = null;
      for (let i = 0; i < 100 && !(d && d.xla); ++i) { d = await env.session.details(); if (!(d && d.xla)) await env.session.frame(); }
      if (d && d.xla && d.xla.graph && d.xla.graph.programId === 17) { picked = d; break; }
    }
    assert.ok(picked, 'an XLA op of jit_loss_fn on the timeline');
    assert.equal(picked.xla.graph.available, true);
    await call(() => window.strata.setTab('timeline'));
    const ok = await call((q) => window.strata.graphOpenFromTrace(q), picked.xla.graph);
    assert.equal(ok, true);
    assert.equal(await call(() => window.strata.tab()), 'graph');
    const g = await call(() => window.strata.graph());
    assert.equal(g.module, 'jit_loss_fn');
    assert.equal(g.selected, picked.xla.graph.op);
    const node = g.nodes.find((n) => n.name === picked.xla.graph.op);
    assert.ok(Math.abs(node.x - g.centre.x) < 1 && Math.abs(node.y - g.centre.y) < 1, 'centred on the op');
    assert.equal(g.details.name, picked.xla.graph.op);

    // Back: "Show in timeline" selects the op's occurrences.
    await call(() => window.strataGraph.fromUi('timeline', JSON.stringify({ name: window.strata.graph().selected })));
    let selection = { count: 0 };
    for (let i = 0; i < 100 && !selection.count; ++i) {
      await env.session.frame();
      selection = await call(() => window.strata.selection());
    }
    assert.equal(await call(() => window.strata.tab()), 'timeline');
    assert.ok(selection.count >= 1);
    for (const e of selection.events) assert.equal(e.name, picked.xla.graph.op);
    env.session.assertNoErrors();
  });
});
