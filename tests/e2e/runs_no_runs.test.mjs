// A dropped folder with nothing Strata reads, after a profiler folder: the message is the only
// change. The tab the user was on, the Runs tab's folder and selection, and the loaded trace
// stay as they were (the Runs tab must not come forward, nor lose its folder, for a folder that
// holds no runs).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CALL_TIMEOUT_MS, folderEntries, hasData, strataSuite } from './lib.mjs';
import { dropFolder } from './drop_folder.mjs';

const ASCEND = 'ascend/msinsight/text_level1';
const TRACE = 'chrome_trace/catapult/x_event_trace.json';
const UNREAD = /none of the 2 files here is one Strata reads/;
const skip = !hasData(ASCEND) || !hasData(TRACE);

// Two files whose bytes say what they are (a PNG image, a ZIP archive): no runs, nothing read.
const unreadable = () => [
  { path: 'shots/plot.png', bytes: Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(64, 1)]) },
  {
    path: 'shots/archive.zip',
    bytes: Buffer.concat([Buffer.from('PK\x03\x04\x14\0\0\0', 'latin1'), Buffer.alloc(64, 7)]),
  },
];

describe('a folder with nothing readable leaves the tabs as they were', { skip }, () => {
  let s;
  strataSuite((e) => {
    s = e.session;
  });
  const call = (fn, arg, timeout = CALL_TIMEOUT_MS) => s.call(fn, arg, timeout);

  async function dropUnreadable() {
    const failed = s.page.evaluate(
      () =>
        new Promise((ok) => window.addEventListener('strata:loadfailed', (e) => ok(e.detail.error), { once: true })),
    );
    await dropFolder(s, 'shots', unreadable());
    assert.match(await failed, UNREAD);
    await s.frame();
  }

  test('on the Runs tab: the tab, its folder and the trace stay', async () => {
    const opened = await call((l) => window.strata.open(l), folderEntries(ASCEND), 120_000);
    assert.equal(opened.runs.length, 1, JSON.stringify(opened.runs));
    assert.equal(await call(() => window.strata.tab()), 'runs');
    const before = await call(() => window.strata.stats(), undefined, 120_000);
    const summary = await s.summary();
    await dropUnreadable();
    assert.equal(await call(() => window.strata.tab()), 'runs', 'the Runs tab is still shown');
    const after = await call(() => window.strata.stats(), undefined, 120_000);
    assert.deepEqual(after.runs, before.runs, 'the Runs tab keeps its folder');
    assert.deepEqual(after.selection, before.selection, 'and its selection');
    assert.equal(after.operators.length, before.operators.length, 'and its tables');
    const now = await s.summary();
    assert.deepEqual(now.files, summary.files, 'the loaded trace is kept');
    assert.equal(now.events, summary.events);
    const st = await call(() => window.strata.state());
    assert.match(st.error, UNREAD, 'the message is shown');
  });

  test('on the timeline with a trace: the timeline stays in front', async () => {
    const sum = await s.open(`/data/${TRACE}`);
    assert.deepEqual(sum.errors, []);
    await call(() => window.strata.setTab('timeline'));
    const runs = (await call(() => window.strata.stats(), undefined, 120_000)).runs;
    await dropUnreadable();
    assert.equal(await call(() => window.strata.tab()), 'timeline', 'the timeline is still shown');
    const now = await s.summary();
    assert.equal(now.files[0].name, 'x_event_trace.json', 'the trace is kept');
    assert.equal(now.events, sum.events);
    assert.deepEqual((await call(() => window.strata.stats(), undefined, 120_000)).runs, runs);
  });
});
