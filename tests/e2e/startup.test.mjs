// Start-up: the page loads from / and from a sub-path, opens the demo trace or ?url=, and draws it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  DIST_DIR,
  SUB_PATH,
  analyseImage,
  countTrace,
  dataPath,
  dataUrl,
  newStrataPage,
  screenshotCanvas,
  serverAndBrowser,
  skipUnlessData,
} from './lib.mjs';

const DEMO_FILE = path.join(DIST_DIR, 'demo', 'demo-trace.json');
const URL_TRACE = 'chrome_trace/catapult/simple_trace.json';

describe('start-up', () => {
  const env = serverAndBrowser();
  let demo; // demo: the session at / (reused by the rendering test)

  async function checkDemoLoaded(s, where) {
    const sum = await s.summary();
    assert.ok(sum.files.length >= 1, `${where}: no file loaded: ${JSON.stringify(sum)}`);
    assert.match(sum.files[0].name, /demo/i, `${where}: files[0].name`);
    assert.equal(sum.files[0].format, 'chrome-json', `${where}: files[0].format`);
    assert.ok(sum.events > 0, `${where}: summary.events = ${sum.events}`);
    assert.ok(sum.tracks > 0 && sum.processes > 0, `${where}: tracks ${sum.tracks}, processes ${sum.processes}`);
    assert.ok(sum.endNs > sum.startNs, `${where}: startNs ${sum.startNs} endNs ${sum.endNs}`);
    assert.deepEqual(sum.errors, [], `${where}: summary.errors`);
    const v = await s.view();
    assert.ok(
      Number.isFinite(v.startNs) && Number.isFinite(v.endNs) && v.endNs > v.startNs,
      `${where}: view ${JSON.stringify(v)}`,
    );
    s.assertNoErrors({ what: where });
    return sum;
  }

  test('loads from / with the bundled demo trace', async () => {
    demo = await newStrataPage(env.browser);
    await demo.goto(env.server.url);
    const sum = await checkDemoLoaded(demo, '/');
    if (fs.existsSync(DEMO_FILE)) {
      // The demo is a plain Chrome trace too: its record counts must match an independent parse.
      const exp = countTrace(DEMO_FILE);
      assert.deepEqual(sum.phases, exp.phases, 'demo trace: summary.phases vs JSON.parse count');
      assert.equal(sum.files[0].bytes, fs.statSync(DEMO_FILE).size, 'demo trace: files[0].bytes');
    }
  });

  test(`loads from the sub-path ${SUB_PATH}`, async () => {
    const s = await newStrataPage(env.browser);
    try {
      await s.goto(env.server.subUrl);
      assert.ok(s.page.url().startsWith(env.server.subUrl), `page URL ${s.page.url()}`);
      await checkDemoLoaded(s, SUB_PATH);
    } finally {
      await s.close();
    }
  });

  test('?url= opens that trace at start-up (from the sub-path)', { skip: skipUnlessData(URL_TRACE) }, async () => {
    const s = await newStrataPage(env.browser);
    try {
      await s.goto(`${env.server.subUrl}?url=${encodeURIComponent(dataUrl(URL_TRACE))}`);
      const sum = await s.summary();
      const exp = countTrace(dataPath(URL_TRACE));
      assert.equal(sum.files.length, 1, `files: ${JSON.stringify(sum.files)}`);
      assert.match(sum.files[0].name, /simple_trace/, 'files[0].name');
      assert.deepEqual(sum.errors, [], 'summary.errors');
      assert.deepEqual(sum.phases, exp.phases, 'summary.phases vs independent count');
      s.assertNoErrors({ what: 'with ?url=' });
    } finally {
      await s.close();
    }
  });

  test('rendering: the loaded timeline draws many more colours than the empty state', async () => {
    assert.ok(demo, 'needs the page from the first test');
    await demo.frame();
    const loaded = analyseImage((await screenshotCanvas(demo.page)).image);

    // Empty state: a page whose start-up file does not exist has nothing loaded.
    const empty = await newStrataPage(env.browser);
    let blank;
    try {
      await empty.goto(`${env.server.url}?url=${encodeURIComponent('/no-such-trace.json')}`);
      const sum = await empty.summary();
      assert.equal(sum.events, 0, 'a missing ?url= file loads no events');
      assert.ok(sum.errors.length > 0, 'a missing ?url= file reports an error');
      assert.deepEqual(empty.log.pageErrors, [], 'no page errors for a missing ?url= file');
      await empty.frame();
      blank = analyseImage((await screenshotCanvas(empty.page)).image);
    } finally {
      await empty.close();
    }
    const info = `loaded ${JSON.stringify(loaded)}\nempty ${JSON.stringify(blank)}`;
    assert.ok(loaded.distinctColours >= 32, `too few colours on the loaded timeline: ${info}`);
    assert.ok(loaded.nonBackgroundFraction > 0.02, `loaded timeline is mostly background: ${info}`);
    assert.ok(
      loaded.distinctColourful >= blank.distinctColourful + 8,
      `loaded timeline shows no more distinct saturated colours than the empty state: ${info}`,
    );
    assert.ok(
      loaded.colourful >= 2 * blank.colourful + 2000,
      `loaded timeline has too few saturated pixels compared with the empty state: ${info}`,
    );
    demo.assertNoErrors({ what: 'while rendering' });
  });
});
