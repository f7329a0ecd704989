// The timeline's name column, folded runs and hover tooltips, as the user sees them: process
// headers with their name, labels (Kineto's process_labels) and pid; a column that is dragged
// wider and cuts long names with "..." (full text in a tooltip); folded runs in neutral grey
// labelled "N events" (never a cut number); tooltips on slices (name, duration, self time,
// category, args) and on counters (byte sizes for counters whose name carries a unit).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  DIST_DIR,
  dataUrl,
  parseTrace,
  poll,
  readTraceText,
  screenshotCanvas,
  strataSuite,
  tilesSettled,
  skipUnlessData,
  usToNs,
} from './lib.mjs';

const DEMO_FILE = path.join(DIST_DIR, 'demo', 'demo-trace.json');
const KINETO = 'pytorch_kineto/hta/critical_path/benchmark_result_2869224_1695835535_trace.json.gz';

describe('timeline headers, folded runs and tooltips', () => {
  let s, page;
  const ev = (fn, arg) => page.evaluate(fn, arg);
  strataSuite(async (e) => {
    ({ session: s, page } = e);
    await s.frame();
  });

  const headers = () => ev(() => window.strata.trackHeaders());
  const settle = () => tilesSettled(s);
  const tooltip = () => ev(() => window.strata.tooltip());
  async function canvasBox() {
    return page.locator('#canvas').boundingBox();
  }

  test('process headers show name, pid and labels (demo trace)', async () => {
    const h = await headers();
    const texts = h.processes.map((p) => p.text);
    const trainer = h.processes.find((p) => p.name.startsWith('trainer'));
    assert.ok(trainer, `no trainer process in ${JSON.stringify(texts)}`);
    assert.match(trainer.text, /^trainer \(python train\.py\) \(pid \d+\): rank 0, host demo-01$/);
    const gpu = h.processes.find((p) => p.labels === 'GPU');
    assert.ok(gpu && gpu.text.includes(`(pid ${gpu.pid})`), JSON.stringify(gpu));
    // What is drawn is that text (or its start, cut with "...").
    const drawn = h.headers.filter((x) => x.process);
    assert.ok(drawn.length >= 2, JSON.stringify(h.headers));
    for (const d of drawn)
      assert.ok(
        d.shown === d.text || (d.shown.endsWith('...') && d.text.startsWith(d.shown.slice(0, -3))),
        JSON.stringify(d),
      );
  });

  test(
    'Kineto process_labels tell CPU and GPU processes of one name apart',
    { skip: skipUnlessData(KINETO) },
    async () => {
      await s.open(dataUrl(KINETO));
      await s.frame();
      const h = await headers();
      const texts = h.processes.map((p) => p.text);
      assert.ok(texts.includes('python3.10 (pid 2869224): CPU'), JSON.stringify(texts));
      assert.ok(texts.includes('python3.10 (pid 0): GPU 0'), JSON.stringify(texts));
      assert.equal(new Set(texts).size, texts.length, `two headers read the same: ${JSON.stringify(texts)}`);
      await s.open('demo/demo-trace.json');
      await s.frame();
    },
  );

  test('the name column is resized by dragging its edge; long names get "..." and a tooltip', async () => {
    await ev(() => window.strata.setLabelWidth(0));
    await s.frame();
    const box = await canvasBox();
    let h = await headers();
    const w0 = h.labelWidth;
    const edgeX = box.x + h.columnX + w0 - 2;
    const y = box.y + box.height * 0.5;
    await page.mouse.move(edgeX, y);
    await s.frame();
    await page.mouse.down();
    await s.frame();
    for (let i = 1; i <= 4; i++) {
      await page.mouse.move(edgeX + 30 * i, y);
      await s.frame();
    }
    await page.mouse.up();
    await s.frame();
    h = await headers();
    assert.ok(Math.abs(h.labelWidth - (w0 + 120)) <= 8, `dragging the edge 120 px: width ${w0} → ${h.labelWidth}`);

    // Narrow: the trainer's header is cut with "..." and its tooltip has the whole text.
    await ev(() => window.strata.setLabelWidth(90));
    await s.frame();
    h = await headers();
    const cut = h.headers.find((x) => x.process && x.text.startsWith('trainer'));
    assert.ok(
      cut && cut.elided && cut.shown.endsWith('...') && cut.shown.length < cut.text.length,
      JSON.stringify(cut),
    );
    await page.mouse.move(box.x + h.columnX + 40, box.y + cut.y + 4);
    await s.frame();
    const tip = await poll(
      async () => {
        const t = await tooltip();
        return t && t.kind === 'process' ? t : null;
      },
      { message: 'the header tooltip' },
    );
    assert.equal(tip.lines[0], cut.text);
    assert.ok(
      tip.lines.some((l) => l === 'Labels: rank 0, host demo-01'),
      JSON.stringify(tip),
    );
    await ev(() => window.strata.setLabelWidth(0));
    await s.frame();
  });

  test('folded runs are neutral grey, labelled "N events" or not at all', async () => {
    await ev(() => window.strata.setView(0, 1e300)); // clamped to the whole trace
    await page.mouse.move(1, 1);
    await settle();
    const runs = await poll(
      async () => {
        const r = await ev(() => window.strata.foldedRuns());
        return r.length ? r : null;
      },
      { message: 'folded runs on screen' },
    );
    for (const r of runs)
      assert.ok(r.label === '' || /^\d+ events?$/.test(r.label), `folded run label ${JSON.stringify(r.label)}`);
    // Zooming in on the run of most events (five times its span at a time), runs grow wide
    // enough to say "N events", whole.
    let near = runs;
    for (let i = 0; i < 4 && !near.some((r) => r.label); i++) {
      const most = near.reduce((a, b) => (b.count > a.count ? b : a));
      const span = most.endRelNs - most.startRelNs;
      await ev(([a, b]) => window.strata.setViewRel(a, b), [most.startRelNs - 2 * span, most.endRelNs + 2 * span]);
      await settle();
      const next = await ev(() => window.strata.foldedRuns());
      for (const r of next)
        assert.ok(r.label === '' || /^\d+ events?$/.test(r.label), `folded run label ${JSON.stringify(r.label)}`);
      if (!next.length) break;
      near = next;
    }
    assert.ok(
      near.some((r) => r.label === `${r.count} events`),
      `no run says "N events": ${JSON.stringify(near.slice(0, 5))}`,
    );
    // Pixels: the widest run's fill (and its hatching) has no hue; a slice's colour would.
    const wide = near.reduce((a, b) => (b.x1 - b.x0 > a.x1 - a.x0 ? b : a));
    assert.ok(wide.x1 - wide.x0 >= 8, JSON.stringify(wide));
    const { image } = await screenshotCanvas(page);
    let coloured = 0,
      n = 0;
    const scale = image.width / (await canvasBox()).width;
    for (let x = Math.ceil(wide.x0 + 2); x < wide.x1 - 2; x++) {
      for (const dy of [-6, 6]) {
        const px = Math.round(x * scale),
          py = Math.round((wide.y + dy) * scale);
        const i = (py * image.width + px) * 4;
        const [r, g, b] = [image.data[i], image.data[i + 1], image.data[i + 2]];
        n++;
        if (Math.max(r, g, b) - Math.min(r, g, b) > 24) coloured++;
      }
    }
    assert.ok(
      n > 0 && coloured / n < 0.1,
      `folded run at ${JSON.stringify(wide)}: ${coloured} of ${n} pixels have a hue`,
    );
  });

  test('hovering a slice shows its name, duration, self time, category and args', async () => {
    const { records } = parseTrace(readTraceText(DEMO_FILE));
    const pick = records
      .filter((r) => r.ph === 'X' && r.cat && r.args && Object.keys(r.args).length && usToNs(r.dur) > 0)
      .sort((a, b) => usToNs(b.dur) - usToNs(a.dur))[0];
    assert.ok(pick, 'the demo has an X event with a category and args');
    const tsNs = usToNs(pick.ts),
      durNs = usToNs(pick.dur);
    await s.setView(tsNs - durNs * 0.5, tsNs + durNs * 1.5);
    await s.frame();
    const pt = await s.locate({ name: pick.name, tsNs, pid: pick.pid, tid: pick.tid });
    assert.ok(pt, `locate(${pick.name})`);
    await page.mouse.move(pt.x, pt.y);
    await s.frame();
    const tip = await poll(
      async () => {
        await page.mouse.move(pt.x + 1, pt.y);
        const t = await tooltip();
        return t && t.kind === 'slice' && t.lines.some((l) => l.startsWith('Category:')) ? t : null;
      },
      { timeout: 15_000, message: `the tooltip of ${pick.name}` },
    );
    assert.equal(tip.lines[0], pick.name);
    assert.ok(
      tip.lines.some((l) => /^Duration: /.test(l)),
      JSON.stringify(tip),
    );
    assert.ok(
      tip.lines.some((l) => /^Self time: /.test(l)),
      JSON.stringify(tip),
    );
    assert.ok(tip.lines.includes(`Category: ${pick.cat}`), JSON.stringify(tip));
    const firstArg = Object.keys(pick.args)[0];
    assert.ok(
      tip.lines.some((l) => l.startsWith(`${firstArg}: `)),
      `no ${firstArg} in ${JSON.stringify(tip)}`,
    );
    // The tooltip is on screen: pixels near the cursor change when it shows.
    await page.mouse.move(1, 1);
    await s.frame();
    assert.equal(await tooltip(), null, 'no tooltip once the cursor left');
  });

  test('hovering a memory counter shows its values as byte sizes', async () => {
    await ev(() => window.strata.setView(0, 1e300));
    await settle();
    const h = await headers();
    const box = await canvasBox();
    const counter = h.headers.find((x) => !x.process && /memory/i.test(x.text));
    assert.ok(counter, `no memory counter track in ${JSON.stringify(h.headers.map((x) => x.text))}`);
    const x = box.x + h.columnX + h.labelWidth + 300,
      y = box.y + counter.y + 20;
    const tip = await poll(
      async () => {
        await page.mouse.move(x, y);
        await s.frame();
        const t = await tooltip();
        return t && t.kind === 'counter' && t.lines.length > 1 ? t : null;
      },
      { timeout: 15_000, message: 'the counter tooltip' },
    );
    // "RSS (MB): 2.00 GiB": the written MB scaled to bytes and labelled as a size.
    const sized = tip.lines.slice(1).filter((l) => /\(MB\): \d+(\.\d+)? (GiB|MiB|KiB)( |$)/.test(l));
    assert.equal(sized.length, tip.lines.length - 1, `every series in MB reads as a byte size: ${JSON.stringify(tip)}`);
    await page.mouse.move(1, 1);
    await s.frame();
  });
});
