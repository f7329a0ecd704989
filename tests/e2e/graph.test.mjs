// The Graph tab end to end: HLO text and HloProto files open into the Graph tab (the trace
// stays), laid out without overlaps (checked here from strata.graph()'s boxes), expand / select
// / hops / export; and the timeline → graph link: an XLA op of an xplane that carries its
// module's HloProto (plain, gzip or zstd) opens centred in the graph, and the node leads back
// to the timeline; a node's FLOPs and bytes come from its occurrences in the trace.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { analyseImage, dataPath, dataUrl, poll, screenshotCanvas, skipUnlessData, strataSuite } from './lib.mjs';
import { writeXSpace } from './xspace-writer.mjs';

const KERNEL_REUSE = 'hlo/xla/kernel_reuse.hlo';
const PROTO = 'hlo/tracelens/jax_conv_minimal/jit__normal(11).hlo_proto.pb';
const XPLANE = 'xplane/tracelens/jax_te_fused_attn/934987a2fc2f.xplane.pb';
const PROTO_3D = 'hlo/tracelens/jax_conv_minimal/jit_forward_3d_conv(15).hlo_proto.pb';

// The box colour of an opcode, as ui/graph/graph_scene.cc picks it (the families used here).
function opcodeColour(op) {
  if (op === 'fusion') return [255, 226, 170];
  if (['parameter', 'constant', 'iota'].includes(op)) return [214, 214, 214];
  if (['dot', 'convolution', 'custom-call'].includes(op)) return [255, 190, 190];
  if (['while', 'call', 'conditional', 'async-start', 'async-done'].includes(op)) return [210, 190, 255];
  if (/^(all-|reduce-scatter|collective|send|recv)/.test(op)) return [180, 230, 255];
  if (
    [
      'reshape',
      'transpose',
      'broadcast',
      'slice',
      'dynamic-slice',
      'dynamic-update-slice',
      'concatenate',
      'copy',
      'bitcast',
      'pad',
      'gather',
      'scatter',
      'tuple',
      'get-tuple-element',
      'copy-start',
      'copy-done',
    ].includes(op)
  )
    return [200, 235, 200];
  if (['reduce', 'reduce-window', 'sort', 'select-and-scatter'].includes(op)) return [240, 210, 240];
  return [220, 232, 248];
}

function assertNoOverlaps(g) {
  const boxes = g.nodes.map((n) => [n.x - n.w / 2, n.y - n.h / 2, n.x + n.w / 2, n.y + n.h / 2, n.name]);
  for (let i = 0; i < boxes.length; ++i)
    for (let j = i + 1; j < boxes.length; ++j) {
      const a = boxes[i],
        b = boxes[j];
      const overlap = a[0] < b[2] - 0.01 && b[0] < a[2] - 0.01 && a[1] < b[3] - 0.01 && b[1] < a[3] - 0.01;
      assert.ok(!overlap, `${a[4]} overlaps ${b[4]}`);
    }
}

