// The Analysis tab on a real Kineto trace, as a user works it: the sub-tabs list the analyses,
// Kernel Stats shows one row per kernel with the counts and times the file's kernel records
// add up to (computed here from the JSON), a header click sorts (numbers largest first), the
// filter box narrows the rows, a row click selects exactly that kernel's launches in the
// timeline, Export CSV downloads the rows shown, a double click goes to the timeline, a deep
// link opens a sub-tab and a row, and the table is drawn in both themes. State through
// strata.analysisView() (what the tab drew, with its layout in CSS px), pixels from screenshots.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  boxCentre,
  clickMouse,
  dataPath,
  dataUrl,
  hasData,
  parseTrace,
  poll,
  readTraceText,
  screenshotCanvas,
  setupStrata,
  strataSuite,
  usToNs,
} from './lib.mjs';

const BERT = 'pytorch_kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz';
const skip = !hasData(BERT) && 'needs ../shared/data';

// Kernel launches by name, from the file's records: {count, totalNs}.
function kernelsOf(rel) {
  const { records } = parseTrace(readTraceText(dataPath(rel)));
  const by = new Map();
  for (const r of records) {
    if (!r || r.ph !== 'X' || r.cat !== 'kernel') continue;
    const k = by.get(r.name) || { count: 0, totalNs: 0, n: 0 };
    k.count += 1;
    k.totalNs += usToNs(r.dur);
    by.set(r.name, k);
  }
  return by;
}

const view = (s) => s.call(() => window.strata.analysisView());
const centre = boxCentre;

const clickAt = clickMouse;
// A double click as a hand makes it: two clicks 60 ms apart by the clock, dispatched in the page
// (round trips to the test would outlast the double-click time on a loaded machine), however
// many frames the UI draws meanwhile: the UI hands each press and release to a frame of its own
// and counts the clicks by the events' times.
async function doubleClickAt(s, x, y) {
  await s.call(
    async ([px, py]) => {
      const canvas = document.getElementById('canvas');
      const r = canvas.getBoundingClientRect();
      const opts = { clientX: r.left + px, clientY: r.top + py, button: 0, bubbles: true };
      const frames = (n) =>
        new Promise((done) => {
          const step = () => (n-- <= 0 ? done() : requestAnimationFrame(step));
          requestAnimationFrame(step);
        });
      canvas.dispatchEvent(new MouseEvent('mousemove', opts));
      await frames(2);
      for (let i = 0; i < 2; ++i) {
        if (i) await new Promise((done) => setTimeout(done, 60));
        canvas.dispatchEvent(new MouseEvent('mousedown', opts));
        canvas.dispatchEvent(new MouseEvent('mouseup', opts));
      }
      await frames(6);
    },
    [x, y],
  );
  await s.frame();
}

// Waits for the tab to show `name`'s table with rows.
async function tableOf(s, name) {
  return poll(
    async () => {
      const v = await view(s);
      return v && v.analysis === name && !v.loading && v.rowCount > 0 && v.layout.rows.length > 0 && v;
    },
    { timeout: 60_000, message: `the ${name} table` },
  );
}

// Luminance share of the other theme's greys in a box of the screenshot (as theme.test.mjs).
function otherThemeShare(shot, box, theme) {
  const sc = shot.image.width / shot.box.width;
  let wrong = 0,
    n = 0,
    bright = 0,
    dark = 0;
  for (let y = Math.round(box[1] * sc); y < Math.round((box[1] + box[3]) * sc); ++y)
    for (let x = Math.round(box[0] * sc); x < Math.round((box[0] + box[2]) * sc); ++x) {
      const j = (y * shot.image.width + x) * 4;
      const [r, g, b] = [shot.image.data[j], shot.image.data[j + 1], shot.image.data[j + 2]];
      const l = 0.299 * r + 0.587 * g + 0.114 * b;
      ++n;
      if (l > 150) ++bright;
      if (l < 100) ++dark;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 30) continue;
      if (theme === 'dark' ? l > 190 : l < 60) ++wrong;
    }
  return { wrong: wrong / n, bright: bright / n, dark: dark / n };
}

