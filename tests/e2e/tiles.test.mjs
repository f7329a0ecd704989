// The timeline's tile cache (src/ui/timeline/tiles.h), driven with real key presses on the demo
// trace: going back to a view already seen sends no request (strata.tileStats()), and while
// tiles are on their way the view is drawn from coarser tiles or the overview, never blank.
// View requests are held back in the page (a gate on Worker.postMessage) to make "on their
// way" last as long as the test needs.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { analyseImage, screenshotCanvas, setupStrata, tilesSettled } from './lib.mjs';

describe('tile cache', () => {
  let env, s, page;
  before(async () => {
    env = await setupStrata();
    s = env.session;
    page = env.page;
    // The gate: while window.__holdViews, view requests to the worker wait in a queue.
    await s.call(() => {
      const post = Worker.prototype.postMessage;
      window.__heldViews = [];
      window.__holdViews = false;
      Worker.prototype.postMessage = function (msg, transfer) {
        if (window.__holdViews && msg && msg.type === 'view') {
          window.__heldViews.push([this, msg, transfer]);
          return;
        }
        return post.call(this, msg, transfer);
      };
      window.__releaseViews = () => {
        window.__holdViews = false;
        for (const [w, m, t] of window.__heldViews.splice(0)) post.call(w, m, t);
      };
    });
  });
  after(async () => {
    if (env) await env.close();
  });

  const stats = () => s.call(() => window.strata.tileStats());
  const settle = () => tilesSettled(s);
  async function press(code, times = 1) {
    for (let i = 0; i < times; ++i) {
      await page.keyboard.press(code);
      await s.frame();
    }
  }
  /** Colour statistics of the events area (right of the names, between toolbar and details). */
  async function eventsArea() {
    const { image } = await screenshotCanvas(page);
    const region = {
      x: Math.round(image.width * 0.3),
      y: Math.round(image.height * 0.15),
      width: Math.round(image.width * 0.65),
      height: Math.round(image.height * 0.4),
    };
    return analyseImage(image, { region });
  }
  /**
   * Key steps are exact (0.8 × 1.25, +10% − 10%) but a press that spans a slow frame (> 150 ms,
   * SwiftShader on a busy machine) also counts as held: set the exact view the keys came back to.
   */
  async function backTo(v, base) {
    const now = await s.view();
    const w = v.endNs - v.startNs;
    if (Math.abs(now.startNs - v.startNs) > w * 1e-9 || Math.abs(now.endNs - v.endNs) > w * 1e-9) {
      // The keys overshot: what they visited on the way may be new; from here on, only the
      // step back to the view already seen must need nothing.
      base = await settle();
      await s.setView(v.startNs, v.endNs);
      await s.frame();
    }
    return base;
  }
  async function viewFraction(f0, f1) {
    const sum = await s.summary();
    const w = sum.endNs - sum.startNs;
    await s.setView(sum.startNs + w * f0, sum.startNs + w * f1);
    await s.frame();
  }

  test('going back to a view already seen (pan, zoom across levels) requests nothing', async () => {
    await viewFraction(0.3, 0.45);
    await s.focusCanvas(0.6, 0.4);
    const s0 = await settle();
    assert.ok(s0.tiles > 0 && s0.requests > 0, `tiles after the first view: ${JSON.stringify(s0)}`);
    // Zoom in one W at a time (0.8 each, 5 steps cross at least one level), settling at each.
    const views = [await s.view()];
    let st = s0;
    for (let i = 0; i < 5; ++i) {
      await press('KeyW');
      st = await settle();
      views.push(await s.view());
    }
    assert.ok(st.level < s0.level, `zooming in changes the tile level: ${s0.level} → ${st.level}`);
    assert.ok(st.requests > s0.requests, 'the finer level needed new tiles');

    // Pan away (30%: the margin tiles come into view) and back.
    await press('KeyD', 3);
    const away = await settle();
    const base = await backTo(views[5], away);
    const back = await settle();
    assert.equal(back.requests, base.requests, `panning back requested tiles: ${JSON.stringify({ base, back })}`);
    assert.equal(back.misses, base.misses, 'panning back missed the cache');

    // Zoom back out step by step through the views seen on the way in.
    st = back;
    for (let i = 4; i >= 0; --i) {
      await press('KeyS');
      const b = await backTo(views[i], st);
      st = await settle();
      assert.equal(
        st.requests,
        b.requests,
        `zooming back out to view ${i} requested tiles: ${JSON.stringify({ b, st })}`,
      );
      assert.equal(st.misses, b.misses, `zooming back out to view ${i} missed the cache`);
    }
    assert.equal(st.level, s0.level);
    assert.ok(st.hits > s0.hits, `returning counted cache hits: ${JSON.stringify({ s0, st })}`);
    assert.ok(st.bytes > 0 && st.bytes <= st.budget, `cache within its budget: ${JSON.stringify(st)}`);
    s.assertNoErrors();
  });

  test('while tiles are pending the view is drawn from coarser data, never blank', async () => {
    await viewFraction(0.1, 0.3);
    await s.focusCanvas(0.5, 0.4);
    await settle();
    const settled = await eventsArea();
    assert.ok(settled.colourful > 2000, `the settled view shows events: ${JSON.stringify(settled)}`);

    // Zooming out far lands on the whole-trace tiles cached at start-up (no request), so the
    // zoom-out case starts from a fine view of a place not seen before.
    const cases = [
      ['zoom in (W×6): the coarser level fills in', null, () => press('KeyW', 6)],
      [
        'zoom out (S×4) at a new place: finer halves and the overview fill in',
        async () => {
          await viewFraction(0.6, 0.6005);
          await settle();
        },
        () => press('KeyS', 4),
      ],
      ['jump to an unseen place: the overview fills in', null, () => viewFraction(0.82, 0.84)],
    ];
    for (const [what, prepare, act] of cases) {
      if (prepare) await prepare();
      await s.call(() => {
        window.__holdViews = true;
      });
      try {
        const before = await stats();
        await act();
        await s.frame();
        const during = await stats();
        assert.ok(during.pending > 0, `${what}: tiles are pending (${JSON.stringify({ before, during })})`);
        const held = await s.call(() => window.__heldViews.length);
        assert.ok(held > 0, `${what}: requests are held back`);
        const img = await eventsArea();
        assert.ok(
          img.colourful > settled.colourful * 0.2 && img.nonBackgroundFraction > 0.05,
          `${what}: the view is blank while tiles are pending: ${JSON.stringify({ img, settled })}`,
        );
      } finally {
        await s.call(() => window.__releaseViews());
      }
      const after = await settle();
      assert.equal(after.pending, 0);
      const img = await eventsArea();
      assert.ok(img.colourful > 1000, `${what}: drawn once the tiles came: ${JSON.stringify(img)}`);
    }
    s.assertNoErrors();
  });

  test('a new trace starts a new cache', async () => {
    const before = await stats();
    assert.ok(before.tiles > 0);
    await s.open('demo/demo-trace.json');
    const after = await settle();
    assert.ok(after.requests < before.requests, `stats restart with the trace: ${JSON.stringify({ before, after })}`);
    assert.ok(after.tiles > 0 && after.tiles <= after.requests);
    s.assertNoErrors();
  });
});
