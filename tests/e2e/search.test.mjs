// Whole-trace search when the engine's answer is slow: Enter pressed before the reply lands must
// walk to the first result once it arrives. The page's engine worker is wrapped (before the app
// starts) so the test can hold the search's reply back and let it go when it chooses.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { DIST_DIR, countTrace, newStrataPage, poll, serverAndBrowser } from './lib.mjs';

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
