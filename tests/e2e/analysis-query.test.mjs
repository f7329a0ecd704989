// The analysis query's envelope through the script API, and the select query's name mode (the
// events behind an analysis row), checked against the demo trace's records read here in JS.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { dataPath, dataUrl, DIST_DIR, hasData, parseTrace, readTraceText, strataSuite } from './lib.mjs';
import { gpuRecords, sweep } from './gpu-sweep.mjs';

const DEMO_FILE = path.join(DIST_DIR, 'demo', 'demo-trace.json');
const KINETO_H100 = 'pytorch_kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz';

describe('analysis query', () => {
  let s;
  strataSuite((e) => ({ session: s } = e));

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

  test(
    'gpu_breakdown on a real Kineto trace equals a sweep over its GPU records, part by part',
    { skip: !hasData(KINETO_H100) && 'no shared data' },
    async () => {
      await s.open(dataUrl(KINETO_H100));
      const list = await s.call(() => window.strata.analysis());
      assert.ok(
        list.analyses.find((a) => a.name === 'gpu_breakdown' && a.available),
        JSON.stringify(list),
      );
      const t = await s.call(() => window.strata.analysis('gpu_breakdown'));
      assert.deepEqual(t.errors, []);
      const col = (k) => t.columns.findIndex((c) => c.key === k);
      const devices = t.rows.filter((r) => r.parent === -1);
      const byPid = new Map();
      for (const r of gpuRecords(dataPath(KINETO_H100))) {
        if (!byPid.has(r.pid)) byPid.set(r.pid, []);
        byPid.get(r.pid).push(r);
      }
      assert.equal(devices.length, byPid.size, 'a row per GPU process');
      const want = sweep([...byPid.values()][0]);
      const row = devices[0];
      for (const k of ['span', 'compute', 'exposed_comm', 'exposed_memcpy', 'idle'])
        assert.equal(BigInt(row.cells[col(k)]), want[k], k);
      // Its streams sit beneath it, and each row links to the tracks it sums.
      const streams = t.rows.filter((r) => r.parent === t.rows.indexOf(row));
      assert.ok(streams.length >= 1);
      for (const r of [row, ...streams]) assert.ok(r.link.tracks.length >= 1, JSON.stringify(r.link));
      s.assertNoErrors();
    },
  );
});