describe('the Analysis tab', { skip }, () => {
  let env, s, kernels;
  before(async () => {
    env = await setupStrata();
    s = env.session;
    kernels = kernelsOf(BERT);
    await s.open(dataUrl(BERT));
    assert.equal(await s.call(() => window.strata.setTab('analysis')), true);
    // The tab opens on the first available analysis; these tests start from Kernel Stats.
    const first = await poll(
      async () => {
        const v = await view(s);
        return v && v.analyses.length > 0 && v.layout.subTabs.length === v.analyses.length && v;
      },
      { timeout: 60_000, message: 'the sub-tabs' },
    );
    const t = centre(first.layout.subTabs[first.analyses.findIndex((a) => a.name === 'kernel_stats')]);
    await clickAt(s, t.x, t.y);
  });
  after(async () => {
    if (env) await env.close();
  });

  test('lists the analyses and shows Kernel Stats: one row per kernel, as the file adds up', async () => {
    const v = await tableOf(s, 'kernel_stats');
    const names = v.analyses.map((a) => a.name);
    assert.ok(names.includes('kernel_stats') && names.includes('framework_op_stats'), names.join());
    assert.ok(v.analyses.find((a) => a.name === 'kernel_stats').available);
    const tops = v.rows.filter((r) => r.depth === 0);
    assert.equal(tops.length, kernels.size, 'one top row per kernel name');
    const c = (key) => v.columns.indexOf(key);
    for (const r of tops) {
      const want = kernels.get(r.values[c('kernel')]);
      assert.ok(want, `a kernel of the file: ${r.values[c('kernel')]}`);
      assert.equal(r.values[c('count')], want.count, r.values[c('kernel')]);
      // The store holds whole ns per event: the sum may differ by under 1 ns per launch.
      assert.ok(Math.abs(r.values[c('total')] - want.totalNs) <= want.count, r.values[c('kernel')]);
      assert.equal(r.linkName, r.values[c('kernel')]);
    }
    // Largest total first, as the engine orders it.
    for (let i = 1; i < tops.length; ++i) assert.ok(tops[i - 1].values[c('total')] >= tops[i].values[c('total')]);
    // Launch parameters recorded by this trace show (registers of the top kernel).
    assert.ok(
      tops.some((r) => typeof r.values[c('registers')] === 'number'),
      'registers per thread shown',
    );
    assert.ok(tops.every((r) => ['yes', 'no'].includes(r.values[c('tensor_core')])));
    s.assertNoErrors();
  });

  test('a header click sorts, numbers largest first; again reverses', async () => {
    let v = await tableOf(s, 'kernel_stats');
    const col = v.columns.indexOf('count');
    const h = centre(v.layout.headers[col]);
    await clickAt(s, h.x, h.y);
    v = await poll(
      async () => {
        const w = await view(s);
        return w.sort.key === 'count' && w;
      },
      { message: 'sorted by count' },
    );
    assert.equal(v.sort.descending, true, 'first click on a number column: largest first');
    const tops = (w) => w.rows.filter((r) => r.depth === 0).map((r) => r.values[col]);
    let counts = tops(v);
    for (let i = 1; i < counts.length; ++i) assert.ok(counts[i - 1] >= counts[i], `descending at ${i}`);
    await clickAt(s, h.x, h.y);
    v = await poll(
      async () => {
        const w = await view(s);
        return w.sort.key === 'count' && !w.sort.descending && w;
      },
      { message: 'sorted ascending' },
    );
    counts = tops(v);
    for (let i = 1; i < counts.length; ++i) assert.ok(counts[i - 1] <= counts[i], `ascending at ${i}`);
    await clickAt(s, h.x, h.y); // a third click: the engine's order (largest total first) again
    v = await poll(
      async () => {
        const w = await view(s);
        return w.sort.column === -1 && w;
      },
      { message: 'unsorted' },
    );
    const total = v.columns.indexOf('total');
    const totals = v.rows.filter((r) => r.depth === 0).map((r) => r.values[total]);
    for (let i = 1; i < totals.length; ++i) assert.ok(totals[i - 1] >= totals[i], `engine order at ${i}`);
  });

  test('the filter box narrows the rows to the names holding its text', async () => {
    let v = await tableOf(s, 'kernel_stats');
    const needle = 'elementwise';
    const want = [...kernels.keys()].filter((k) => k.toLowerCase().includes(needle));
    assert.ok(want.length > 0 && want.length < kernels.size, 'the needle picks some kernels');
    const f = centre(v.layout.filter);
    await clickAt(s, f.x, f.y);
    await s.page.keyboard.type(needle);
    await s.frame();
    v = await poll(
      async () => {
        const w = await view(s);
        return w.filter === needle && w;
      },
      { message: 'the filter applied' },
    );
    const tops = v.rows.filter((r) => r.depth === 0);
    assert.equal(tops.length, want.length);
    for (const r of tops) assert.ok(r.values[0].toLowerCase().includes(needle), r.values[0]);
    for (let i = 0; i < needle.length; ++i) await s.page.keyboard.press('Backspace');
    await s.frame();
    v = await poll(
      async () => {
        const w = await view(s);
        return w.filter === '' && w;
      },
      { message: 'the filter cleared' },
    );
    assert.equal(v.rows.filter((r) => r.depth === 0).length, kernels.size);
  });

  test('a row click selects exactly its launches; CSV has the rows shown; Show in timeline goes there', async () => {
    let v = await tableOf(s, 'kernel_stats');
    const c = (key) => v.columns.indexOf(key);
    // The drawn row with the most launches.
    let k = 0;
    for (let i = 0; i < v.layout.rows.length; ++i) {
      const r = v.rows[v.layout.firstRow + i];
      if (r && r.values[c('count')] > v.rows[v.layout.firstRow + k].values[c('count')]) k = i;
    }
    const row = v.rows[v.layout.firstRow + k];
    const box = v.layout.rows[k];
    assert.ok(row.values[c('count')] > 1, 'a kernel launched more than once');
    await clickAt(s, box[0] + box[2] * 0.6, box[1] + box[3] / 2);
    v = await poll(
      async () => {
        const w = await view(s);
        return w.selected && w.selected.row === row.row && w;
      },
      { message: 'the row selected' },
    );
    const sel = await poll(
      async () => {
        const x = await s.call(() => window.strata.selection());
        return x && x.count === row.values[c('count')] && x;
      },
      { message: `the selection holds the row's ${row.values[c('count')]} launches` },
    );
    assert.ok(
      sel.events.every((e) => e.name === row.linkName),
      'every selected event is that kernel',
    );
    assert.equal(await s.call(() => window.strata.tab()), 'analysis', 'a single click stays');

    const b = centre(v.layout.csvButton);
    const [dl] = await Promise.all([s.page.waitForEvent('download', { timeout: 30_000 }), clickAt(s, b.x, b.y)]);
    assert.equal(dl.suggestedFilename(), 'kernel_stats.csv');
    const csv = fs.readFileSync(await dl.path(), 'utf8');
    v = await view(s);
    assert.equal(csv, v.csv, 'the file is what the tab exported');
    const lines = csv.trimEnd().split('\n');
    assert.equal(lines.length, v.rowCount + 1, 'a header and one line per row shown');
    assert.ok(lines[0].startsWith('Kernel,Framework op,Count,Total [ns]'), lines[0]);
    for (let i = 0; i < Math.min(v.rows.length, 20); ++i) {
      const count = v.rows[i].values[c('count')];
      assert.ok(lines[i + 1].includes(`,${count},`), `line ${i + 1} has the row's count`);
    }

    // "Show in timeline" goes there with the selection.
    const t = centre(v.layout.timelineButton);
    await clickAt(s, t.x, t.y);
    await poll(async () => (await s.call(() => window.strata.tab())) === 'timeline', { message: 'the timeline shown' });
    assert.equal((await s.call(() => window.strata.selection())).count, row.values[c('count')]);
    assert.equal(await s.call(() => window.strata.setTab('analysis')), true);
    s.assertNoErrors();
  });

  test('a double click on a row goes to the timeline, its longest launch in view', async () => {
    const v = await tableOf(s, 'kernel_stats');
    const c = (key) => v.columns.indexOf(key);
    const row = v.rows.find((r) => r.row === v.selected.row);
    const box = v.layout.rows[v.rows.indexOf(row) - v.layout.firstRow];
    // Away from it first (the button above already brought this row's launch into view).
    await s.call(() => window.strata.setViewRel(0, 1e12));
    await doubleClickAt(s, box[0] + box[2] * 0.6, box[1] + box[3] / 2);
    await poll(async () => (await s.call(() => window.strata.tab())) === 'timeline', {
      message: 'the timeline shown after a double click',
    });
    const sel = await s.call(() => window.strata.selection());
    assert.equal(sel.count, row.values[c('count')]);
    // The view is on the longest of the selected launches (and a little around it).
    const longest = sel.events.reduce((a, e) => (Number(e.durNs) > Number(a.durNs) ? e : a));
    const start = Number(longest.tsNs),
      end = start + Number(longest.durNs);
    await poll(
      async () => {
        const w = await s.view();
        // On it, and zoomed to it rather than to the whole trace.
        return w.startNs <= start + 1 && w.endNs >= end - 1 && w.endNs - w.startNs < (end - start) * 3 + 2000;
      },
      { message: `the view on the longest launch ${JSON.stringify(longest)}` },
    );
    assert.equal(await s.call(() => window.strata.setTab('analysis')), true);
    s.assertNoErrors();
  });

  test('Framework Op Stats: host and device time per op', async () => {
    let v = await tableOf(s, 'kernel_stats');
    const i = v.analyses.findIndex((a) => a.name === 'framework_op_stats');
    const t = centre(v.layout.subTabs[i]);
    await clickAt(s, t.x, t.y);
    v = await tableOf(s, 'framework_op_stats');
    const c = (key) => v.columns.indexOf(key);
    assert.ok(
      v.rows.some((r) => r.values[c('device_total')] > 0),
      'some op launched device work',
    );
    for (const r of v.rows) assert.ok(r.values[c('host_self')] <= r.values[c('host_total')]);
    s.assertNoErrors();
  });

  test('the table is drawn in both themes', async () => {
    for (const theme of ['dark', 'light']) {
      await s.call((x) => window.strata.setTheme(x), theme);
      const v = await tableOf(s, 'framework_op_stats');
      await s.frame();
      await s.frame();
      const shot = await screenshotCanvas(s.page);
      const p = otherThemeShare(shot, v.layout.table, theme);
      assert.ok(p.wrong < 0.1, `${theme}: ${(p.wrong * 100).toFixed(1)} % in the other theme's greys`);
      // Text is drawn: the table is not one flat colour.
      if (theme === 'dark') assert.ok(p.bright > 0.005 && p.dark > 0.5, JSON.stringify(p));
      else assert.ok(p.dark > 0.005 && p.bright > 0.5, JSON.stringify(p));
    }
    await s.call(() => window.strata.setTheme('dark'));
  });
});

describe('an Analysis deep link', { skip }, () => {
  let env;
  strataSuite((e) => (env = e));

  test('#tab=analysis&analysis=kernel_stats&op=<kernel> opens that row', async () => {
    const kernels = kernelsOf(BERT);
    const top = [...kernels.entries()].sort((a, b) => b[1].totalNs - a[1].totalNs)[1][0];
    const s = env.session;
    const hash = new URLSearchParams({ tab: 'analysis', analysis: 'kernel_stats', op: top }).toString();
    await s.goto(`${env.server.url}?url=${encodeURIComponent(dataUrl(BERT))}#${hash}`);
    const v = await poll(
      async () => {
        const w = await view(s);
        return w && w.selected && w;
      },
      { timeout: 60_000, message: 'the deep-linked row selected' },
    );
    assert.equal(await s.call(() => window.strata.tab()), 'analysis');
    assert.equal(v.analysis, 'kernel_stats');
    assert.equal(v.selected.linkName, top);
    await poll(async () => (await s.call(() => window.strata.selection())).count === kernels.get(top).count, {
      message: "the link's row's launches selected",
    });
    s.assertNoErrors();
  });
});
