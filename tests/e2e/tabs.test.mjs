// The Memory, Runs and Loss tabs as a demanding user reads them: memory counters whose series
// name a byte unit, the memory chart in both themes (plot, hover readout), round Y ticks, times
// to the microsecond, memory held before the trace began as a row of its own, a file without
// `Addr` saying why it has no allocation table; the Runs tables and pies cutting long text with
// an ellipsis, the Diff chart's axes; the Loss tab telling logs with a long shared name apart and
// naming its axes. State through strata.memoryView() / tableCells() / runsCharts() / loss(),
// pixels from canvas screenshots; expected values are computed here from the inputs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { dataPath, dataUrl, DIST_DIR, hasData, parseTrace, screenshotCanvas, strataSuite } from './lib.mjs';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const OLD_KINETO = 'pytorch_kineto/kineto-tb_plugin/resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz';
const KINETO_RUNS = 'pytorch_kineto/kineto-tb_plugin';

const lum = (img, x, y) => {
  const j = (y * img.width + x) * 4;
  return 0.299 * img.data[j] + 0.587 * img.data[j + 1] + 0.114 * img.data[j + 2];
};
// Luminances of a box given in CSS px of the canvas.
function boxLuminances(shot, b) {
  const s = shot.image.width / shot.box.width;
  const out = [];
  for (let y = Math.round(b.y * s); y < Math.round((b.y + b.h) * s); ++y)
    for (let x = Math.round(b.x * s); x < Math.round((b.x + b.w) * s); ++x) out.push(lum(shot.image, x, y));
  return out;
}
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

function memoryEvent(ts, total, bytes, addr) {
  const args = { 'Total Allocated': total, 'Total Reserved': 8 * GiB, Bytes: bytes, 'Device Id': 0, 'Device Type': 1 };
  if (addr !== null) args.Addr = addr;
  return { ph: 'i', s: 't', name: '[memory]', cat: 'cpu_instant_event', pid: 1, tid: 1, ts, args };
}

// 2 GiB held when the trace begins; buffers allocated and freed inside ops; the peak at
// 2.345678 s after the first event (µs timestamps with a fraction, as Kineto writes them).
function heldTrace({ withAddr = true } = {}) {
  const held = 2 * GiB;
  const events = [{ ph: 'M', name: 'process_name', pid: 1, args: { name: 'python' } }];
  const t0 = 1_700_000_000_000.25;
  let total = held;
  const live = [];
  let peak = { total: -1, ts: 0 };
  for (let i = 0; i < 60; ++i) {
    const ts = i === 40 ? t0 + 2_345_678 : t0 + i * 50_000 + (i > 40 ? 2_400_000 : 0);
    events.push({ ph: 'X', name: `aten::op${i % 5}`, cat: 'cpu_op', pid: 1, tid: 1, ts, dur: 10 });
    const bytes = (i === 40 ? 700 : 8 + (i % 7)) * MiB;
    total += bytes;
    events.push(memoryEvent(ts + 1, total, bytes, withAddr ? 100 + i : null));
    if (total > peak.total) peak = { total, ts: ts + 1 };
    if (i === 40) {
      // The spike is freed at once: the peak stays here.
      total -= bytes;
      events.push(memoryEvent(ts + 5, total, -bytes, withAddr ? 100 + i : null));
      continue;
    }
    live.push({ addr: 100 + i, bytes });
    if (live.length > 4) {
      const f = live.shift();
      total -= f.bytes;
      events.push(memoryEvent(ts + 5, total, -f.bytes, withAddr ? f.addr : null));
    }
  }
  events.sort((a, b) => (a.ts || 0) - (b.ts || 0));
  return { trace: { traceEvents: events }, held, peak, t0 };
}

