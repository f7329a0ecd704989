// An XLA op's link into the Graph tab, end to end, on every real xplane that carries its
// modules' HloProtos (TraceLens' JAX runs on ROCm GPUs) and on a TPU-shaped one written here
// (no real TPU xplane is valid): the op's details name its HLO instruction (details().xla.graph.op)
// and, on GPU, its expression and category read from the module; clicking "Open in graph
// viewer" in the details pane selects and centres that instruction in its module, and the
// Graph tab's node details count its occurrences and time in the trace. Program ids above 2^63
// stay exact (strings) from the file to the graph's module list.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { dataPath, dataUrl, hasData, poll, skipUnlessData, strataSuite } from './lib.mjs';
import { writeXSpace } from './xspace-writer.mjs';

const WITH_HLO = [
  'xplane/tracelens/jax08_gemm/tw003.xplane.pb',
  'xplane/tracelens/jax_conv_minimal_08/tw003.xplane.pb',
  'xplane/tracelens/jax_conv_minimal_legacy/chi-mi300x-013.ord.vultr.cpe.ice.amd.com.xplane.pb',
  'xplane/tracelens/jax_te_fused_attn/934987a2fc2f.xplane.pb',
];
const PROTO_3D = 'hlo/tracelens/jax_conv_minimal/jit_forward_3d_conv(15).hlo_proto.pb';
const BIG_PROGRAM = (1n << 63n) + 5n; // 9223372036854775813: a Number would round it
const NOT_OPS = new Set(['parameter', 'constant', 'tuple', 'get-tuple-element', 'bitcast']);

