// Op Profile, HLO Stats and the roofline's data in the browser: a real JAX GPU xplane opened in
// the page, strata.analysis() answered by the engine worker, and the rows' totals checked against
// the events the timeline holds under the same names (strata.eventsNamed, the rows' links).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dataUrl, poll, skipUnlessData, strataSuite } from './lib.mjs';
import { writeXSpace } from './xspace-writer.mjs';

const CONV = 'xplane/tracelens/jax_conv_minimal_08/tw003.xplane.pb';
const GEMM = 'xplane/tracelens/jax08_gemm/tw003.xplane.pb';

const col = (table, key) => {
  const i = table.columns.findIndex((c) => c.key === key);
  assert.ok(i >= 0, `column ${key} in ${table.columns.map((c) => c.key)}`);
  return i;
};

describe('op analyses', { skip: skipUnlessData(CONV, GEMM) }, () => {
  let env;
  strataSuite((e) => (env = e));

  const analysis = (name, args) => env.session.call(([n, a]) => window.strata.analysis(n, a), [name, args || {}]);
  const named = (name, tracks) => env.session.call(([n, t]) => window.strata.eventsNamed(n, t), [name, tracks]);

  // The top ops of a table: their time and count equal the events their link selects. A link
  // names an event name (and tracks), so the rows of one op name in several programs add up to it.
  async function checkAgainstEvents(table, timeKey, occKey) {
    const time = col(table, timeKey);
    const occ = col(table, occKey);
    const byName = new Map();
    for (const r of table.rows) {
      if (!r.link.name) continue;
      const k = byName.get(r.link.name) || { tracks: new Set(), count: 0, ns: 0 };
      for (const t of r.link.tracks) k.tracks.add(t);
      k.count += r.cells[occ];
      k.ns += r.cells[time];
      byName.set(r.link.name, k);
    }
    const names = [...byName.keys()].slice(0, 5);
    assert.ok(names.length >= 2, `rows with a link: ${JSON.stringify(table.rows.slice(0, 3))}`);
    for (const name of names) {
      const want = byName.get(name);
      const sel = await named(name, [...want.tracks]);
      assert.equal(sel.count, want.count, `${name}: occurrences`);
      const s = sel.summary.find((x) => x.name === name);
      assert.ok(s, JSON.stringify(sel.summary));
      assert.equal(s.totalNs, want.ns, `${name}: total time`);
    }
  }

  test('the analyses are listed and available for an xplane with XLA ops', async () => {
    const s = await env.session.open(dataUrl(CONV));
    assert.deepEqual(s.errors, []);
    const list = await analysis('');
    for (const name of ['op_profile', 'hlo_stats', 'roofline']) {
      const a = list.analyses.find((x) => x.name === name);
      assert.ok(a, JSON.stringify(list));
      assert.equal(a.available, true, a.why);
    }
  });

  test("op_profile's op rows total what their events take in the timeline", async () => {
    const t = await analysis('op_profile');
    assert.deepEqual(t.errors, []);
    assert.ok(
      t.rows.some((r) => r.parent === -1),
      'program rows',
    );
    assert.ok(t.extra.cores.length >= 1, JSON.stringify(t.extra));
    await checkAgainstEvents(t, 'time', 'occurrences');
    // No flops stat in this file: empty cells that say so, never a zero.
    const flops = col(t, 'flops');
    for (const r of t.rows) {
      assert.equal(r.cells[flops], null);
      assert.match(r.why.flops, /the file has no flops stat/);
    }
    // The idle row appears on request and the shares then add up to the whole device time.
    const idle = await analysis('op_profile', { includeIdle: true });
    const pct = col(idle, 'self_percent');
    const top = idle.rows.filter((r) => r.parent === -1);
    assert.equal(top[0].cells[0], 'IDLE');
    const sum = top.reduce((a, r) => a + r.cells[pct], 0);
    assert.ok(Math.abs(sum - 100) < 1e-6, `top-level shares sum to ${sum}`);
  });

  test("GPU ops' categories come from the module's HloProto; a fusion opens to what it calls", async () => {
    const t = await analysis('op_profile');
    const from = col(t, 'category_from');
    const time = col(t, 'time');
    const ops = t.rows.filter((r) => r.link.name);
    assert.ok(
      ops.some((r) => r.cells[from] === 'HloProto'),
      `categories: ${[...new Set(ops.map((r) => r.cells[from]))]}`,
    );
    // The instructions under a fusion: no time of their own, the reason said, no events to select.
    const fused = t.rows.filter((r) => r.cells[time] === null && /inside a fusion/.test(r.why.time || ''));
    assert.ok(fused.length > 0, 'a fusion with its instructions');
    for (const r of fused) {
      assert.equal(r.link.name, '');
      assert.ok(r.parent >= 0 && t.rows[r.parent].link.op, 'under a fusion or a nested fusion');
    }
    // Each op row's link, with its program, selects exactly its occurrences.
    const occ = col(t, 'occurrences');
    for (const r of ops.slice(0, 6)) {
      const sel = await env.session.call(
        ([n, tr, p]) => window.strata.eventsNamed(n, tr, p),
        [r.link.name, r.link.tracks, r.link.programId],
      );
      assert.equal(sel.count, r.cells[occ], `${r.link.name} in program ${r.link.programId}`);
    }
    const h = await analysis('hlo_stats');
    const hfrom = col(h, 'category_from');
    assert.ok(h.rows.every((r) => r.cells[hfrom] === 'HloProto' || r.cells[hfrom] === 'guessed from the name'));
  });

  test("hlo_stats' rows total what their events take, program ids are text", async () => {
    const s = await env.session.open(dataUrl(GEMM));
    assert.deepEqual(s.errors, []);
    const t = await analysis('hlo_stats');
    assert.deepEqual(t.errors, []);
    await checkAgainstEvents(t, 'total_time', 'occurrences');
    const program = col(t, 'program_id');
    for (const r of t.rows) {
      if (r.cells[program] !== null) assert.equal(typeof r.cells[program], 'string');
      assert.equal(typeof r.link.programId, 'string');
    }
  });

  test('the roofline says why it has no peaks and takes typed ones', async () => {
    const t = await analysis('roofline');
    assert.deepEqual(t.errors, []);
    assert.equal(t.extra.ridge, null);
    assert.ok(t.extra.peaks.why.length > 0, JSON.stringify(t.extra.peaks));
    const typed = await analysis('roofline', { peakTflops: 100, peakGBps: 1000 });
    assert.equal(typed.extra.ridge, 100);
    assert.match(typed.extra.peaks.source, /typed by the user/);
  });
});

