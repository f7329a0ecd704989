// The top bar: it names what the tab shown holds (the trace, the Runs folder, the graph's module,
// the loss logs), its title stops before the page's own buttons, a load error wraps in a banner
// under it that can be read whole and dismissed, and the toolbar's controls stay put when a
// "Clear marks" button or a longer search count appears.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { poll, screenshotCanvas, strataSuite } from './lib.mjs';

const LOSS_LOG =
  Array.from(
    { length: 20 },
    (_, i) => ` iteration ${String(i + 1).padStart(6)}/ 20 | lm loss: ${(4 / (i + 1)).toExponential(4)} |`,
  ).join('\n') + '\n';
const HLO = `HloModule tiny_module

ENTRY main {
  p = f32[4] parameter(0)
  ROOT n = f32[4] negate(p)
}
`;

const state = (s) => s.call(() => window.strata.state());
const px = (img, x, y) => {
  const j = (Math.round(y) * img.width + Math.round(x)) * 4;
  return [img.data[j], img.data[j + 1], img.data[j + 2]];
};
/** Pixels in a rectangle within `tol` of colour c. */
function countNear(img, c, { x0 = 0, y0 = 0, x1 = img.width, y1 = img.height }, tol = 40) {
  let n = 0;
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(img.height, y1); y++)
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(img.width, x1); x++) {
      const p = px(img, x, y);
      if (Math.abs(p[0] - c[0]) + Math.abs(p[1] - c[1]) + Math.abs(p[2] - c[2]) <= tol) n++;
    }
  return n;
}
/** Rows (y) in a rectangle holding at least one pixel near colour c. */
function rowsNear(img, c, rect, tol = 40) {
  const rows = [];
  for (let y = rect.y0; y < rect.y1; y++) if (countNear(img, c, { ...rect, y0: y, y1: y + 1 }, tol)) rows.push(y);
  return rows;
}

