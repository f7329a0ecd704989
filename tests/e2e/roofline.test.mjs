// The Roofline chart in the Analysis tab, as a user reads it: on a TPU-shaped xplane (made by
// the project's strata_make_tpu_xplane, with the plane's peak stats) the memory roof, the compute
// roof and the ridge drawn where the peaks put them, one marker per program and per op at its
// intensity and rate (checked against strata.analysis('roofline') and the log axes), a hover
// that names the op, a click that selects its row and its events, typed peaks that re-run the
// analysis and ride in the link. On a real GPU xplane (no peak figures): the chart says so, typed
// peaks draw the roofs, and a deep link with peaks reopens them. State through
// strata.analysisView().roofline, pixels from screenshots.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import {
  boxCentre,
  clickMouse,
  dataUrl,
  openAnalysisSubTab,
  poll,
  REPO_ROOT,
  screenshotCanvas,
  setupStrata,
  skipUnlessData,
  tempDir,
} from './lib.mjs';

const MAKE_TPU = path.join(REPO_ROOT, 'build/native/strata_make_tpu_xplane');
const CONV = 'xplane/tracelens/jax_conv_minimal_08/tw003.xplane.pb';

const view = (s) => s.call(() => window.strata.analysisView());
const centre = boxCentre;

const clickAt = clickMouse;
// Types into a field of the chart's panel and presses Enter.
async function typeInto(s, box, text) {
  const c = centre(box);
  await clickAt(s, c.x, c.y);
  await s.page.keyboard.press('Control+A');
  await s.page.keyboard.press('Backspace');
  await s.page.keyboard.type(text);
  await s.frame();
  await s.page.keyboard.press('Enter');
  await s.frame();
}

// Opens the Analysis tab on the Roofline sub-tab and waits for the chart's state.
const openRoofline = (s, ready) =>
  openAnalysisSubTab(s, 'roofline', (v) => v.roofline && ready(v.roofline), { message: 'the roofline chart' });

const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
function pixel(shot, x, y) {
  const sc = shot.image.width / shot.box.width;
  const j = (Math.round(y * sc) * shot.image.width + Math.round(x * sc)) * 4;
  return [shot.image.data[j], shot.image.data[j + 1], shot.image.data[j + 2]];
}
// The pixel nearest in colour to `want` within `reach` px of (x, y), and its distance.
function nearestColour(shot, x, y, want, reach = 2) {
  let best = Infinity;
  for (let dy = -reach; dy <= reach; ++dy)
    for (let dx = -reach; dx <= reach; ++dx) best = Math.min(best, dist(pixel(shot, x + dx, y + dy), want));
  return best;
}
// A point on segment [x0,y0,x1,y1] at fraction t.
const along = (seg, t) => ({ x: seg[0] + (seg[2] - seg[0]) * t, y: seg[1] + (seg[3] - seg[1]) * t });
// Away from every marker (their ring included).
const clear = (r, p) => r.points.every((d) => Math.hypot(d.x - p.x, d.y - p.y) > d.r + 6);

