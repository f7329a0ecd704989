// The Memory Viewer in the Analysis tab, as a user reads it, on a real JAX GPU xplane whose
// HloProtos carry buffer assignments: strata.analysis('memory_viewer') answers the heap curve,
// the peak and the live buffers as JSON; the chart draws the curve (pixels of its colour in the
// plot, the peak's dot where the state says); a click on another point of program order lists
// the buffers live there (the analysis runs again for that point); a buffer's row opens the
// Graph tab on its defining instruction, whose details list the buffers it defines. State
// through strata.analysisView().memoryViewer, pixels from screenshots.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  boxCentre,
  clickMouse,
  dataUrl,
  dragMouse,
  openAnalysisSubTab,
  poll,
  screenshotCanvas,
  setupStrata,
  skipUnlessData,
} from './lib.mjs';

const XP = 'xplane/tracelens/jax_te_fused_attn/934987a2fc2f.xplane.pb';

const view = (s) => s.call(() => window.strata.analysisView());
const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
function pixel(shot, x, y) {
  const sc = shot.image.width / shot.box.width;
  const j = (Math.round(y * sc) * shot.image.width + Math.round(x * sc)) * 4;
  return [shot.image.data[j], shot.image.data[j + 1], shot.image.data[j + 2]];
}
function nearestColour(shot, x, y, want, reach = 3) {
  let best = Infinity;
  for (let dy = -reach; dy <= reach; ++dy)
    for (let dx = -reach; dx <= reach; ++dx) best = Math.min(best, dist(pixel(shot, x + dx, y + dy), want));
  return best;
}
// Where the chart puts program-order point p (the middle of its column).
const xOf = (m, p) => m.plot[0] + ((p + 0.5 - m.range[0]) / (m.range[1] - m.range[0])) * m.plot[2];

const openMemoryViewer = (s) =>
  openAnalysisSubTab(s, 'memory_viewer', (v) => v.memoryViewer?.drawn && v.rowCount > 0, {
    message: 'the memory viewer chart',
  });

