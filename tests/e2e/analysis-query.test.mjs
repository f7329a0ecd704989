// The analysis query's envelope through the script API, and the select query's name mode (the
// events behind an analysis row), checked against the demo trace's records read here in JS.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { DIST_DIR, parseTrace, readTraceText, setupStrata } from './lib.mjs';

const DEMO_FILE = path.join(DIST_DIR, 'demo', 'demo-trace.json');

describe('analysis query', () => {
  let env, s;
  before(async () => {
    env = await setupStrata();
    s = env.session;
  });
  after(async () => {
    if (env) await env.close();
  });

  test('with no name it lists the analyses, each with its availability', async () => {
    const list = await s.call(() => window.strata.analysis());
    assert.ok(Array.isArray(list.analyses), JSON.stringify(list));
    for (const a of list.analyses) {
      assert.equal(typeof a.name, 'string');
      assert.equal(typeof a.title, 'string');
      assert.equal(typeof a.available, 'boolean');
      if (!a.available) assert.ok(a.why.length > 0, `${a.name} says why it is not available`);
    }
  });

  test('an unknown analysis is an error, not an empty table', async () => {
    const r = await s.call(() => window.strata.analysis('no_such_analysis'));
    assert.match(r.error, /unknown analysis/);
  });

  test('eventsNamed finds every event of one exact name, and nothing for a near miss', async () => {
    const { records } = parseTrace(readTraceText(DEMO_FILE));
    // The most frequent name whose records are all complete (X) events: one record, one event.
    const counts = new Map();
    const other = new Set();
    for (const r of records) {
      if (!r || typeof r.name !== 'string') continue;
      if (r.ph === 'X') counts.set(r.name, (counts.get(r.name) || 0) + 1);
      else other.add(r.name);
    }
    const [name, count] = [...counts.entries()].filter(([n]) => !other.has(n)).sort((a, b) => b[1] - a[1])[0];
    assert.ok(count > 1, 'the demo has a repeated X name');
    const r = await s.call((n) => window.strata.eventsNamed(n), name);
    assert.equal(r.count, count, `events named ${name}`);
    assert.ok(r.events.every((e) => e.name === name));
    assert.equal(r.summary.length, 1);
    assert.equal(r.summary[0].count, count);
    const none = await s.call((n) => window.strata.eventsNamed(n), name + '\u0000x');
    assert.equal(none.count, 0);
  });
});