// One op name in two programs (fusion.1 runs in jit_a and in jit_b, on one TPU core): a row's
// link selects that program's runs of the op only, through the Analysis tab's deep link as a
// user follows it, and the select query's program filter agrees with every row.
describe('op rows select only their own program', () => {
  let env;
  strataSuite((e) => (env = e));
  const US = 1e6; // ps
  const run = (name, startUs, durUs) => ({ name, offsetPs: startUs * US, durationPs: durUs * US });
  const MODULE_A = 'jit_a(18446744073709551615)'; // above 2^63: exact text end to end
  const MODULE_B = 'jit_b(7)';
  const bytes = writeXSpace([
    {
      name: '/device:TPU:0',
      metadata: { 'fusion.1': { hlo_category: 'loop fusion' }, 'copy.2': { hlo_category: 'data formatting' } },
      lines: [
        { id: 1, name: 'XLA Modules', timestampNs: 1000, events: [run(MODULE_A, 0, 100), run(MODULE_B, 100, 100)] },
        {
          id: 2,
          name: 'XLA Ops',
          timestampNs: 1000,
          events: [run('fusion.1', 10, 30), run('fusion.1', 50, 30), run('fusion.1', 110, 5), run('copy.2', 120, 5)],
        },
        { id: 3, name: 'Steps', timestampNs: 1000, events: [run('0', 0, 200)] },
      ],
    },
  ]);

  test('a fusion.1 row selects its 2 runs in jit_a, not the one in jit_b', async () => {
    const s = env.session;
    const sum = await s.openBytes(bytes, 'two-programs.xplane.pb');
    assert.deepEqual(sum.errors, []);
    const t = await s.call(() => window.strata.analysis('op_profile', {}));
    assert.deepEqual(t.errors, []);
    const occ = col(t, 'occurrences');
    const rows = t.rows.filter((r) => r.link.name === 'fusion.1');
    assert.deepEqual(rows.map((r) => [r.link.programId, r.cells[occ]]).sort(), [
      ['18446744073709551615', 2],
      ['7', 1],
    ]);
    // The select query with each row's program: exactly its occurrences.
    for (const r of rows) {
      const sel = await s.call(
        ([n, tr, p]) => window.strata.eventsNamed(n, tr, p),
        [r.link.name, r.link.tracks, r.link.programId],
      );
      assert.equal(sel.count, r.cells[occ], `program ${r.link.programId}`);
    }
    const all = await s.call(() => window.strata.eventsNamed('fusion.1', []));
    assert.equal(all.count, 3, 'without a program: every fusion.1');

    // The user's path: the deep link opens the Op Profile on the first fusion.1 row (jit_a's,
    // the larger), and the timeline's selection holds that row's events only.
    await s.call(() => {
      location.hash = 'tab=analysis&analysis=op_profile&op=fusion.1';
    });
    const v = await poll(
      async () => {
        const w = await s.call(() => window.strata.analysisView());
        return w && w.analysis === 'op_profile' && w.selected && w;
      },
      { timeout: 60_000, message: 'the deep-linked row selected' },
    );
    assert.equal(v.selected.linkName, 'fusion.1');
    assert.equal(v.selected.programId, '18446744073709551615');
    const sel = await poll(
      async () => {
        const x = await s.call(() => window.strata.selection());
        return x && x.count > 0 && x;
      },
      { message: 'the row selected its events' },
    );
    assert.equal(sel.count, 2, JSON.stringify(sel.events));
    assert.ok(
      sel.events.every((e) => e.name === 'fusion.1'),
      'every selected event is fusion.1',
    );
    const startNs = sel.events.map((e) => Number(e.tsNs)).sort((a, b) => a - b);
    assert.equal(startNs[1] - startNs[0], 40e3, `jit_a's two runs, 40 us apart: ${startNs}`);
    s.assertNoErrors();
  });
});
