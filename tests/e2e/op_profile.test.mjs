// Op Profile, HLO Stats and the roofline's data in the browser: a real JAX GPU xplane opened in
// the page, strata.analysis() answered by the engine worker, and the rows' totals checked against
// the events the timeline holds under the same names (strata.eventsNamed, the rows' links).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dataUrl, skipUnlessData, strataSuite } from './lib.mjs';

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