// Where the log axes put a value (independently of the UI's maths).
function expectedPx(r, intensity, rate) {
  const [px, py, pw, ph] = r.plot;
  const f = (v, [lo, hi]) => (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
  return { x: px + f(intensity, r.axes.x) * pw, y: py + ph - f(rate, r.axes.y) * ph };
}

const skipTpu = !fs.existsSync(MAKE_TPU) && 'needs build/native/strata_make_tpu_xplane';

describe('the Roofline chart on a TPU-shaped xplane', { skip: skipTpu }, () => {
  const tmp = tempDir();
  let env, s, v, table;
  before(async () => {
    execFileSync(MAKE_TPU, [path.join(tmp.dir, 'tpu.xplane.pb'), '0.005', '1']);
    env = await setupStrata({ mounts: { '/fixture/': tmp.dir } });
    s = env.session;
    await s.open('/fixture/tpu.xplane.pb');
    v = await openRoofline(s, (r) => r.drawn && r.pointCount > 0 && r.ridge);
    table = await s.call(() => window.strata.analysis('roofline'));
  });
  after(async () => {
    if (env) await env.close();
    tmp.cleanup();
  });

  test("roofs from the plane's peaks, the ridge, one marker per program and op at its place", async () => {
    const r = v.roofline;
    assert.equal(r.peaks.flopsPerSec, 197e12);
    assert.equal(r.peaks.bytesPerSec, 819e9);
    assert.ok(Math.abs(r.ridge.intensity - 197e12 / 819e9) < 1e-9, `ridge ${r.ridge.intensity}`);
    assert.equal(r.message, '');
    // The ridge is where the two roofs meet, on the compute roof.
    assert.deepEqual([r.roof.memory[2], r.roof.memory[3]], [r.ridge.x, r.ridge.y]);
    assert.deepEqual([r.roof.compute[0], r.roof.compute[1]], [r.ridge.x, r.ridge.y]);
    const atRidge = expectedPx(r, r.ridge.intensity, r.ridge.flopsPerSec);
    assert.ok(Math.abs(atRidge.x - r.ridge.x) < 0.6 && Math.abs(atRidge.y - r.ridge.y) < 0.6, JSON.stringify(r.ridge));
    // One point per row with both an intensity and a rate (the ops with the least time left
    // out past the chart's cap), programs marked as programs, each where the log axes put it.
    const c = (k) => table.columns.findIndex((x) => x.key === k);
    const rows = table.rows
      .map((row, i) => ({
        row: i,
        kind: row.cells[c('kind')],
        oi: row.cells[c('intensity')],
        rate: row.cells[c('flop_rate')],
      }))
      .filter((x) => x.oi > 0 && x.rate > 0);
    assert.equal(r.pointCount + r.opsLeftOut, rows.length);
    const want = new Map(rows.map((x) => [x.row, x]));
    assert.ok(r.points.some((p) => p.kind === 'program') && r.points.some((p) => p.kind === 'op'), 'programs and ops');
    for (const x of rows.filter((k) => k.kind === 'program'))
      assert.ok(
        r.points.some((p) => p.row === x.row),
        `program row ${x.row} has its marker`,
      );
    for (const p of r.points) {
      const w = want.get(p.row);
      assert.ok(w, `row ${p.row} has an intensity and a rate`);
      assert.equal(p.kind, w.kind);
      const at = expectedPx(r, w.oi, w.rate);
      assert.ok(
        Math.abs(at.x - p.x) < 0.6 && Math.abs(at.y - p.y) < 0.6,
        `row ${p.row} at ${p.x},${p.y}, want ${at.x},${at.y}`,
      );
    }
    // The programs' markers are bigger than their ops' (sized by time share).
    const prog = r.points.find((p) => p.kind === 'program');
    assert.ok(
      r.points.filter((p) => p.kind === 'op').every((p) => p.r <= prog.r),
      'ops no bigger than the program',
    );

    // Pixels: the compute roof's colour on its line, the memory roof's on its slope, the program
    // marker's colour at its centre; an op dot's colour nearer its own than the plot's.
    const shot = await screenshotCanvas(s.page);
    const onLine = (seg) => [0.3, 0.5, 0.7, 0.85, 0.6, 0.4].map((t) => along(seg, t)).find((p) => clear(r, p));
    const onCompute = onLine(r.roof.compute);
    assert.ok(onCompute, 'a free stretch of the compute roof');
    assert.ok(nearestColour(shot, onCompute.x, onCompute.y, hex(r.colours.computeRoof)) < 40, 'the compute roof drawn');
    assert.ok(nearestColour(shot, onCompute.x, onCompute.y - 12, hex(r.colours.computeRoof)) > 80, 'and only there');
    const [px, py, pw, ph] = r.plot;
    const memSeg = r.roof.memory;
    const inPlot = (p) => p.x > px + 2 && p.x < px + pw - 2 && p.y > py + 2 && p.y < py + ph - 2;
    const onMemory = [0.5, 0.7, 0.85, 0.95].map((t) => along(memSeg, t)).find((p) => inPlot(p) && clear(r, p));
    assert.ok(onMemory, 'a free stretch of the memory roof');
    assert.ok(nearestColour(shot, onMemory.x, onMemory.y, hex(r.colours.memoryRoof)) < 40, 'the memory roof drawn');
    assert.ok(dist(pixel(shot, prog.x, prog.y), hex(r.colours.program)) < 30, 'the program marker drawn');
    const op = r.points.find((p) => p.kind === 'op' && Math.hypot(p.x - prog.x, p.y - prog.y) > prog.r + p.r + 2);
    if (op) {
      const got = pixel(shot, op.x, op.y);
      assert.ok(dist(got, hex(r.colours.op)) < dist(got, hex(r.colours.plot)), `op dot ${got}`);
    }
    s.assertNoErrors();
  });

  test('hovering a marker names its op, intensity, rate, time and bound-by', async () => {
    const r = (await view(s)).roofline;
    const prog = r.points.find((p) => p.kind === 'program');
    const op =
      r.points.find((p) => p.kind === 'op' && Math.hypot(p.x - prog.x, p.y - prog.y) > prog.r + p.r + 4) || prog;
    await s.page.mouse.move(op.x, op.y);
    await s.frame();
    const w = await poll(
      async () => {
        const x = await view(s);
        return x.roofline.hovered && x;
      },
      { message: 'a hovered marker' },
    );
    const h = w.roofline.hovered;
    // The nearest marker under the mouse: the one aimed at unless another sits on it.
    const under = w.roofline.points.find((p) => p.row === h.row);
    assert.ok(Math.hypot(under.x - op.x, under.y - op.y) <= under.r + 3, JSON.stringify(h));
    assert.equal(h.name, table.rows[h.row].cells[0]);
    const bound = table.rows[h.row].cells[table.columns.findIndex((x) => x.key === 'bound_by')];
    assert.equal(h.boundBy, bound === null ? '\u2014' : bound);
    for (const part of [h.name, 'FLOP/byte', 'Achieved', 'Time', 'Bound by'])
      assert.ok(w.roofline.tooltip.includes(part), w.roofline.tooltip);
    // Away from the markers: no tooltip.
    const [px, py] = w.roofline.plot;
    await s.page.mouse.move(px + 3, py + 3);
    await s.frame();
    await poll(async () => (await view(s)).roofline.hovered === null, { message: 'nothing hovered' });
  });

  test('a click on a marker selects its row (scrolled to) and its events; Open in graph is offered', async () => {
    const r = (await view(s)).roofline;
    const prog = r.points.find((p) => p.kind === 'program');
    const aim = r.points.find((p) => p.kind === 'op' && Math.hypot(p.x - prog.x, p.y - prog.y) > prog.r + p.r + 4);
    assert.ok(aim, 'an op marker clear of the program');
    // The marker under the mouse (ops of one name in both programs sit on each other): the one
    // the hover names is the one a click takes.
    await s.page.mouse.move(aim.x, aim.y);
    await s.frame();
    const hovered = await poll(async () => (await view(s)).roofline.hovered, { message: 'the marker hovered' });
    const op = r.points.find((p) => p.row === hovered.row);
    assert.ok(op.kind === 'op' && Math.hypot(op.x - aim.x, op.y - aim.y) <= op.r + 3, JSON.stringify(hovered));
    await clickAt(s, aim.x, aim.y);
    const w = await poll(
      async () => {
        const x = await view(s);
        return x.selected && x.selected.row === op.row && x;
      },
      { message: "the marker's row selected" },
    );
    const link = table.rows[op.row].link;
    assert.equal(w.selected.linkName, link.name);
    // The row is drawn in the table (its program expanded, scrolled to it).
    await poll(
      async () => {
        const x = await view(s);
        const i = x.selected.shownIndex;
        return i >= x.layout.firstRow && i < x.layout.firstRow + x.layout.rows.length;
      },
      { message: 'the selected row on screen' },
    );
    // Its events are the timeline's selection: as many as the timeline holds under its name in
    // its program.
    const want = await s.call(
      ([n, t, p]) => window.strata.eventsNamed(n, t, p),
      [link.name, link.tracks, link.programId],
    );
    await poll(
      async () => {
        const sel = await s.call(() => window.strata.selection());
        return sel && sel.count === want.count && sel.count > 0;
      },
      { message: `the selection holds the op's ${want.count} events` },
    );
    assert.ok(w.layout.graphButton[2] > 0, 'Open in graph offered for the op');
    assert.equal(w.selected.op, link.op);
    s.assertNoErrors();
  });

  test('typed peaks re-run the analysis, move the roofs and ride in the link', async () => {
    let w = await view(s);
    await typeInto(s, w.roofline.layout.tflops, '100');
    // The analysis runs again with it: the fields come back with its answer.
    w = await poll(
      async () => {
        const x = await view(s);
        return x.roofline && x.roofline.peaks.flopsPerSec === 100e12 && x;
      },
      { timeout: 60_000, message: 'the typed TFLOP/s in the chart' },
    );
    await typeInto(s, w.roofline.layout.gbps, '1000');
    w = await poll(
      async () => {
        const x = await view(s);
        return (
          x.roofline &&
          x.roofline.ridge &&
          x.roofline.peaks.flopsPerSec === 100e12 &&
          x.roofline.peaks.bytesPerSec === 1e12 &&
          x
        );
      },
      { timeout: 60_000, message: 'the typed peaks in the chart' },
    );
    assert.equal(w.roofline.ridge.intensity, 100);
    assert.match(w.roofline.peaks.source, /typed by the user/);
    assert.equal(w.roofline.peaks.typedTflops, 100);
    assert.match(w.link, /peakTflops=100&peakGBps=1000/);
    await poll(async () => (await s.call(() => location.hash)).includes('peakTflops=100&peakGBps=1000'), {
      message: 'the page hash carries the peaks',
    });
    const shot = await screenshotCanvas(s.page);
    const onCompute = [0.5, 0.3, 0.7].map((t) => along(w.roofline.roof.compute, t)).find((p) => clear(w.roofline, p));
    assert.ok(
      nearestColour(shot, onCompute.x, onCompute.y, hex(w.roofline.colours.computeRoof)) < 40,
      'the new compute roof drawn',
    );
    s.assertNoErrors();
  });
});

describe('the Roofline chart on a real GPU xplane without peaks', { skip: skipUnlessData(CONV) }, () => {
  let env, s;
  before(async () => {
    env = await setupStrata();
    s = env.session;
  });
  after(async () => {
    if (env) await env.close();
  });

  test('says there are no peaks; typed ones draw the roofs and the link carries them', async () => {
    await s.open(dataUrl(CONV));
    let v = await openRoofline(s, (r) => r.layout.tflops[2] > 0);
    const r = v.roofline;
    assert.equal(r.ridge, null);
    assert.equal(r.roof, null);
    assert.ok(r.peaks.why.length > 0, JSON.stringify(r.peaks));
    assert.match(r.message, /No roofline/);
    assert.ok(!/peakTflops/.test(v.link), v.link);
    await typeInto(s, r.layout.tflops, '163.4');
    v = await poll(
      async () => {
        const x = await view(s);
        return x.roofline && x.roofline.peaks.flopsPerSec === 163.4e12 && x;
      },
      { timeout: 60_000, message: 'the typed TFLOP/s' },
    );
    // With the file's bandwidth, if it has one (this one has the GPU's memory clock and bus),
    // one typed peak is a roofline already.
    if (r.peaks.bytesPerSec > 0)
      assert.ok(Math.abs(v.roofline.ridge.intensity - 163.4e12 / r.peaks.bytesPerSec) < 1e-9);
    else assert.equal(v.roofline.ridge, null);
    await typeInto(s, v.roofline.layout.gbps, '5300');
    v = await poll(
      async () => {
        const x = await view(s);
        return x.roofline && x.roofline.ridge && x;
      },
      { timeout: 60_000, message: 'the roofs from the typed peaks' },
    );
    assert.equal(v.roofline.drawn, true);
    assert.equal(v.roofline.message, '');
    assert.ok(Math.abs(v.roofline.ridge.intensity - 163.4e12 / 5300e9) < 1e-9);
    assert.match(v.link, /analysis=roofline/);
    assert.match(v.link, /peakTflops=163\.4&peakGBps=5300/);
    const shot = await screenshotCanvas(s.page);
    const on = along(v.roofline.roof.compute, 0.5);
    assert.ok(nearestColour(shot, on.x, on.y, hex(v.roofline.colours.computeRoof)) < 40, 'the compute roof drawn');
    const mem = along(v.roofline.roof.memory, 0.8);
    assert.ok(nearestColour(shot, mem.x, mem.y, hex(v.roofline.colours.memoryRoof)) < 40, 'the memory roof drawn');
    s.assertNoErrors();
  });

  test('a deep link with peaks reopens the roofline with them', async () => {
    const hash = 'tab=analysis&analysis=roofline&peakTflops=200&peakGBps=2000';
    await s.goto(`${env.server.url}?url=${encodeURIComponent(dataUrl(CONV))}#${hash}`);
    const v = await poll(
      async () => {
        const x = await view(s);
        return x && x.analysis === 'roofline' && x.roofline && x.roofline.ridge && x;
      },
      { timeout: 60_000, message: 'the deep-linked roofline' },
    );
    assert.equal(await s.call(() => window.strata.tab()), 'analysis');
    assert.equal(v.roofline.peaks.flopsPerSec, 200e12);
    assert.equal(v.roofline.peaks.bytesPerSec, 2000e9);
    assert.equal(v.roofline.ridge.intensity, 100);
    assert.match(v.link, /peakTflops=200&peakGBps=2000/);
    s.assertNoErrors();
  });
});