describe('graph viewer: HLO files', { skip: skipUnlessData(KERNEL_REUSE, PROTO) }, () => {
  let env, call;
  strataSuite((e) => {
    env = e;
    call = env.session.call;
  });

  test('an HLO text file opens in the Graph tab, the trace stays', async () => {
    const before = await env.session.summary();
    const s = await env.session.open(dataUrl(KERNEL_REUSE));
    assert.equal(s.graph.name, 'kernel_reuse.hlo');
    assert.equal(s.graph.modules, 5); // the file's five modules (as the parser test counts)
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
    g0.modules.forEach((m, k) => {
      if (m.instructions > g0.modules[best].instructions) best = k;
    });
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

  test('the canvas draws the boxes (GPU scene) in their colours, fitted and zoomed in', async () => {
    const g0 = await call(() => window.strata.graph());
    let best = 0;
    g0.modules.forEach((m, k) => {
      if (m.instructions > g0.modules[best].instructions) best = k;
    });
    await call((k) => window.strata.graphOpen(k), best);
    await env.session.frame();
    const fit = await call(() => window.strata.graph());
    const [cx, cy, cw, ch] = fit.canvas;
    assert.ok(cw > 100 && ch > 100, JSON.stringify(fit.canvas));
    let box = null; // the screenshot's origin on the page
    const shot = async () => {
      const s = await screenshotCanvas(env.page);
      box = s.box;
      return s.image;
    };
    const first = await shot();
    const region = {
      x: Math.ceil(cx - box.x),
      y: Math.ceil(cy - box.y),
      width: Math.floor(cw) - 1,
      height: Math.floor(ch) - 1,
    };
    const whole = analyseImage(first, { region, background: [250, 250, 252] });
    assert.ok(whole.nonBackground > 500, `the fitted graph is drawn: ${JSON.stringify(whole)}`);
    // Zoomed in on a node: every other node fully in view shows its opcode's colour just inside
    // its left edge (the text starts further in).
    const target = fit.nodes[Math.floor(fit.nodes.length / 2)].name;
    assert.equal(await call((n) => window.strata.graphSelect(n), target), true);
    await env.session.frame();
    const g = await call(() => window.strata.graph());
    assert.ok(g.zoom >= 0.8);
    const img = await shot();
    const sx = (x) => cx + cw / 2 + (x - g.centre.x) * g.zoom,
      sy = (y) => cy + ch / 2 + (y - g.centre.y) * g.zoom;
    let checked = 0;
    for (const n of g.nodes) {
      const x0 = sx(n.x - n.w / 2),
        x1 = sx(n.x + n.w / 2),
        y0 = sy(n.y - n.h / 2),
        y1 = sy(n.y + n.h / 2);
      if (n.name === target || x0 < cx + 2 || x1 > cx + cw - 2 || y0 < cy + 2 || y1 > cy + ch - 2) continue;
      const px = Math.round(x0 + 3 - box.x),
        py = Math.round((y0 + y1) / 2 - box.y);
      const j = (py * img.width + px) * 4;
      const got = [img.data[j], img.data[j + 1], img.data[j + 2]];
      const want = opcodeColour(n.opcode);
      assert.ok(
        got.every((c, k) => Math.abs(c - want[k]) <= 3),
        `${n.name} (${n.opcode}) at ${px},${py}: ${got} not ${want}`,
      );
      ++checked;
    }
    assert.ok(checked >= 2, `nodes in view: ${checked}`);
    env.session.assertNoErrors();
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

  // A compressed HLO text file is inflated by the engine as it streams: the plain file's modules.
  const textModule = (m) => ({ name: m.name, instructions: m.instructions, computations: m.computations.length });
  const hloCopies = [['gzip', 'kernel_reuse.hlo.gz', (b) => zlib.gzipSync(b)]];
  if (hasZstd())
    hloCopies.push(['zstd', 'kernel_reuse.hlo.zst', (b) => execFileSync('zstd', ['-q', '-c'], { input: b })]);
  for (const [kind, name, make] of hloCopies) {
    test(`a ${kind} HLO text file opens in the Graph tab with the plain file's modules`, async () => {
      const plain = (await call(() => window.strata.graphModules())).filter((m) => m.source === 'kernel_reuse.hlo');
      assert.equal(plain.length, 5, JSON.stringify(plain.map((m) => m.source)));
      await call(() => window.strata.setTab('timeline'));
      const s = await env.session.openBytes(make(fs.readFileSync(dataPath(KERNEL_REUSE))), name);
      assert.equal(s.graph.name, name);
      assert.equal(s.graph.modules, 5);
      assert.equal(await call(() => window.strata.tab()), 'graph');
      const mine = (await call(() => window.strata.graphModules())).filter((m) => m.source === name);
      assert.deepEqual(mine.map(textModule), plain.map(textModule));
      await call(() => window.strata.graphSettled());
      const g = await call(() => window.strata.graph());
      assert.equal(g.module, mine[0].name);
      assert.ok(g.nodeCount > 0);
      env.session.assertNoErrors();
    });
  }
});

// The xplane's HloProtos become modules (read after the trace loads): waits for `n`.
async function traceModules(env, n) {
  let modules = [];
  for (let i = 0; i < 300 && modules.filter((m) => m.fromTrace).length < n; ++i) {
    modules = await env.session.call(() => window.strata.graphModules());
    if (modules.filter((m) => m.fromTrace).length < n) await env.session.frame();
  }
  return modules.filter((m) => m.fromTrace);
}

// Timeline → graph: selects on the timeline an op of `moduleName` (program `programId`) found
// among the module's entry nodes, takes its details' xla.graph and opens it in the graph
// viewer ("Open in graph viewer"); checks the graph is centred on it. Returns {picked, g}.
async function openOpFromTimeline(env, moduleName, programId) {
  const call = env.session.call;
  await call((m) => window.strata.graphOpen(m), moduleName);
  const names = (await call(() => window.strata.graph())).nodes.map((n) => n.name);
  assert.ok(names.length > 1, JSON.stringify(await call(() => window.strata.graph())).slice(0, 300));
  await call(() => window.strata.setTab('timeline')); // selections happen on the timeline
  let picked = null;
  for (const name of names) {
    const r = await env.session.find(name);
    const m = r.matches.find((x) => x.name === name && String(x.pid).startsWith('/device:'));
    if (!m) continue;
    await call((e) => window.strata.select({ event: e }), m.event);
    let d = null;
    for (let i = 0; i < 100 && !(d && d.xla); ++i) {
      d = await env.session.details();
      if (!(d && d.xla)) await env.session.frame();
    }
    if (d && d.xla && d.xla.graph && d.xla.graph.programId === programId) {
      picked = d;
      break;
    }
  }
  assert.ok(picked, `an XLA op of ${moduleName} on the timeline`);
  assert.equal(picked.xla.graph.available, true);
  const ok = await call((q) => window.strata.graphOpenFromTrace(q), picked.xla.graph);
  assert.equal(ok, true);
  assert.equal(await call(() => window.strata.tab()), 'graph');
  // The details pane fills in once the node's details are answered (a frame or two later).
  const g = await poll(
    async () => {
      const v = await call(() => window.strata.graph());
      return v && v.details ? v : null;
    },
    { message: 'graph().details of the opened op' },
  );
  assert.equal(g.module, moduleName);
  assert.equal(g.selected, picked.xla.graph.op);
  const node = g.nodes.find((n) => n.name === picked.xla.graph.op);
  assert.ok(Math.abs(node.x - g.centre.x) < 1 && Math.abs(node.y - g.centre.y) < 1, 'centred on the op');
  assert.equal(g.details.name, picked.xla.graph.op);
  return { picked, g };
}

// The selected node's FLOPs and bytes from the trace (strata.graph().trace), once read.
async function traceOfSelected(env, name) {
  return poll(
    async () => {
      const g = await env.session.call(() => window.strata.graph());
      return g && g.selected === name && g.trace && g.trace.name === name ? g.trace : null;
    },
    { message: `graph().trace of ${name}` },
  );
}

const moduleKey = (m) => ({
  name: m.name,
  source: m.source,
  programId: m.programId,
  instructions: m.instructions,
  computations: m.computations.length,
});

describe('graph viewer: linked to the timeline', { skip: skipUnlessData(XPLANE) }, () => {
  let env, call, plainModules;
  strataSuite((e) => {
    env = e;
    call = env.session.call;
  });

  test('an XLA op opens its module centred on it, and leads back', async () => {
    await env.session.open(dataUrl(XPLANE));
    const modules = await traceModules(env, 9);
    assert.equal(modules.length, 9); // as strata_hlo_stats lists them
    plainModules = modules.map(moduleKey);
    const loss = modules.find((m) => m.name === 'jit_loss_fn');
    assert.ok(loss, JSON.stringify(modules.map((m) => m.name)));
    assert.equal(loss.programId, 17);
    assert.equal(loss.instructions, 151);

    const { picked } = await openOpFromTimeline(env, 'jit_loss_fn', 17);
    // The node's time in the trace is known; this trace's ops carry no FLOPs or bytes: said so.
    const t = await traceOfSelected(env, picked.xla.graph.op);
    assert.ok(t.occurrences >= 1 && t.read >= 1 && t.timeNs > 0, JSON.stringify(t));
    assert.equal(t.flops, null);
    assert.equal(t.bytesAccessed, null);

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

  // Issue 7 item 1: a compressed xplane's HloProtos are read too (one streaming pass from the
  // file's start), giving the plain file's modules; its ops open in the graph the same way.
  const plain = () => fs.readFileSync(dataPath(XPLANE));
  const copies = [['gzip', '934987a2fc2f.xplane.pb.gz', () => zlib.gzipSync(plain())]];
  if (hasZstd())
    copies.push(['zstd', '934987a2fc2f.xplane.pb.zst', () => execFileSync('zstd', ['-q', '-c'], { input: plain() })]);
  for (const [kind, name, make] of copies) {
    test(`a ${kind} xplane: the same modules, and an op opens in the graph`, async () => {
      const s = await env.session.openBytes(make(), name);
      assert.equal(s.files[0].compression, kind);
      const modules = await traceModules(env, 9);
      assert.deepEqual(modules.map(moduleKey), plainModules);
      await openOpFromTimeline(env, 'jit_loss_fn', 17);
      env.session.assertNoErrors();
    });
  }
});

function hasZstd() {
  try {
    execFileSync('zstd', ['--version']);
    return true;
  } catch (e) {
    return false;
  }
}

// Issue 7 item 3: FLOPs and bytes accessed of a node from its occurrences in the trace. No real
// sample has both HloProtos and cost stats, so the trace is written here (xspace-writer.mjs):
// the real module jit_forward_3d_conv as program 15 on the metadata plane, and a TPU "XLA Ops"
// line where one of its instructions runs three times (FLOPs on the op's metadata, as XProf
// writes them; bytes per event) and another twice with no cost stats.
describe('graph viewer: FLOPs and bytes from the trace', { skip: skipUnlessData(PROTO_3D) }, () => {
  let env, call, hot, cold, xspace;
  strataSuite((e) => {
    env = e;
    call = env.session.call;
  });

  test("an op's FLOPs, bytes and rates, per occurrence and total", async () => {
    // The module's entry instructions, as the graph viewer shows them.
    await env.session.open(dataUrl(PROTO_3D));
    await call(() => window.strata.graphSettled());
    const ops = (await call(() => window.strata.graph())).nodes.filter(
      (n) => !['parameter', 'constant'].includes(n.opcode),
    );
    assert.ok(ops.length >= 2, JSON.stringify(ops));
    [hot, cold] = [ops[0].name, ops[1].name];
    const opMeta = { hlo_module: 'jit_forward_3d_conv', program_id: 15 };
    xspace = writeXSpace([
      {
        name: '/host:metadata',
        metadata: {
          'jit_forward_3d_conv(15)': {
            'Hlo Proto': new Uint8Array(fs.readFileSync(dataPath(PROTO_3D))),
            program_id: 15,
          },
        },
      },
      {
        name: '/device:TPU:0',
        metadata: {
          [hot]: { ...opMeta, hlo_op: hot, flops: 2e9, model_flops: 1.5e9 },
          [cold]: { ...opMeta, hlo_op: cold },
        },
        lines: [
          {
            id: 2,
            name: 'XLA Ops',
            timestampNs: 1000,
            events: [
              ...[1, 2, 3].map((k) => ({
                name: hot,
                offsetPs: k * 1e7,
                durationPs: k * 1e6,
                stats: { bytes_accessed: k * 1e6 },
              })),
              ...[4, 5].map((k) => ({ name: cold, offsetPs: k * 1e7, durationPs: 5e5 })),
            ],
          },
        ],
      },
    ]);

    for (const [name, bytes] of [
      ['tpu.xplane.pb', xspace],
      ['tpu.xplane.pb.gz', zlib.gzipSync(xspace)],
    ]) {
      const s = await env.session.openBytes(bytes, name);
      assert.deepEqual(s.errors, [], name);
      assert.equal((await traceModules(env, 1)).length, 1, name);
      const { picked } = await openOpFromTimeline(env, 'jit_forward_3d_conv', 15);
      if (picked.xla.graph.op !== hot) assert.equal(await call((n) => window.strata.graphSelect(n), hot), true);
      const t = await traceOfSelected(env, hot);
      assert.equal(t.occurrences, 3, name);
      assert.equal(t.read, 3);
      assert.equal(t.timeNs, 6000); // 1 + 2 + 3 µs
      assert.deepEqual(t.flops, {
        count: 3,
        total: 6e9,
        perOccurrence: 2e9,
        min: 2e9,
        max: 2e9,
        timeNs: 6000,
        perSecond: 1e15,
      });
      assert.equal(t.modelFlops.total, 4.5e9);
      assert.deepEqual(t.bytesAccessed, {
        count: 3,
        total: 6e6,
        perOccurrence: 2e6,
        min: 1e6,
        max: 3e6,
        timeNs: 6000,
        perSecond: 1e12,
      });
      assert.equal(t.rawBytesAccessed, null);

      // The other op runs twice with no cost stats: "not in the trace" (null), its time known.
      assert.equal(await call((n) => window.strata.graphSelect(n), cold), true);
      const c = await traceOfSelected(env, cold);
      assert.equal(c.occurrences, 2);
      assert.equal(c.timeNs, 1000);
      assert.equal(c.flops, null);
      assert.equal(c.bytesAccessed, null);
    }
    env.session.assertNoErrors();
  });
});