describe('the Memory Viewer on a JAX xplane with buffer assignments', { skip: skipUnlessData(XP) }, () => {
  let env, s, v, answer;
  before(async () => {
    env = await setupStrata();
    s = env.session;
    await s.open(dataUrl(XP));
    // The trace's HloProtos reach the graph viewer's modules after the load.
    await poll(
      async () => {
        const list = await s.call(() => window.strata.analysis());
        return list.analyses.find((a) => a.name === 'memory_viewer' && a.available);
      },
      { timeout: 60_000, message: 'memory_viewer available' },
    );
    answer = await s.call(() => window.strata.analysis('memory_viewer'));
    v = await openMemoryViewer(s);
  });
  after(async () => {
    if (env) await env.close();
  });

  test('the JSON has the heap curve, the peak and the live buffers', () => {
    assert.deepEqual(answer.errors, []);
    const x = answer.extra;
    assert.ok(
      x.modules.some((m) => m.ok),
      JSON.stringify(x.modules),
    );
    assert.ok(x.module >= 0 && x.moduleName);
    assert.equal(x.spaces[0].label, 'HBM');
    assert.ok(x.points > 0 && x.padded.length > 0);
    // The peak is the curve's highest point, and the table lists what is live there.
    assert.equal(Math.max(...x.padded), x.peak.bytes);
    assert.equal(x.point.point, x.peak.point);
    const size = answer.columns.findIndex((c) => c.key === 'size');
    const sum = answer.rows.reduce((a, r) => a + r.cells[size], 0);
    assert.equal(sum, x.peak.bytes, 'the live rows add up to the peak');
    // The chart shows the same module and peak.
    assert.equal(v.memoryViewer.moduleName, x.moduleName);
    assert.equal(v.memoryViewer.peak.bytes, x.peak.bytes);
    assert.equal(v.memoryViewer.points, x.points);
  });

  test('the chart draws the heap and marks the peak (pixels)', async () => {
    const m = v.memoryViewer;
    const shot = await screenshotCanvas(s.page);
    const padded = hex(m.colours.padded);
    // Under the peak's dot, the padded heap's fill down to the band of buffers live throughout,
    // then the band.
    const px = m.peak.x;
    const bottom = m.plot[1] + m.plot[3];
    if (m.indefiniteY - m.peak.y > 8) {
      const mid = (m.peak.y + m.indefiniteY) / 2;
      assert.ok(nearestColour(shot, px, mid, padded) < 40, `padded fill under the peak at ${px},${mid}`);
    }
    if (bottom - m.indefiniteY > 8) {
      const mid = (m.indefiniteY + bottom) / 2;
      assert.ok(nearestColour(shot, px, mid, hex(m.colours.indefinite)) < 40, `the indefinite band at ${px},${mid}`);
    }
    assert.ok(m.indefiniteY - m.peak.y > 8 || bottom - m.indefiniteY > 8, 'something drawn under the peak');
    assert.ok(nearestColour(shot, m.peak.x, m.peak.y, hex(m.colours.peak)) < 40, 'the peak dot');
    // Above the peak the plot is empty.
    const above = Math.max(m.plot[1] + 1, m.peak.y - 20);
    if (above < m.peak.y - 8) assert.ok(dist(pixel(shot, px + 12, above), padded) > 40, 'nothing above the peak');
    s.assertNoErrors();
  });

  test('a click on another point lists the buffers live there', async () => {
    const m = v.memoryViewer;
    const q = m.peak.point === 0 ? m.points - 1 : 0;
    await clickMouse(s, xOf(m, q), m.plot[1] + m.plot[3] / 2);
    const w = await poll(
      async () => {
        const x = await view(s);
        return x && !x.loading && x.memoryViewer?.drawn && x.memoryViewer.point.point === q && x;
      },
      { timeout: 60_000, message: `the table at point ${q}` },
    );
    const there = await s.call((p) => window.strata.analysis('memory_viewer', { point: p }), q);
    assert.equal(there.extra.point.point, q);
    assert.equal(w.rowCount, there.rows.length);
    assert.equal(w.memoryViewer.point.bytes, there.extra.point.bytes);
    // Back to the peak for the next test.
    await clickMouse(s, xOf(w.memoryViewer, m.peak.point), m.plot[1] + m.plot[3] / 2);
    v = await poll(
      async () => {
        const x = await view(s);
        return x && !x.loading && x.memoryViewer?.drawn && x.memoryViewer.point.point === m.peak.point && x;
      },
      { timeout: 60_000, message: 'the table at the peak again' },
    );
  });

  test('the wheel zooms the chart about the cursor and a drag pans it', async () => {
    const m = v.memoryViewer;
    const full = m.range;
    const y = m.plot[1] + m.plot[3] / 2;
    const at = m.plot[0] + m.plot[2] * 0.5;
    await s.page.mouse.move(at, y);
    await s.frame();
    await s.page.mouse.wheel(0, -240);
    const zoomed = await poll(
      async () => {
        const x = await view(s);
        const r = x?.memoryViewer?.range;
        return r && r[1] - r[0] < (full[1] - full[0]) * 0.95 && x.memoryViewer;
      },
      { timeout: 30_000, message: 'zoomed in' },
    );
    const [lo, hi] = zoomed.range;
    assert.ok(lo >= full[0] && hi <= full[1], `inside the curve: ${zoomed.range}`);
    // About the cursor: the point under it stays under it.
    const under = (r) => r[0] + ((at - m.plot[0]) / m.plot[2]) * (r[1] - r[0]);
    assert.ok(Math.abs(under(zoomed.range) - under(full)) <= (full[1] - full[0]) * 0.02, 'about the cursor');
    // A drag to the right shows earlier points (when there is room to the left).
    await dragMouse(s, { x: at, y }, { x: at + m.plot[2] * 0.2, y });
    const panned = await poll(
      async () => {
        const x = (await view(s))?.memoryViewer;
        return x && (x.range[0] < lo || lo <= full[0]) && x;
      },
      { timeout: 30_000, message: 'panned' },
    );
    assert.ok(Math.abs(panned.range[1] - panned.range[0] - (hi - lo)) < 1e-6 * (hi - lo) + 1e-9, 'same span');
    if (lo > full[0]) assert.ok(panned.range[0] < lo, `earlier: ${panned.range} after ${zoomed.range}`);
    // The drag picked no point: the table still shows the peak.
    assert.equal(panned.point.point, m.peak.point);
    // Zoomed out again for the next tests.
    await s.page.mouse.move(at, y);
    await s.frame();
    for (let i = 0; i < 4; ++i) await s.page.mouse.wheel(0, 480);
    v = await poll(
      async () => {
        const x = await view(s);
        const r = x?.memoryViewer?.range;
        return r && r[0] === full[0] && r[1] === full[1] && x;
      },
      { timeout: 30_000, message: 'the whole curve again' },
    );
  });

  test('the live buffers table sorts by a header, filters by name, and exports CSV', async () => {
    const size = v.columns.indexOf('size');
    const name = v.columns.indexOf('name');
    const h = boxCentre(v.layout.headers[size]);
    await clickMouse(s, h.x, h.y);
    let w = await poll(
      async () => {
        const x = await view(s);
        return x.sort.key === 'size' && x;
      },
      { timeout: 30_000, message: 'sorted by size' },
    );
    const sizes = w.rows.map((r) => r.values[size]);
    for (let i = 1; i < sizes.length; ++i) assert.ok(sizes[i - 1] >= sizes[i], `largest first at ${i}`);
    // The filter: the rows whose name holds the text.
    const all = w.rows.map((r) => String(r.values[name]));
    const word = all.find((n) => !n.startsWith('small buffers')) || all[0];
    const needle = word.slice(0, Math.min(6, word.length)).toLowerCase();
    const f = boxCentre(w.layout.filter);
    await clickMouse(s, f.x, f.y);
    await s.page.keyboard.type(needle);
    w = await poll(
      async () => {
        const x = await view(s);
        return x.filter === needle && x;
      },
      { timeout: 30_000, message: 'the filter applied' },
    );
    const want = all.filter((n) => n.toLowerCase().includes(needle));
    assert.deepEqual(
      w.rows.map((r) => String(r.values[name])),
      want,
    );
    // CSV of the rows shown.
    const b = boxCentre(w.layout.csvButton);
    const [dl] = await Promise.all([s.page.waitForEvent('download', { timeout: 30_000 }), clickMouse(s, b.x, b.y)]);
    assert.equal(dl.suggestedFilename(), 'memory_viewer.csv');
    const csv = fs.readFileSync(await dl.path(), 'utf8');
    w = await view(s);
    assert.equal(csv, w.csv);
    assert.equal(csv.trimEnd().split('\n').length, w.rowCount + 1, 'a header and a line per row shown');
    // The filter cleared, the sort undone, for the next test.
    await clickMouse(s, f.x, f.y);
    for (let i = 0; i < needle.length; ++i) await s.page.keyboard.press('Backspace');
    await clickMouse(s, h.x, h.y);
    await clickMouse(s, h.x, h.y);
    v = await poll(
      async () => {
        const x = await view(s);
        return x.filter === '' && x.sort.column === -1 && x.memoryViewer?.drawn && x;
      },
      { timeout: 30_000, message: 'filter and sort undone' },
    );
    s.assertNoErrors();
  });

  test("a buffer's row opens the Graph tab on its instruction, which lists its buffers", async () => {
    let w = v;
    const name = w.columns.indexOf('name');
    let k = -1;
    for (let i = 0; i < w.layout.rows.length && k < 0; ++i) {
      const r = w.rows[w.layout.firstRow + i];
      if (r && !String(r.values[name]).startsWith('small buffers')) k = i;
    }
    assert.ok(k >= 0, 'a buffer row is drawn');
    const row = w.rows[w.layout.firstRow + k];
    const box = w.layout.rows[k];
    await clickMouse(s, box[0] + box[2] * 0.3, box[1] + box[3] / 2);
    w = await poll(
      async () => {
        const x = await view(s);
        return x.selected && x.selected.row === row.row && x.layout.graphButton[2] > 0 && x;
      },
      { timeout: 30_000, message: 'the row selected, Open in graph offered' },
    );
    const op = w.selected.op;
    assert.ok(op, 'the row links its instruction');
    const b = boxCentre(w.layout.graphButton);
    await clickMouse(s, b.x, b.y);
    const g = await poll(
      async () => {
        const x = await s.call(() => window.strata.graph());
        return x && x.selected === op && x.details && x;
      },
      { timeout: 60_000, message: `the Graph tab on ${op}` },
    );
    assert.ok(Array.isArray(g.details.buffers) && g.details.buffers.length > 0, JSON.stringify(g.details));
    assert.ok(
      g.details.buffers.some((t) => t.startsWith(op)),
      JSON.stringify(g.details.buffers),
    );
    s.assertNoErrors();
  });
});
