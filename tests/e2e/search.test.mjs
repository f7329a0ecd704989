// Whole-trace search when the engine's answer is slow: Enter pressed before the reply lands must
// walk to the first result once it arrives. The page's engine worker is wrapped (before the app
// starts) so the test can hold the search's reply back and let it go when it chooses.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { DIST_DIR, analyseImage, countTrace, newStrataPage, poll, screenshotCanvas, serverAndBrowser } from './lib.mjs';

const DEMO_FILE = path.join(DIST_DIR, 'demo', 'demo-trace.json');

// Runs in the page before its scripts: every Worker's message handlers see the search's reply
// (the message whose json carries "matches") only once window.__releaseHeld() is called.
function holdSearchReplies() {
  const NativeWorker = window.Worker;
  const held = [];
  window.__holdSearch = false;
  window.__heldCount = () => held.length;
  window.__releaseHeld = () => {
    window.__holdSearch = false;
    for (const [fn, self, e] of held.splice(0)) fn.call(self, e);
  };
  const isSearchReply = (e) => e && e.data && typeof e.data.json === 'string' && e.data.json.includes('"matches"');
  const gate = (fn) =>
    function (e) {
      if (window.__holdSearch && isSearchReply(e)) held.push([fn, this, e]);
      else fn.call(this, e);
    };
  const onmessage = Object.getOwnPropertyDescriptor(NativeWorker.prototype, 'onmessage');
  class HeldWorker extends NativeWorker {
    addEventListener(type, fn, opts) {
      super.addEventListener(type, type === 'message' && typeof fn === 'function' ? gate(fn) : fn, opts);
    }
  }
  Object.defineProperty(HeldWorker.prototype, 'onmessage', {
    get() {
      return onmessage.get.call(this);
    },
    set(fn) {
      onmessage.set.call(this, typeof fn === 'function' ? gate(fn) : fn);
    },
  });
  window.Worker = HeldWorker;
}

describe('search with a slow reply', () => {
  const env = serverAndBrowser();
  let s, page, records;
  before(async () => {
    s = await newStrataPage(env.browser);
    page = s.page;
    await page.addInitScript(holdSearchReplies);
    await s.goto(env.server.origin + '/');
    records = countTrace(DEMO_FILE).records;
  });
  after(async () => {
    if (s) await s.close();
  });

  const state = () => s.call(() => window.strata.state());
  const selection = () => s.call(() => window.strata.selection());
  async function key(code) {
    await page.keyboard.press(code);
    await s.frame();
  }

  test('Enter pressed while the search is pending selects the first result when the reply arrives', async () => {
    // A name of the demo that occurs several times, so "first" is not also "only".
    const n = new Map();
    for (const r of records) if (r.ph === 'X') n.set(r.name, (n.get(r.name) || 0) + 1);
    const name = [...n.entries()].filter(([, c]) => c >= 3).sort((a, b) => b[1] - a[1])[0][0];
    const found = await s.find(name);
    assert.ok(found.count > 1, `the demo has several "${name}"`);

    await s.focusCanvas(0.6, 0.95);
    await key('Escape');
    await key('Digit0');
    await s.call(() => {
      window.__holdSearch = true;
    });
    await key('Slash');
    await poll(async () => (await state()).typing, { message: 'the search box to take the keyboard' });
    await page.keyboard.type(name);
    // The query has gone out and its reply is held.
    await poll(async () => (await s.call(() => window.__heldCount())) > 0 && (await state()).searchPending, {
      message: 'the search reply to be held back',
    });
    await key('Enter');
    await s.frame();
    assert.equal((await selection()).count, 0, 'nothing is selected before the reply');
    assert.equal((await state()).searchPending, true, 'the search is still pending');

    await s.call(() => window.__releaseHeld());
    const sel = await poll(
      async () => {
        const x = await selection();
        return x.count === 1 && x;
      },
      { message: 'the first result selected once the reply arrived' },
    );
    assert.equal(sel.events[0].tsNs, found.matches[0].tsNs, 'the earliest match is selected');
    const st = await state();
    assert.equal(st.searchPending, false);
    assert.equal(st.searchCount, found.count);

    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await key('Escape');
    s.assertNoErrors();
  });
});

