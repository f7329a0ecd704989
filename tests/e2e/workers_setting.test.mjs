// The top bar's worker setting (web/page/workers.js): "Workers: auto / 1 / 2 / 4 / 8" decides how
// many workers parse a big plain Chrome JSON, is kept across reloads (localStorage), is what
// summary().workersSetting reports, and gives way to ?workers=N (which is not kept).
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { newStrataPage, poll, serverAndBrowser, tempDir } from './lib.mjs';

// A plain Chrome JSON of complete events on a few threads: big enough to cut in two once the
// slicing threshold is lowered (setWorkers' second argument).
function trace(events) {
  const parts = [];
  for (let i = 0; i < events; ++i)
    parts.push(`{"ph":"X","pid":1,"tid":${1 + (i % 3)},"ts":${1000 + i * 3},"dur":2,"name":"op${i % 17}"}`);
  return `{"traceEvents":[${parts.join(',')}]}`;
}

describe('the worker setting', () => {
  const tmp = tempDir();
  const env = serverAndBrowser({ '/gen/': tmp.dir });
  fs.writeFileSync(path.join(tmp.dir, 'plain.json'), trace(30000));
  after(() => tmp.cleanup());

  const select = (s) => s.page.locator('#workers-select');
  const stored = (s) => s.call(() => localStorage.getItem('strata.workers'));
  const load = (s) => s.open(env.server.origin + '/gen/plain.json');
  // No error but the stream a sliced load by URL opened with, which it stops after the head
  // (its slices are read by ranges), and the demo's follow-up read.
  function assertClean(s) {
    const stopped = (e) => /\/(gen\/plain|demo\/demo-trace)\.json: net::ERR_ABORTED$/.test(e);
    const { pageErrors, crashes, consoleErrors, httpErrors } = s.log;
    assert.deepEqual(
      { pageErrors, crashes, consoleErrors, http: httpErrors.filter((e) => !stopped(e)) },
      { pageErrors: [], crashes: [], consoleErrors: [], http: [] },
    );
  }

  test('chosen in the top bar, kept across reloads, used by the next load', async () => {
    const s = await newStrataPage(env.browser);
    await s.goto(env.server.url);
    assert.equal(await select(s).inputValue(), '0', 'auto before any choice');
    assert.deepEqual(await select(s).locator('option').allTextContents(), [
      'Workers: auto',
      'Workers: 1',
      'Workers: 2',
      'Workers: 4',
      'Workers: 8',
    ]);
    let sum = await load(s);
    assert.equal(sum.workersSetting, 0);
    assert.equal(sum.workers, 1, 'a small file: one worker whatever the setting');

    await s.call(() => window.strata.setWorkers(0, 1)); // slice small files (the threshold only)
    await select(s).selectOption('2');
    assert.equal(await stored(s), '2');
    assert.equal(await s.call(() => window.strata.workers()), 2);
    sum = await load(s);
    assert.equal(sum.workersSetting, 2);
    assert.equal(sum.workers, 2, 'sliced across two workers');
    assert.equal(sum.slices.length, 2);

    // A reload keeps the choice.
    await s.goto(env.server.url);
    assert.equal(await select(s).inputValue(), '2');
    assert.equal(await s.call(() => window.strata.workers()), 2);
    // setWorkers from a script shows in the menu but is not kept.
    await s.call(() => window.strata.setWorkers(1));
    assert.equal(await select(s).inputValue(), '1');
    assert.equal(await stored(s), '2');
    sum = await load(s);
    assert.equal(sum.workersSetting, 1);
    assert.equal(sum.workers, 1);
    // Back to auto: nothing kept.
    await select(s).selectOption('0');
    assert.equal(await stored(s), null);
    assertClean(s);
    await s.close();
  });

  test('?workers=N wins over the kept choice and is not kept', async () => {
    const s = await newStrataPage(env.browser);
    await s.goto(env.server.url);
    await select(s).selectOption('4');
    await s.goto(env.server.url + '?workers=3');
    assert.equal(await select(s).inputValue(), '3', 'the URL value, given an entry of its own');
    assert.equal(await stored(s), '4');
    assert.equal(await s.call(() => window.strata.workers()), 3);
    await s.call(() => window.strata.setWorkers(window.strata.workers(), 1)); // the threshold only
    const sum = await load(s);
    assert.equal(sum.workersSetting, 3);
    assert.equal(sum.workers, 3);
    await poll(async () => (await s.summary()).workersSetting === 3, { message: 'summary() shows the setting' });
    assertClean(s);
    await s.close();
  });
});