describe('the Memory, Runs and Loss tabs', () => {
  let env, session, call;
  strataSuite((e) => {
    env = e;
    session = env.session;
    call = session.call;
  });
  const memoryView = () => call(() => window.strata.memoryView());
  const settle = async () => {
    for (let i = 0; i < 4; ++i) await session.frame();
  };

  test('counters whose series name a byte unit chart in bytes: 1120 (MB) is 1.09 GiB', async () => {
    const trace = {
      traceEvents: [
        { ph: 'C', name: 'Pool', pid: 1, ts: 10, args: { 'Allocated (MB)': 1000 } },
        { ph: 'C', name: 'Pool', pid: 1, ts: 20, args: { 'Allocated (MB)': 1120 } },
        { ph: 'C', name: 'Pool', pid: 1, ts: 30, args: { 'Allocated (MB)': 300 } },
        { ph: 'C', name: 'GPU Utilization', pid: 1, ts: 10, args: { value: 70 } },
        { ph: 'X', name: 'step', pid: 1, tid: 1, ts: 10, dur: 30 },
      ],
    };
    await session.openBytes(Buffer.from(JSON.stringify(trace)), 'units.json');
    await call(() => window.strata.setTab('memory'));
    const m = await call(() => window.strata.memory());
    assert.deepEqual(
      m.devices.map((d) => d.name),
      ['Pool'],
    );
    assert.equal(m.devices[0].peakBytes, 1120 * MiB);
    await settle();
    const v = await memoryView();
    assert.match(v.peakLabel, /^peak 1\.09 GiB at /);
    session.assertNoErrors();
  });

  test('the demo trace: its (MB) and (MiB) counters chart as MiB', async () => {
    const file = path.join(DIST_DIR, 'demo', 'demo-trace.json');
    const records = parseTrace(fs.readFileSync(file, 'utf8')).records;
    const peakOf = (name, key) =>
      Math.max(...records.filter((r) => r.ph === 'C' && r.name === name).map((r) => Number(r.args[key]))) * MiB;
    await session.open('demo/demo-trace.json');
    const m = await call(() => window.strata.memory());
    const dev = (n) => m.devices.find((d) => d.name === n);
    assert.ok(dev('KV Cache'), `a counter without "mem" in its name: ${m.devices.map((d) => d.name)}`);
    assert.equal(dev('KV Cache').peakBytes, peakOf('KV Cache', 'Used (MiB)'));
    const gpu = dev('GPU Memory').series.find((s) => s.component === 'Allocated (MB)');
    assert.equal(gpu.peakAllocated, peakOf('GPU Memory', 'Allocated (MB)'));
    assert.ok(gpu.peakAllocated > GiB / 2, 'hundreds of MiB, not KiB');
  });

  test('memory chart: theme, readable hover readout, round Y ticks, µs times, memory held before the trace', async () => {
    const { trace, held, peak, t0 } = heldTrace();
    await session.openBytes(Buffer.from(JSON.stringify(trace)), 'held.json');
    await call(() => window.strata.setTab('memory'));
    await call(() => window.strata.setTheme('dark'));
    await settle();
    let v = await memoryView();
    assert.equal(v.device, 'GPU 0');
    // The peak, to the microsecond: 2.345678 s after the first event (+1 µs: the [memory]
    // instant follows its op), not "2.35 s".
    const rel = Math.round((peak.ts - t0) * 1000);
    assert.equal(rel, 2_345_679_000);
    assert.match(v.peakLabel, / at 2\.345679 s$/, v.peakLabel);
    // Y ticks: 0 and equal steps of 1, 2, 2.5 or 5 × 10^n of one unit, labelled as such.
    assert.ok(v.yTicks.length >= 3, JSON.stringify(v.yTicks));
    const step = v.yTicks[1].bytes;
    v.yTicks.forEach((t, i) => assert.equal(t.bytes, i * step));
    const unit = [1, 1024, MiB, GiB].filter((u) => step >= u).pop();
    const mant = step / unit / 10 ** Math.floor(Math.log10(step / unit));
    assert.ok(
      [1, 2, 2.5, 5].some((x) => Math.abs(mant - x) < 1e-9),
      `round step ${step}`,
    );
    assert.equal(v.yTicks[0].label, '0');
    for (const t of v.yTicks.slice(1)) assert.match(t.label, /^\d+(\.\d+)? (B|KiB|MiB|GiB)$/);
    // At the peak, the 2 GiB held before the trace is a row of its own, and the rows add up
    // to the peak.
    await session.frame();
    v = await memoryView();
    const before_ = v.liveGroups.find((g) => g.beforeTrace);
    assert.ok(before_, JSON.stringify(v.liveGroups));
    assert.equal(before_.bytes, held);
    assert.equal(
      v.liveGroups.reduce((s, g) => s + g.bytes, 0),
      peak.total,
    );
    assert.match(v.liveLabel, /^Live at 2\.345679 s: /);
    // Dark plot, then light: the plot follows the theme.
    let shot = await screenshotCanvas(session.page);
    const plotBox = { x: v.plot.x + 4, y: v.plot.y + 4, w: v.plot.w - 8, h: v.plot.h - 8 };
    assert.ok(median(boxLuminances(shot, plotBox)) < 70, 'dark plot');
    await call(() => window.strata.setTheme('light'));
    await settle();
    shot = await screenshotCanvas(session.page);
    assert.ok(median(boxLuminances(shot, plotBox)) > 200, 'light plot in the light theme');
    // Hover: a readout with the time to the µs and the values, on a background of its own
    // that contrasts with its text in both themes.
    for (const theme of ['light', 'dark']) {
      await call((t) => window.strata.setTheme(t), theme);
      await session.page.mouse.move(shot.box.x + v.plot.x + v.plot.w * 0.3, shot.box.y + v.plot.y + v.plot.h * 0.5);
      await settle();
      const hv = await memoryView();
      assert.match(hv.hoverText, /allocated \d/, `${theme}: ${hv.hoverText}`);
      assert.match(hv.hoverText, /\.\d{6} s /, `${theme}: the cursor time to the µs: ${hv.hoverText}`);
      const s = await screenshotCanvas(session.page);
      const l = boxLuminances(s, hv.hoverBox);
      const bg = median(l);
      const text = l.filter((x) => Math.abs(x - bg) > 100).length;
      assert.ok(text > 20, `${theme}: readout text stands out from its background (${text} px, bg ${bg})`);
      assert.ok(theme === 'light' ? bg > 200 : bg < 60, `${theme}: readout background ${bg}`);
    }
    await call(() => window.strata.setTheme('dark'));
    session.assertNoErrors();
  });

  test('a Kineto file without Addr: the allocation table says why it is empty', async () => {
    const { trace } = heldTrace({ withAddr: false });
    await session.openBytes(Buffer.from(JSON.stringify(trace)), 'no-addr.json');
    await call(() => window.strata.setTab('memory'));
    await settle();
    const v = await memoryView();
    assert.equal(v.allocations, 0);
    assert.match(v.allocationsNote, /no Addr/);
    assert.ok(!v.liveGroups.some((g) => g.beforeTrace), 'nothing is called held before the trace');
  });

  test('the real 2021 Kineto trace (no Addr) says so', { skip: !hasData(OLD_KINETO) && 'no shared data' }, async () => {
    await session.open(dataUrl(OLD_KINETO));
    await call(() => window.strata.setTab('memory'));
    await settle();
    const v = await memoryView();
    assert.ok(v.device, 'a device');
    assert.match(v.allocationsNote, /no Addr/);
  });

  test(
    'Runs: long names end in an ellipsis (tooltip: the whole text), pies keep their legend, the Diff chart has axes',
    { skip: !hasData(KINETO_RUNS) && 'no shared data' },
    async () => {
      const root = dataPath(KINETO_RUNS);
      const list = [];
      for (const run of fs.readdirSync(root))
        for (const f of fs.readdirSync(path.join(root, run)))
          list.push({ path: `${path.basename(KINETO_RUNS)}/${run}/${f}`, url: dataUrl(`${KINETO_RUNS}/${run}/${f}`) });
      await call((l) => window.strata.open(l), list, 120_000);
      await call(() => window.strata.stats(), undefined, 120_000);
      await call(() => window.strata.setTab('runs'));
      await settle();
      const cut = await call(() => window.strata.tableCells());
      assert.ok(cut.frame >= cut.now - 1, `cells of the last frame (${cut.frame} vs ${cut.now})`);
      assert.ok(cut.cells.length > 0, 'the operator pies and table cut some long names');
      for (const c of cut.cells) {
        assert.ok(c.shown.length < c.text.length || c.shown !== c.text, JSON.stringify(c));
        if (c.shown.endsWith('...'))
          assert.ok(c.text.startsWith(c.shown.slice(0, -3)), `prefix + ellipsis: ${JSON.stringify(c)}`);
      }
      // Diff of two runs: the chart's left axis ticks and the line's right axis.
      const d = await call(
        () => window.strata.runsDiff({ a: { run: 1, profile: 0 }, b: { run: 2, profile: 0 } }),
        undefined,
        120_000,
      );
      await call(() => window.strata.selectRun({ view: 'Diff' }), undefined, 120_000);
      await settle();
      const charts = await call(() => window.strata.runsCharts());
      assert.ok(charts.diff.barTicks.length >= 2, JSON.stringify(charts));
      assert.ok(charts.diff.lineTicks.length >= 2, JSON.stringify(charts));
      // Log scale exactly when the largest type's time is over ten times the next one's
      // (the chart shows at most 40 types).
      const tall = d.stepDiff.rows
        .slice(0, 40)
        .map((r) => Math.max(r.aDeviceUs || 0, r.bDeviceUs || 0))
        .filter((x) => x > 0)
        .sort((a, b) => b - a);
      assert.equal(charts.diff.logScale, tall.length >= 2 && tall[0] > 10 * tall[1], JSON.stringify(tall.slice(0, 3)));
      session.assertNoErrors();
    },
  );

  test('Loss: logs sharing a long name start are told apart, and the axes are named', async () => {
    const log = (k) => {
      let s = '';
      for (let i = 1; i <= 20; ++i) s += `step: ${i} | train_loss: ${(k / i).toFixed(4)}\n`;
      return s;
    };
    const a = 'gpt3-357m-pretrain-warmup2000-lr1e-4-seed1.log',
      b = 'gpt3-357m-pretrain-warmup2000-lr3e-4-seed1.log';
    await session.openBytes(Buffer.from(log(5)), a);
    await session.openBytes(Buffer.from(log(6)), b);
    await call(() => window.strata.setTab('loss'));
    await settle();
    const l = await call(() => window.strata.loss({ points: false }));
    const label = (n) => l.files.find((f) => f.name === n).label;
    assert.equal(label(a), '...lr1e-4-seed1.log');
    assert.equal(label(b), '...lr3e-4-seed1.log');
    assert.equal(l.axes.y, 'loss');
    assert.match(l.axes.x, /^iteration/);
    assert.match(l.axes.comparisonY, /second - first/);
    session.assertNoErrors();
  });
});