// What a search looks like: in the light theme the non-matching slices fade toward the light
// canvas (not to black); every match has a tick in the ruler, so a match too small to see at
// full zoom can be found; the result list names each match's track and sits right of the
// track names.
describe('search marks and the result list', () => {
  const env = serverAndBrowser();
  let s, page, records;
  before(async () => {
    s = await newStrataPage(env.browser);
    page = s.page;
    await s.goto(env.server.origin + '/?theme=light');
    records = countTrace(DEMO_FILE).records;
  });
  after(async () => {
    if (s) await s.close();
  });

  const panels = () => s.call(() => window.strata.panels());
  const state = () => s.call(() => window.strata.state());
  async function search(text) {
    await s.focusCanvas(0.6, 0.5);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Slash');
    await poll(async () => (await state()).typing, { message: 'the search box to take the keyboard' });
    await page.keyboard.press('Control+A');
    await page.keyboard.type(text);
    const found = await s.find(text);
    await poll(
      async () => {
        const st = await state();
        return st.searchActive && !st.searchPending && st.searchCount === found.count;
      },
      { message: `search results for ${text}` },
    );
    await s.call(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    return found;
  }
  async function clearSearch() {
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await poll(async () => !(await state()).searchActive, { message: 'the search to end' });
    await s.frame();
    await page.keyboard.press('Escape');
    await s.frame();
  }
  // Luminance statistics of the events area (right of the track names, under the ruler, above
  // the details pane).
  async function eventsArea() {
    const p = await panels();
    const { image } = await screenshotCanvas(page);
    const region = {
      x: Math.ceil(p.timeline.x0) + 2,
      y: Math.ceil(p.search.ruler.y + p.search.ruler.h) + 2,
      width: Math.floor(image.width - p.timeline.x0) - 4,
      height: Math.floor(p.details.y - p.search.ruler.y - p.search.ruler.h) - 4,
    };
    let dark = 0,
      lum = 0;
    for (let y = region.y; y < region.y + region.height; y++)
      for (let x = region.x; x < region.x + region.width; x++) {
        const j = (y * image.width + x) * 4;
        const l = 0.299 * image.data[j] + 0.587 * image.data[j + 1] + 0.114 * image.data[j + 2];
        lum += l;
        if (l < 70) dark++;
      }
    const n = region.width * region.height;
    return { dark: dark / n, lum: lum / n, colourful: analyseImage(image, { region }).colourful };
  }
  // A name of the demo with a few matches (all listed, so every one is ticked exactly).
  function rareName() {
    const n = new Map();
    for (const r of records) if (r.ph === 'X') n.set(r.name, (n.get(r.name) || 0) + 1);
    return [...n.entries()].filter(([, c]) => c >= 2 && c <= 40).sort((a, b) => a[1] - b[1])[0][0];
  }

  test('light theme: non-matches fade toward the canvas, not to black', async () => {
    await s.focusCanvas(0.6, 0.5);
    await page.keyboard.press('Digit0');
    await s.frame();
    const plain = await eventsArea();
    await search(rareName());
    const dimmed = await eventsArea();
    assert.ok(
      dimmed.lum > plain.lum,
      `the dimmed view is lighter (${plain.lum.toFixed(1)} -> ${dimmed.lum.toFixed(1)})`,
    );
    assert.ok(
      dimmed.dark <= plain.dark + 0.01,
      `no dark slabs: dark share ${plain.dark.toFixed(3)} -> ${dimmed.dark.toFixed(3)}`,
    );
    assert.ok(dimmed.colourful < plain.colourful, 'non-matches lose their colour');
    await clearSearch();
  });

  test('every match is ticked in the ruler at full zoom', async () => {
    await s.focusCanvas(0.6, 0.5);
    await page.keyboard.press('Digit0');
    await s.frame();
    const name = rareName();
    const stripOf = async () => {
      const p = await panels();
      const { image } = await screenshotCanvas(page);
      const y = Math.round(p.search.ruler.y + 1);
      const colourful = (x) => {
        const j = (y * image.width + Math.round(x)) * 4;
        const d = image.data;
        return Math.max(d[j], d[j + 1], d[j + 2]) - Math.min(d[j], d[j + 1], d[j + 2]) > 48;
      };
      return { p, colourful };
    };
    const before_ = await stripOf();
    const found = await search(name);
    assert.ok(found.count >= 2 && found.count === found.matches.length, JSON.stringify(found.count));
    const v = await s.view();
    const { p, colourful } = await stripOf();
    const r = p.search.ruler;
    assert.ok(p.search.marks.length >= 1, 'marks drawn');
    for (const m of found.matches) {
      const x = r.x + ((m.tsNs - v.startNs) / (v.endNs - v.startNs)) * r.w;
      const mark = p.search.marks.find(([a, b]) => a - 1.5 <= x && x <= b + 1.5);
      assert.ok(mark, `a mark at x=${x.toFixed(1)} for the match at ${m.tsNs}: ${JSON.stringify(p.search.marks)}`);
      const cx = Math.min(Math.max((mark[0] + mark[1]) / 2, r.x), r.x + r.w - 1);
      assert.ok(colourful(cx), `the mark at x=${cx.toFixed(1)} is drawn`);
      assert.ok(!before_.colourful(cx), `nothing was there before the search (x=${cx.toFixed(1)})`);
    }
    await clearSearch();
    assert.equal((await panels()).search.marks.length, 0, 'no marks once the search ends');
  });

  test('the result list has a Track column and leaves the track names visible', async () => {
    const found = await search(rareName());
    const p0 = await panels();
    const b = p0.search.listButton;
    assert.ok(b.w > 0, 'the list button is shown');
    const box = await page.locator('#canvas').boundingBox();
    await page.mouse.click(box.x + b.x + b.w / 2, box.y + b.y + b.h / 2);
    const p = await poll(
      async () => {
        const x = await panels();
        return x.search.results.open && x;
      },
      { message: 'the result list open' },
    );
    const res = p.search.results;
    assert.ok(res.x >= p.timeline.x0, `the list (x=${res.x}) is right of the track names (up to ${p.timeline.x0})`);
    assert.ok(res.y >= p.search.ruler.y + p.search.ruler.h, 'and below the ruler');
    assert.equal(p.search.rows.length, Math.min(found.count, 20));
    for (let i = 0; i < p.search.rows.length; i++) {
      const row = p.search.rows[i];
      assert.equal(row.name, found.matches[i].name);
      assert.ok(row.track.length > 0, `row ${i} names its track`);
      assert.ok(row.track.includes(String(found.matches[i].tid)) || /\//.test(row.track), row.track);
    }
    await page.mouse.click(box.x + b.x + b.w / 2, box.y + b.y + b.h / 2);
    await s.frame();
    s.assertNoErrors();
  });
});
