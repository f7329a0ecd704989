// Help for a new user: `?` shows the shortcuts of the tab shown (the timeline's include the track
// menu, section collapse, folded runs and flow events), the first visit says that files and
// folders drop anywhere, and empty tabs say what to open.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newStrataPage, poll, screenshotCanvas, serverAndBrowser } from './lib.mjs';

const HLO = `HloModule help_module

ENTRY main {
  p = f32[4] parameter(0)
  ROOT n = f32[4] negate(p)
}
`;
const state = (s) => s.call(() => window.strata.state());
/** Pixels that differ between two images of the same size, in a centred box of half the size. */
function centreDiff(a, b) {
  let n = 0;
  for (let y = a.height / 4; y < (3 * a.height) / 4; y++)
    for (let x = a.width / 4; x < (3 * a.width) / 4; x++) {
      const j = (y * a.width + x) * 4;
      if (a.data[j] !== b.data[j] || a.data[j + 1] !== b.data[j + 1] || a.data[j + 2] !== b.data[j + 2]) n++;
    }
  return n;
}
const shot = async (s) => {
  await s.frame();
  return (await screenshotCanvas(s.page)).image;
};

describe('help', () => {
  const env = serverAndBrowser();

  test('? shows the shortcuts of the tab shown, and Esc closes them', async () => {
    const s = await newStrataPage(env.browser);
    try {
      await s.goto(env.server.url);
      await s.openBytes(Buffer.from(HLO), 'help.hlo'); // the Graph tab has something to show
      await s.call(() => window.strata.setTab('timeline'));
      await s.focusCanvas(0.5, 0.9);
      const closed = await shot(s);
      await s.page.keyboard.press('?');
      let st = await poll(async () => ((await state(s)).help ? state(s) : null), { message: 'help open' });
      assert.equal(st.helpTitle, 'Timeline shortcuts');
      for (const key of ['right-click a track name', 'click a process header', 'click "N events"', 'Flow events box'])
        assert.ok(st.helpKeys.includes(key), `the timeline's help lists ${key}: ${JSON.stringify(st.helpKeys)}`);
      const open = await shot(s);
      assert.ok(centreDiff(closed, open) > 2000, 'the overlay is drawn over the timeline');

      for (const [tab, title, key] of [
        ['graph', 'Graph shortcuts', 'double-click a fusion or call'],
        ['loss', 'Loss shortcuts', 'Tags'],
        ['runs', 'Runs shortcuts', 'Open folder... or drop'],
        ['memory', 'Memory shortcuts', 'click the chart'],
      ]) {
        await s.call((t) => window.strata.setTab(t), tab);
        st = await state(s);
        assert.ok(st.help, `help stays open on ${tab}`);
        assert.equal(st.helpTitle, title);
        assert.ok(st.helpKeys.includes(key), `${tab}: ${JSON.stringify(st.helpKeys)}`);
        assert.ok(!st.helpKeys.includes('right-click a track name'), `${tab}: not the timeline's keys`);
      }
      // On the Graph tab too, Esc closes it and ? opens it again (the keys reach every tab).
      await s.call(() => window.strata.setTab('graph'));
      const graphOpen = await shot(s);
      await s.page.keyboard.press('Escape');
      await poll(async () => !(await state(s)).help, { message: 'Esc closes the help on the Graph tab' });
      const graphClosed = await shot(s);
      assert.ok(centreDiff(graphOpen, graphClosed) > 2000, 'the overlay is gone from the graph');
      await s.page.keyboard.press('?');
      await poll(async () => (await state(s)).help, { message: '? opens the help on the Graph tab' });
      s.assertNoErrors();
    } finally {
      await s.close();
    }
  });

  test('the first visit says that files and folders drop anywhere, once', async () => {
    const s = await newStrataPage(env.browser, { firstVisit: true });
    try {
      await s.goto(env.server.url);
      await s.frame();
      let st = await state(s);
      assert.ok(st.welcome, 'the first visit shows the note');
      const b = st.welcomeBanner;
      assert.ok(b.h > 0 && b.y >= 30, `the note sits under the top bar: ${JSON.stringify(b)}`);
      // Pixels: the note's band has its own background under the top bar.
      const img = await shot(s);
      const light = (await s.call(() => window.strata.theme())).theme === 'light';
      const bg = light ? [0xfa, 0xe6, 0xe6] : [0x3a, 0x2a, 0x2a];
      const j = (Math.round(b.y + b.h / 2) * img.width + 4) * 4;
      assert.deepEqual([img.data[j], img.data[j + 1], img.data[j + 2]], bg, 'the note band is drawn');
      // "Got it" dismisses it; a reload does not bring it back.
      const box = await s.page.locator('#canvas').boundingBox();
      await s.page.mouse.click(box.x + b.button[0] + b.button[2] / 2, box.y + b.button[1] + b.button[3] / 2);
      await poll(async () => !(await state(s)).welcome, { message: 'Got it hides the note' });
      await s.goto(env.server.url);
      await s.frame();
      st = await state(s);
      assert.equal(st.welcome, false, 'the second visit has no note');
      assert.equal(st.welcomeBanner.h, 0);
      s.assertNoErrors();
    } finally {
      await s.close();
    }
  });

  test('empty tabs say what to open', async () => {
    const s = await newStrataPage(env.browser);
    try {
      await s.goto(`${env.server.url}?url=${encodeURIComponent('/no-such-trace.json')}`);
      await s.frame();
      let st = await state(s);
      assert.equal(st.tab, 'timeline');
      assert.match(st.emptyMessage, /Drop trace files or a profiler folder anywhere/);
      const timeline = await shot(s);
      await s.call(() => window.strata.setTab('memory'));
      st = await state(s);
      assert.match(st.emptyMessage, /memory events/);
      assert.match(st.emptyMessage, /memory_record\.csv/);
      const memory = await shot(s);
      assert.ok(centreDiff(timeline, memory) > 100, 'the Memory tab draws its own message');
      s.assertNoErrors({ allowHttp: true });
    } finally {
      await s.close();
    }
  });
});
