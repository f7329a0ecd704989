// The Overview analysis on a real Kineto trace, as a user works it: strata.analysis('overview')
// splits every ProfilerStep#N of the file into parts that add up to the step (within 1 µs), the
// Analysis tab opens on it with the step chart drawn above the table (a bar's pixels in its
// part's theme colour), hovering a bar names it, clicking a bar selects that step's slice and
// zooms the timeline to it, the URL hash then carries the step, and a deep link with step=N
// opens the tab on that step. State through strata.analysisView(), pixels from a screenshot.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  clickMouse,
  dataPath,
  dataUrl,
  hasData,
  parseTrace,
  poll,
  readTraceText,
  screenshotCanvas,
  setupStrata,
  usToNs,
} from './lib.mjs';

const RESNET = 'pytorch_kineto/kineto-tb_plugin/resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz';
const skip = !hasData(RESNET) && 'needs ../shared/data';

const PARTS = [
  'device_compute',
  'collectives',
  'host_to_device',
  'device_to_host',
  'device_to_device',
  'input_wait',
  'kernel_launch',
  'host_compute',
  'compile',
  'other',
  'idle',
];

// The file's ProfilerStep#N records: name → duration in ns.
function stepsOf(rel) {
  const { records } = parseTrace(readTraceText(dataPath(rel)));
  const out = new Map();
  for (const r of records)
    if (r && r.ph === 'X' && /^ProfilerStep#\d+$/.test(r.name) && r.cat !== 'gpu_user_annotation')
      out.set(r.name, usToNs(r.dur));
  return out;
}

const view = (s) => s.call(() => window.strata.analysisView());

const clickAt = clickMouse;
// The Analysis tab showing `name` with its step chart's bars laid out.
async function chartOf(s, name) {
  return poll(
    async () => {
      const v = await view(s);
      return v && v.analysis === name && !v.loading && v.stepChart.bars > 0 && v.stepChart.plot[2] > 0 && v;
    },
    { timeout: 60_000, message: `the ${name} step chart` },
  );
}

function pixel(shot, x, y) {
  const sc = shot.image.width / shot.box.width;
  const j = (Math.round(y * sc) * shot.image.width + Math.round(x * sc)) * 4;
  return [shot.image.data[j], shot.image.data[j + 1], shot.image.data[j + 2]];
}

const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const near = (a, b, tol = 12) => a.every((v, i) => Math.abs(v - b[i]) <= tol);

describe('the Overview analysis', { skip }, () => {
  let env, s, steps;
  before(async () => {
    env = await setupStrata();
    s = env.session;
    steps = stepsOf(RESNET);
    await s.open(dataUrl(RESNET));
  });
  after(async () => {
    if (env) await env.close();
  });

  test('strata.analysis("overview") splits each step into parts that sum to it', async () => {
    const t = await s.call(() => window.strata.analysis('overview'));
    assert.deepEqual(t.errors, []);
    const keys = t.columns.map((c) => c.key);
    for (const p of PARTS) assert.ok(keys.includes(p), `column ${p}`);
    const at = (k) => keys.indexOf(k);
    const stepRows = t.rows.filter((r) => typeof r.cells[at('start')] === 'number');
    assert.equal(stepRows.length, steps.size, 'one row per ProfilerStep#N record');
    let input = 0;
    for (const r of stepRows) {
      const name = r.cells[0];
      assert.ok(steps.has(name), name);
      const dur = r.cells[at('duration')];
      assert.ok(Math.abs(dur - steps.get(name)) <= 1000, `${name}: ${dur} vs the record's ${steps.get(name)}`);
      const sum = PARTS.reduce((a, p) => a + (r.cells[at(p)] || 0), 0);
      assert.ok(Math.abs(sum - dur) <= 1000, `${name}: parts ${sum} vs duration ${dur}`);
      input += r.cells[at('input_wait')];
    }
    assert.ok(input > 0, 'the DataLoader shows as input wait');
    assert.ok(
      t.notes.some((n) => /input-bound/.test(n)),
      `a verdict line: ${t.notes.join(' | ')}`,
    );
    assert.ok(t.notes.some((n) => /^Duty cycle/.test(n)));
    assert.ok(t.rows.some((r) => /^Top 10 device ops/.test(r.cells[0])));
  });

  test('the tab opens on Overview with the step chart; a bar click selects and zooms to its step', async () => {
    assert.equal(await s.call(() => window.strata.setTab('analysis')), true);
    let v = await chartOf(s, 'overview');
    assert.equal(v.stepChart.bars, steps.size);
    assert.equal(v.stepChart.parts.length, PARTS.length);
    // Pixels: the tallest segment of the second bar is drawn in its part's colour.
    const i = Math.min(1, v.stepChart.boxes.length - 1);
    const box = v.stepChart.boxes[i];
    const seg = [...box.segments].sort((a, b) => b.y0 - b.y1 - (a.y0 - a.y1))[0];
    assert.ok(seg.y0 - seg.y1 >= 4, `a segment tall enough to look at: ${JSON.stringify(seg)}`);
    const shot = await screenshotCanvas(s.page);
    const want = rgb(v.stepChart.parts[seg.part].colour);
    const got = pixel(shot, (box.x0 + box.x1) / 2, (seg.y0 + seg.y1) / 2);
    assert.ok(near(got, want), `bar ${i}'s ${v.stepChart.parts[seg.part].key} pixel ${got} vs ${want}`);
    // Above a shorter bar's top the plot shows none of the parts' colours.
    const short = v.stepChart.boxes.find((b) => Math.min(...b.segments.map((g) => g.y1)) > v.stepChart.plot[1] + 6);
    if (short) {
      const bg = pixel(shot, (short.x0 + short.x1) / 2, v.stepChart.plot[1] + 2);
      for (const p of v.stepChart.parts) assert.ok(!near(bg, rgb(p.colour), 4), `no ${p.key} above a shorter bar`);
    }
    // Hover names the step.
    const x = (box.x0 + box.x1) / 2;
    const y = (seg.y0 + seg.y1) / 2;
    await s.page.mouse.move(x, y);
    v = await poll(
      async () => {
        await s.frame();
        const w = await view(s);
        return w.stepChart.hovered === i && w;
      },
      { message: 'the bar hovered' },
    );
    assert.ok(v.stepChart.hoverText.startsWith(box.name), v.stepChart.hoverText);

    await clickAt(s, x, y);
    v = await poll(
      async () => {
        const w = await view(s);
        return w.stepChart.chosen === i && w.selected && w;
      },
      { message: 'the bar chosen and its row selected' },
    );
    assert.equal(v.selected.linkName, box.name);
    const sel = await poll(
      async () => {
        const q = await s.call(() => window.strata.selection());
        return q.count === 1 && q;
      },
      { message: 'the step slice selected' },
    );
    assert.equal(sel.events[0].name, box.name);
    const tv = await s.call(() => window.strata.view());
    assert.ok(Math.abs(tv.startRelNs - box.start) <= 1000, `view start ${tv.startRelNs} vs step ${box.start}`);
    assert.ok(
      Math.abs(tv.endRelNs - (box.start + box.duration)) <= 1000,
      `view end ${tv.endRelNs} vs step end ${box.start + box.duration}`,
    );
    const n = box.name.split('#')[1];
    assert.equal(v.link, `tab=analysis&analysis=overview&step=${n}`);
    await poll(() => s.call(() => location.hash).then((h) => h.includes(`step=${n}`)), {
      message: 'the URL hash to carry the step',
    });
    s.assertNoErrors();
  });

  test("a step's device compute cell selects the kernels behind its figure", async () => {
    const t = await s.call(() => window.strata.analysis('overview'));
    const keys = t.columns.map((c) => c.key);
    let v = await chartOf(s, 'overview');
    // Bar 1's row (the bar click above expanded its group): its device compute cell.
    const bar = v.stepChart.boxes[Math.min(1, v.stepChart.boxes.length - 1)];
    const row = t.rows.findIndex((r) => r.cells[0] === bar.name && typeof r.cells[keys.indexOf('start')] === 'number');
    assert.ok(row >= 0, `the table has ${bar.name}`);
    const link = t.rows[row].cellLinks.device_compute;
    assert.ok(link && link.part === 'device_compute' && link.step >= 0, JSON.stringify(t.rows[row].cellLinks));
    assert.equal(t.rows[row].cellLinks.idle, undefined, 'idle has no events');
    const figure = t.rows[row].cells[keys.indexOf('device_compute')];

    // Independently, from the file: the compute kernels overlapping the step's record.
    const text = readTraceText(dataPath(RESNET)).replace(/"(ts|dur)":\s*(-?\d+(?:\.\d+)?)/g, '"$1":"$2"');
    const ns = (x) => {
      const [ip, fp = ''] = String(x).split('.');
      return BigInt(ip) * 1000n + BigInt((fp + '000').slice(0, 3));
    };
    const { records } = parseTrace(text);
    const rec = records.find((r) => r && r.ph === 'X' && r.name === bar.name && r.cat !== 'gpu_user_annotation');
    const a0 = ns(rec.ts),
      z0 = a0 + ns(rec.dur);
    // Compute work: kernels and memsets (this 2021 trace writes the categories capitalised).
    const kernels = records
      .filter((r) => r && r.ph === 'X' && /^(kernel|memset|gpu_memset)$/i.test(String(r.cat)))
      .filter((r) => !String(r.name).includes('nccl'))
      .map((r) => ({ name: String(r.name), a: ns(r.ts), b: ns(r.ts) + ns(r.dur || '0') }))
      .filter((k) => k.b > k.a && k.a < z0 && k.b > a0);
    const spans = kernels.map((k) => [k.a > a0 ? k.a : a0, k.b < z0 ? k.b : z0]).sort((x, y) => (x[0] < y[0] ? -1 : 1));
    let union = 0n,
      end = -1n;
    for (const [a, b] of spans) {
      const from = a > end ? a : end;
      if (b > from) union += b - from;
      if (b > end) end = b;
    }
    assert.ok(Math.abs(Number(union) - figure) <= 1000, `kernels' union ${union} vs the cell's ${figure}`);

    // Click the cell where it is drawn.
    const shown = v.rows.findIndex((r) => r.row === row);
    assert.ok(shown >= v.layout.firstRow && shown - v.layout.firstRow < v.layout.rows.length, 'the step row drawn');
    const rb = v.layout.rows[shown - v.layout.firstRow];
    const hb = v.layout.headers[keys.indexOf('device_compute')];
    await clickAt(s, hb[0] + hb[2] / 2, rb[1] + rb[3] / 2);
    v = await poll(
      async () => {
        const w = await view(s);
        return w.selected && w.selected.row === row && w.selected.column === 'device_compute' && w;
      },
      { message: 'the cell selected' },
    );
    const sel = await poll(
      async () => {
        const q = await s.call(() => window.strata.selection());
        return q.count === kernels.length && q;
      },
      { message: `the selection holds the step's ${kernels.length} compute kernels` },
    );
    const names = new Set(kernels.map((k) => k.name));
    assert.ok(
      sel.events.every((e) => names.has(e.name)),
      'every selected event is a kernel of the step',
    );
    // A click on the row's name selects the step slice again.
    await clickAt(s, rb[0] + 30, rb[1] + rb[3] / 2);
    await poll(
      async () => {
        const w = await view(s);
        const q = await s.call(() => window.strata.selection());
        return w.selected && w.selected.column === '' && q.count === 1 && q.events[0].name === bar.name;
      },
      { message: 'the step slice selected by its name' },
    );
    s.assertNoErrors();
  });
});

describe('queue length on the timeline', { skip }, () => {
  let env, s;
  before(async () => {
    env = await setupStrata();
    s = env.session;
    await s.open(dataUrl(RESNET));
  });
  after(async () => {
    if (env) await env.close();
  });

  test("each GPU stream with linked launches has a queue length counter track, its max the table's", async () => {
    const t = await s.call(() => window.strata.analysis('queue_length'));
    const keys = t.columns.map((c) => c.key);
    const streams = t.rows.filter((r) => r.parent >= 0 && typeof r.cells[keys.indexOf('max')] === 'number');
    assert.ok(streams.length > 0, 'a stream with linked launches');
    const { records } = parseTrace(readTraceText(dataPath(RESNET)));
    const kernels = records.filter((r) => r && r.ph === 'X' && /^kernel$/i.test(String(r.cat)));
    for (const row of streams) {
      const track = row.link.tracks[0];
      // Bring the stream into view through one of its kernels.
      let ev = null;
      for (const k of kernels) {
        const r = await s.call((q) => window.strata.eventsNamed(q.name, [q.track]), { name: String(k.name), track });
        if (r.count > 0) {
          ev = r.events[0].event;
          break;
        }
      }
      assert.ok(ev !== null, `a kernel on ${row.cells[0]}`);
      await s.call((e) => window.strata.select({ event: e }), ev);
      const h = await poll(
        async () => {
          await s.frame();
          const hs = await s.call(() => window.strata.trackHeaders());
          return hs.headers.find((x) => !x.process && x.index === track + 1);
        },
        { message: `the track after ${row.cells[0]} drawn` },
      );
      assert.equal(h.text, `Queue length (${row.cells[0]})`);
      assert.deepEqual(h.seriesMax, [row.cells[keys.indexOf('max')]], 'the track peaks at the table max');
    }
    const sum = await s.call(() => window.strata.summary());
    assert.equal(sum.counters, 0, "the derived samples are not the file's counters");
    s.assertNoErrors();
  });
});

describe('an Overview deep link with a step', { skip }, () => {
  let env;
  before(async () => {
    env = await setupStrata();
  });
  after(async () => {
    if (env) await env.close();
  });

  test('#tab=analysis&analysis=overview&step=N opens on that step, zoomed to it', async () => {
    const steps = [...stepsOf(RESNET).keys()];
    const name = steps[steps.length - 1];
    const n = name.split('#')[1];
    const s = env.session;
    await s.goto(
      `${env.server.url}?url=${encodeURIComponent(dataUrl(RESNET))}#tab=analysis&analysis=overview&step=${n}`,
    );
    const v = await poll(
      async () => {
        const w = await view(s);
        return w && w.stepChart && w.stepChart.chosen >= 0 && w.selected && w;
      },
      { timeout: 60_000, message: 'the linked step chosen' },
    );
    assert.equal(await s.call(() => window.strata.tab()), 'analysis');
    assert.equal(v.analysis, 'overview');
    const box = v.stepChart.boxes[v.stepChart.chosen];
    assert.equal(box.name, name);
    assert.equal(v.selected.linkName, name);
    await poll(
      async () => {
        const tv = await s.call(() => window.strata.view());
        return Math.abs(tv.startRelNs - box.start) <= 1000 && Math.abs(tv.endRelNs - box.start - box.duration) <= 1000;
      },
      { message: 'the timeline zoomed to the step' },
    );
    s.assertNoErrors();
  });
});