describe('XLA op → graph viewer', () => {
  let s, page;
  strataSuite((e) => ({ session: s, page } = e));
  const call = (...a) => s.call(...a);

  // The trace's modules, once the worker has read them all (their count stops changing).
  async function traceModules() {
    let last = -1,
      same = 0,
      modules = [];
    for (let i = 0; i < 400 && same < 5; ++i) {
      modules = (await call(() => window.strata.graphModules())).filter((m) => m.fromTrace);
      same = modules.length > 0 && modules.length === last ? same + 1 : 0;
      last = modules.length;
      await s.frame();
    }
    assert.ok(modules.length > 0, 'the trace has modules');
    return modules;
  }

  // Selects on the timeline a device event whose details link into `module`: tries the names of
  // the module's entry ops. Returns its details or null.
  async function pickOp(module) {
    await call((m) => window.strata.graphOpen(m), module.name);
    const names = (await call(() => window.strata.graph())).nodes
      .filter((n) => !NOT_OPS.has(n.opcode))
      .map((n) => n.name);
    await call(() => window.strata.setTab('timeline'));
    for (const name of names.slice(0, 40)) {
      const r = await s.find(name);
      const m = r.matches.find((x) => x.name === name && String(x.pid).startsWith('/device:'));
      if (!m) continue;
      await call((e) => window.strata.select({ event: e }), m.event);
      let d = null;
      for (let i = 0; i < 100 && !(d && d.xla); ++i) {
        d = await s.details();
        if (!(d && d.xla)) await s.frame();
      }
      if (d && d.xla && d.xla.graph && String(d.xla.graph.programId) === String(module.programId)) return d;
    }
    return null;
  }

  // Clicks the details pane's "Open in graph viewer" like a person, and waits for the graph.
  async function clickGraphLink(op) {
    const p = await poll(
      async () => {
        await s.frame();
        const x = (await call(() => window.strata.panels())).details;
        return x.graphLinkY >= 0 && x;
      },
      { message: 'the pane drew the graph link' },
    );
    const box = await page.locator('#canvas').boundingBox();
    let link = p;
    if (p.graphLinkY + 16 > p.y + p.h) {
      // Below the pane's fold: drag its top edge up (as a person would) until the link shows.
      const gx = box.x + p.x + p.w / 2,
        gy = box.y + p.y + p.titleH / 2;
      const rise = Math.min(p.graphLinkY + 40 - (p.y + p.h), p.y - 150);
      await page.mouse.move(gx, gy);
      await s.frame();
      await page.mouse.down();
      await s.frame();
      for (let i = 1; i <= 5; i++) {
        await page.mouse.move(gx, gy - (rise * i) / 5);
        await s.frame();
      }
      await page.mouse.up();
      link = await poll(
        async () => {
          await s.frame();
          const x = (await call(() => window.strata.panels())).details;
          return x.graphLinkY >= 0 && x.graphLinkY + 16 <= x.y + x.h && x;
        },
        { message: 'the graph link in view in the pane' },
      );
    }
    await page.mouse.move(box.x + link.x + 24, box.y + link.graphLinkY + 6);
    await s.frame();
    await page.mouse.click(box.x + link.x + 24, box.y + link.graphLinkY + 6);
    return poll(
      async () => {
        await s.frame();
        if ((await call(() => window.strata.tab())) !== 'graph') return null;
        const g = await call(() => window.strata.graph());
        return g && !g.pending && g.selected === op ? g : null;
      },
      { message: `the graph opened on ${op}`, timeout: 30_000 },
    );
  }

  // The op is selected, centred and in view; its node details count its occurrences.
  async function expectSelectedInView(g, op, moduleName) {
    assert.equal(g.module, moduleName);
    assert.equal(g.selected, op);
    // The node's details arrive from the worker a little after the selection.
    const details = await poll(
      async () => {
        const v = await call(() => window.strata.graph());
        return v && v.details && v.details.name === op ? v.details : null;
      },
      { message: `graph().details of ${op}` },
    );
    assert.equal(details.name, op);
    assert.ok(
      g.nodes.find((n) => n.name === op),
      `${op} is drawn`,
    );
    // The view centres on the op a frame or more after the selection lands (as the fit does).
    await poll(
      async () => {
        const v = await call(() => window.strata.graph());
        const node = v && v.nodes.find((n) => n.name === op);
        return node && Math.abs(node.x - v.centre.x) < 1 && Math.abs(node.y - v.centre.y) < 1;
      },
      { message: `the view centred on ${op}` },
    );
    const t = await poll(
      async () => {
        const v = await call(() => window.strata.graph());
        return v && v.selected === op && v.trace && v.trace.name === op ? v.trace : null;
      },
      { message: `graph().trace of ${op}` },
    );
    assert.ok(t.occurrences >= 1 && t.timeNs > 0, JSON.stringify(t));
  }

  for (const rel of WITH_HLO) {
    test(`every real xplane with HloProtos: ${rel.split('/')[2]}`, { skip: skipUnlessData(rel) }, async () => {
      await s.open(dataUrl(rel));
      const modules = await traceModules();
      let picked = null,
        module = null;
      for (const m of modules) {
        picked = await pickOp(m);
        if (picked) {
          module = m;
          break;
        }
      }
      assert.ok(picked, `an XLA op of one of ${modules.map((m) => m.name)} on the timeline`);
      const op = picked.xla.graph.op;
      assert.ok(op.length > 0);
      assert.equal(picked.xla.instruction, op);
      assert.equal(picked.xla.graph.available, true);
      // GPU: no long_name or hlo_category in the file; both come from the module.
      assert.equal(picked.xla.long_name, undefined);
      assert.ok(picked.xla.fromHlo, JSON.stringify(picked.xla));
      assert.ok(picked.xla.fromHlo.expression.startsWith(`%${op} = `), picked.xla.fromHlo.expression);
      assert.ok(picked.xla.fromHlo.category.length > 0);
      const g = await clickGraphLink(op);
      await expectSelectedInView(g, op, module.name);
      s.assertNoErrors();
    });
  }

  test(
    'a TPU-shaped op (no hlo_op, program id above 2^63) opens its instruction',
    { skip: !hasData(PROTO_3D) },
    async () => {
      // The module's entry ops, as the graph viewer shows them.
      await s.open(dataUrl(PROTO_3D));
      await call(() => window.strata.graphSettled());
      const ops = (await call(() => window.strata.graph())).nodes.filter((n) => !NOT_OPS.has(n.opcode));
      assert.ok(ops.length >= 1);
      const op = ops[0].name;
      const bytes = writeXSpace([
        {
          name: '/host:metadata',
          metadata: {
            [`jit_forward_3d_conv(${BIG_PROGRAM})`]: {
              'Hlo Proto': new Uint8Array(fs.readFileSync(dataPath(PROTO_3D))),
              program_id: { uint: BIG_PROGRAM },
            },
          },
        },
        {
          name: '/device:TPU:0',
          // As TPU profiles name them: the event is the instruction, long_name its text.
          metadata: {
            [op]: {
              long_name: `%${op} = f32[8]{0} fusion(f32[8]{0} %p), kind=kLoop`,
              hlo_category: 'convolution fusion',
              program_id: { uint: BIG_PROGRAM },
            },
          },
          lines: [
            {
              id: 2,
              name: 'XLA Ops',
              timestampNs: 1000,
              events: [1, 2].map((k) => ({ name: op, offsetPs: k * 1e7, durationPs: 1e6 })),
            },
          ],
        },
      ]);
      const sum = await s.openBytes(bytes, 'tpu-big-program.xplane.pb');
      assert.deepEqual(sum.errors, []);
      const modules = await traceModules();
      assert.equal(modules.length, 1);
      assert.equal(modules[0].programId, String(BIG_PROGRAM)); // exact, as a string
      await call(() => window.strata.setTab('timeline'));
      const r = await s.find(op);
      const m = r.matches.find((x) => x.name === op && String(x.pid).startsWith('/device:'));
      assert.ok(m, JSON.stringify(r));
      await call((e) => window.strata.select({ event: e }), m.event);
      const d = await poll(
        async () => {
          const v = await s.details();
          return v && v.xla && v.xla.graph ? v : null;
        },
        { message: 'details with xla.graph' },
      );
      assert.equal(d.xla.graph.programId, String(BIG_PROGRAM));
      assert.equal(d.xla.program_id, String(BIG_PROGRAM));
      assert.equal(d.xla.graph.op, op);
      assert.equal(d.xla.graph.available, true);
      assert.equal(d.xla.fromHlo, undefined); // the file gives text and category itself
      const g = await clickGraphLink(op);
      await expectSelectedInView(g, op, 'jit_forward_3d_conv');
      // The Graph tab's own list (the HLO file opened first is there too, as program 0).
      const ids = g.modules.filter((x) => x.name === 'jit_forward_3d_conv').map((x) => x.programId);
      assert.ok(ids.includes(String(BIG_PROGRAM)), JSON.stringify(ids));
      s.assertNoErrors();
    },
  );
});