describe('the top bar', () => {
  let s;
  strataSuite((e) => ({ session: s } = e));

  test('names what each tab shows, not the timeline trace', async () => {
    assert.match((await state(s)).title, /demo-trace\.json/, 'the timeline: its trace');
    await s.openBytes(Buffer.from(LOSS_LOG), 'first-run.log');
    await s.openBytes(Buffer.from(LOSS_LOG), 'second-run.log');
    await s.frame();
    let st = await state(s);
    assert.equal(st.tab, 'loss');
    assert.match(st.title, /Training logs first-run\.log, second-run\.log/);
    assert.doesNotMatch(st.title, /demo/);
    const lossBar = (await screenshotCanvas(s.page)).image;

    await s.openBytes(Buffer.from(HLO), 'tiny.hlo');
    await s.frame();
    st = await state(s);
    assert.equal(st.tab, 'graph');
    assert.match(st.title, /HLO module tiny_module/);
    assert.match(st.title, /2 instructions/);
    assert.doesNotMatch(st.title, /demo|\.log/);
    const graphBar = (await screenshotCanvas(s.page)).image;

    // A profiler folder (a Kineto run, made of the demo trace): the Runs tab names the folder.
    await s.call(async () => {
      const text = await (await fetch('demo/demo-trace.json')).text();
      const file = new File([text], 'host_1.1700000000000.pt.trace.json');
      return window.strata.open([{ path: 'my_profiles/run_a/host_1.1700000000000.pt.trace.json', file }]);
    });
    await s.call(() => window.strata.setTab('runs'));
    st = await state(s);
    assert.equal(st.tab, 'runs');
    assert.match(st.title, /Runs folder my_profiles/);
    assert.match(st.title, /1 run/);

    await s.call(() => window.strata.setTab('timeline'));
    assert.match((await state(s)).title, /\.json/, 'back on the timeline: its trace again');

    // What the user sees: the title region of the bar (right of the tabs) differs between tabs.
    const from = Math.ceil(st.topBar.tabsRight) + 4;
    let differ = 0;
    for (let y = 4; y < 30; y++)
      for (let x = from; x < from + 300; x++) {
        const a = px(lossBar, x, y),
          b = px(graphBar, x, y);
        if (a.some((v, i) => v !== b[i])) differ++;
      }
    assert.ok(differ > 50, `the drawn titles differ between Loss and Graph (${differ} px)`);
    s.assertNoErrors();
  });

  test('a long title stops before the page buttons, ending in an ellipsis', async () => {
    await s.openBytes(Buffer.from(LOSS_LOG), `${'a-very-long-experiment-name-'.repeat(6)}third.log`);
    const st = await poll(
      async () => {
        const x = await state(s);
        return /third\.log/.test(x.title) && x.titleClipped ? x : null;
      },
      { message: 'the long title, clipped' },
    );
    assert.equal(st.tab, 'loss');
    assert.ok(st.titleClipped, 'the long title is clipped');
    const bar = await s.page.locator('#copy-link').boundingBox();
    assert.ok(st.topBar.itemsRight <= bar.x, `title ends at ${st.topBar.itemsRight}, buttons start at ${bar.x}`);
    await s.call(() => window.strata.setTab('timeline'));
  });

  test('a long load error wraps, is read whole, leaves the view usable, and is dismissed', async () => {
    const name = `${'a-malformed-profile-with-a-very-long-name-'.repeat(5)}end.json`;
    const sum = await s.openBytes(Buffer.from('{"traceEvents": [{"name": "x", "ph": "X", "ts": '), name);
    assert.ok(sum.errors.length > 0, 'the malformed file reports an error');
    await s.frame();
    const st = await state(s);
    assert.equal(st.error, sum.errors.join('\n'), 'the UI shows every error, whole');
    assert.ok(st.error.includes(name) || st.error.length > 200, `the error names the file: ${st.error}`);
    const b = st.errorBanner;
    assert.ok(b.h > 0 && b.y >= 30, `a banner under the top bar: ${JSON.stringify(b)}`);

    // Pixels: the error's colour spans two lines or more (wrapped), none of it under the page's
    // buttons, and the Dismiss button is inside the canvas.
    const { image } = await screenshotCanvas(s.page);
    const light = (await s.call(() => window.strata.theme())).theme === 'light';
    const errColour = light ? [0xc0, 0x20, 0x20] : [0xff, 0x73, 0x66];
    const rows = rowsNear(image, errColour, { x0: 0, x1: b.button[0], y0: Math.floor(b.y), y1: Math.ceil(b.y + b.h) });
    assert.ok(rows.length > 0, 'the error text is drawn');
    assert.ok(
      rows[rows.length - 1] - rows[0] > 16,
      `the error wraps over several lines: rows ${rows[0]}..${rows.at(-1)}`,
    );
    const bar = await s.page.locator('#copy-link').boundingBox();
    assert.ok(b.y >= bar.y + bar.height, 'the banner is below the page buttons');
    assert.ok(b.button[0] + b.button[2] <= image.width, 'Dismiss is on the canvas');

    // The timeline below is still there and clickable: an event selects at its new place.
    const found = await s.find('a');
    const ev = found.matches ? found.matches[0].event : 0;
    const at = await s.locate(ev);
    if (at) {
      await s.page.mouse.click(at.x, at.y);
      await poll(async () => (await s.call(() => window.strata.selection())).count === 1, {
        message: 'a click on the timeline under the banner selects',
      });
    }

    // Dismiss: the error and its banner go away.
    const box = await s.page.locator('#canvas').boundingBox();
    await s.page.mouse.click(box.x + b.button[0] + b.button[2] / 2, box.y + b.button[1] + b.button[3] / 2);
    await poll(async () => (await state(s)).error === '', { message: 'Dismiss clears the error' });
    await s.frame();
    assert.equal((await state(s)).errorBanner.h, 0, 'no banner after Dismiss');
    const after = (await screenshotCanvas(s.page)).image;
    assert.equal(countNear(after, errColour, { y0: 34, y1: 34 + b.h }, 10), 0, 'no error pixels left');
  });

  test('the toolbar does not jump when "Clear marks" appears', async () => {
    await s.call(() => window.strata.setTab('timeline'));
    await s.open('demo/demo-trace.json');
    await s.frame();
    const strip = async () => {
      await s.frame();
      const { image } = await screenshotCanvas(s.page);
      return image;
    };
    const st = await state(s);
    const y0 = 34 + st.errorBanner.h + st.welcomeBanner.h;
    const before = await strip();
    // A mark: select an event, press m; "Clear marks" appears at the bar's right end.
    const found = await s.find('a');
    await s.call((e) => window.strata.select({ event: e }), found.matches[0].event);
    await s.focusCanvas(0.5, 0.9);
    await s.page.keyboard.press('KeyM');
    await poll(async () => (await state(s)).marks.length === 1, { message: 'a mark' });
    const marked = await strip();
    let firstDiff = -1;
    for (let x = 0; x < marked.width && firstDiff < 0; x++)
      for (let y = y0 + 2; y < y0 + 30; y++) {
        const a = px(before, x, y),
          b = px(marked, x, y);
        if (a.some((v, i) => v !== b[i])) {
          firstDiff = x;
          break;
        }
      }
    assert.ok(firstDiff > marked.width - 160, `only the right end of the toolbar changes (from x=${firstDiff})`);
  });

  test('the search buttons stay put as the result count grows a digit', async () => {
    const st = await state(s);
    const y0 = 34 + st.errorBanner.h + st.welcomeBanner.h;
    await s.focusCanvas(0.5, 0.9);
    await s.page.keyboard.press('Slash');
    await s.page.keyboard.type('read');
    await poll(async () => (await state(s)).searchCount >= 10, { message: 'ten results or more' });
    const toolbar = async () => {
      await s.frame();
      return (await screenshotCanvas(s.page)).image;
    };
    await s.page.keyboard.press('Enter'); // "1 of N"
    const one = await toolbar();
    for (let i = 0; i < 9; i++) await s.page.keyboard.press('Enter'); // "10 of N"
    const ten = await toolbar();
    let lo = -1,
      hi = -1;
    for (let x = 0; x < one.width - 200; x++)
      for (let y = y0 + 4; y < y0 + 28; y++) {
        const a = px(one, x, y),
          b = px(ten, x, y);
        if (a.some((v, i) => v !== b[i])) {
          if (lo < 0) lo = x;
          hi = x;
          break;
        }
      }
    assert.ok(lo >= 0, 'the count changed on screen');
    assert.ok(hi - lo < 100, `only the count's text changes (x ${lo}..${hi}), not the buttons after it`);
  });
});
