// Real traces from ../shared/data: record counts, time bounds and find() against an independent parse.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  countTrace,
  dataPath,
  dataUrl,
  matchNames,
  parseTrace,
  poll,
  readTraceText,
  skipUnlessData,
  strataSuite,
} from './lib.mjs';

const TRACES = [
  'chrome_trace/catapult/simple_trace.json',
  'chrome_trace/catapult/flow.json',
  'chrome_trace/catapult/x_event_trace.json',
  'chrome_trace/catapult/instant_events.json',
  'chrome_trace/catapult/nanoseconds.json',
  'chrome_trace/catapult/trivial_trace.json',
  'chrome_trace/xprof-tf_trace_viewer/trace.json',
  'pytorch_kineto/kineto-tb_plugin-test/gpu_metrics_input.json',
  'pytorch_kineto/kineto-docs/after_fix_trace.json',
  'ascend/msinsight/text_level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json',
];
const GZ_TRACE = 'chrome_trace/catapult/webview.json.gz';
const INPUT_TRACE = 'chrome_trace/catapult/trivial_trace.json';
const DROP_TRACE = 'chrome_trace/catapult/nanoseconds.json';
const FIND_TRACE = 'chrome_trace/catapult/x_event_trace.json';
const FIND_TRACE_2 = 'ascend/msinsight/text_level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json';

/**
 * Timeline events per the contract: every slice and marker drawn. Slices: X, B (matched or left
 * open), async b and S (one slice per start), object lifetimes N. Markers: i/I, async n, steps
 * T/p, snapshots O, samples P, marks R, and the entries of a top-level "samples" array.
 */
const TIMELINE_PHASES = ['X', 'B', 'i', 'I', 'n', 'b', 'S', 'T', 'p', 'N', 'O', 'P', 'R'];
const expectedEvents = (phases, json) =>
  TIMELINE_PHASES.reduce((n, ph) => n + (phases[ph] || 0), 0) +
  (json && Array.isArray(json.samples) ? json.samples.length : 0);
/** Counter samples: one per (C record, numeric arg). */
const expectedCounters = (records) =>
  records
    .filter((r) => r.ph === 'C')
    .reduce((n, r) => n + Object.values(r.args || {}).filter((v) => typeof v === 'number').length, 0);

function checkSummary(sum, rel, what) {
  const file = dataPath(rel);
  const exp = countTrace(file);
  const ctx = `${rel} (${what})`;
  const state = `files ${JSON.stringify(sum.files)}, errors ${JSON.stringify(sum.errors)}`;
  assert.equal(sum.files.length, 1, `${ctx}: one file loaded: ${state}`);
  assert.ok(sum.files[0].name.includes(path.basename(rel)), `${ctx}: ${path.basename(rel)} is not loaded: ${state}`);
  assert.equal(sum.files[0].bytes, fs.statSync(file).size, `${ctx}: files[0].bytes`);
  assert.equal(sum.files[0].format, 'chrome-json', `${ctx}: files[0].format`);
  assert.deepEqual(sum.phases, exp.phases, `${ctx}: summary.phases vs independent JSON.parse count`);
  assert.equal(
    sum.events,
    expectedEvents(exp.phases, parseTrace(readTraceText(file)).json),
    `${ctx}: summary.events (slices and markers)`,
  );
  assert.equal(sum.counters, expectedCounters(exp.records), `${ctx}: summary.counters`);
  assert.ok(
    Math.abs(sum.startNs - exp.startNs) <= 1000,
    `${ctx}: startNs ${sum.startNs} vs min ts ${exp.startNs} (diff ${sum.startNs - exp.startNs} ns)`,
  );
  assert.ok(
    Math.abs(sum.endNs - exp.endNs) <= 1000,
    `${ctx}: endNs ${sum.endNs} vs max ts+dur ${exp.endNs} (diff ${sum.endNs - exp.endNs} ns)`,
  );
  if (sum.events > 0)
    assert.ok(sum.tracks > 0 && sum.processes > 0, `${ctx}: tracks ${sum.tracks} processes ${sum.processes}`);
  // Last, so that count mismatches are reported first.
  assert.deepEqual(sum.errors, [], `${ctx}: summary.errors after a successful open`);
  return exp;
}

describe('real traces', () => {
  let s;
  strataSuite((e) => ({ session: s } = e));

  for (const rel of TRACES) {
    test(`open('/data/${rel}') matches an independent count`, { skip: skipUnlessData(rel) }, async () => {
      const sum = await s.open(dataUrl(rel));
      const now = await s.summary();
      assert.deepEqual(
        { files: now.files, phases: now.phases, events: now.events },
        { files: sum.files, phases: sum.phases, events: sum.events },
        'summary() is current after await open()',
      );
      checkSummary(sum, rel, 'strata.open(url)');
      const v = await s.view();
      assert.ok(v.endNs > v.startNs, `view after open: ${JSON.stringify(v)}`);
      s.assertNoErrors({ what: `opening ${rel}` });
    });
  }

  test(
    'open through the hidden file input (setInputFiles)',
    { skip: skipUnlessData(INPUT_TRACE, TRACES[1]) },
    async () => {
      // Load something else first so the change is observable.
      await s.open(dataUrl(TRACES[1]));
      await s.page.setInputFiles('input[type=file]', dataPath(INPUT_TRACE));
      const sum = await poll(
        async () => {
          const x = await s.summary();
          return x.files.length && x.files[0].name.includes(path.basename(INPUT_TRACE)) && Object.keys(x.phases).length
            ? x
            : null;
        },
        { timeout: 30_000, message: `summary().files[0].name to become ${path.basename(INPUT_TRACE)}` },
      );
      checkSummary(sum, INPUT_TRACE, 'input[type=file]');
      s.assertNoErrors({ what: 'opening via the file input' });
    },
  );

  test('open by dropping a file on the canvas', { skip: skipUnlessData(DROP_TRACE, TRACES[1]) }, async () => {
    await s.open(dataUrl(TRACES[1]));
    const text = fs.readFileSync(dataPath(DROP_TRACE), 'utf8');
    const dt = await s.page.evaluateHandle(
      ({ text, name }) => {
        const d = new DataTransfer();
        d.items.add(new File([text], name, { type: 'application/json' }));
        return d;
      },
      { text, name: path.basename(DROP_TRACE) },
    );
    for (const type of ['dragenter', 'dragover', 'drop']) {
      await s.page.dispatchEvent('#canvas', type, { dataTransfer: dt });
    }
    const sum = await poll(
      async () => {
        const x = await s.summary();
        return x.files.length && x.files[0].name.includes(path.basename(DROP_TRACE)) && Object.keys(x.phases).length
          ? x
          : null;
      },
      { timeout: 30_000, message: `summary().files[0].name to become ${path.basename(DROP_TRACE)} after the drop` },
    );
    checkSummary(sum, DROP_TRACE, 'drop on #canvas');
    s.assertNoErrors({ what: 'opening by drop' });
  });

  test(
    'open(ArrayBuffer) and open(Blob) give the same counts as open(url)',
    { skip: skipUnlessData(TRACES[0]) },
    async () => {
      const bytes = fs.readFileSync(dataPath(TRACES[0]));
      const a = await s.openBytes(bytes); // ArrayBuffer
      const exp = countTrace(dataPath(TRACES[0]));
      assert.deepEqual(a.errors, [], 'ArrayBuffer: errors');
      assert.deepEqual(a.phases, exp.phases, 'ArrayBuffer: phases');
      const b = await s.openBytes(bytes, 'simple_trace.json'); // File
      checkSummary(b, TRACES[0], 'strata.open(File)');
      s.assertNoErrors();
    },
  );

  for (const rel of [FIND_TRACE, FIND_TRACE_2]) {
    test(
      `find() counts match an independent name search (${path.basename(path.dirname(rel))}/${path.basename(rel)})`,
      { skip: skipUnlessData(rel) },
      async () => {
        const { records } = countTrace(dataPath(rel));
        await s.open(dataUrl(rel));
        // Texts: a part of the most common name, in different case; a rare name; something absent.
        const freq = new Map();
        for (const r of matchNames(records, '')) freq.set(r.name, (freq.get(r.name) || 0) + 1);
        const byFreq = [...freq.entries()].sort((x, y) => y[1] - x[1]);
        const common = byFreq[0][0];
        const part = (common.split(/::|\s|\(|\//).find((w) => w.length >= 4) || common).slice(0, 12);
        const rare = byFreq[byFreq.length - 1][0];
        const texts = [part.toUpperCase(), part.toLowerCase(), rare, 'zq-no-such-event-qz'];
        // Shrink the view to a sliver first: find() searches the whole trace, not the view.
        const sum = await s.summary();
        await s.setView(sum.startNs, sum.startNs + 1000);
        for (const text of texts) {
          const expected = matchNames(records, text);
          const got = await s.find(text);
          assert.equal(got.count, expected.length, `find(${JSON.stringify(text)}).count`);
          assert.equal(
            got.matches.length,
            Math.min(100, expected.length),
            `find(${JSON.stringify(text)}).matches.length`,
          );
          for (let i = 0; i < got.matches.length; i++) {
            const m = got.matches[i];
            assert.ok(m.name.toLowerCase().includes(text.toLowerCase()), `match ${i} name ${m.name} lacks ${text}`);
            if (i > 0) assert.ok(m.tsNs >= got.matches[i - 1].tsNs, `matches not sorted by time at ${i}`);
          }
          if (expected.length) {
            const minTs = Math.min(...expected.map((r) => Number(r.ts) * 1000));
            assert.ok(
              Math.abs(got.matches[0].tsNs - minTs) <= 1000,
              `find(${JSON.stringify(text)}): first match at ${got.matches[0].tsNs}, earliest is ${minTs}`,
            );
          }
        }
        s.assertNoErrors();
      },
    );
  }

  // Last: a failure here must not leave state that other tests see.
  test(
    'gzip-compressed trace (served as application/gzip, no Content-Encoding)',
    { skip: skipUnlessData(GZ_TRACE) },
    async () => {
      const sum = await s.open(dataUrl(GZ_TRACE));
      checkSummary(sum, GZ_TRACE, 'strata.open(url) of .json.gz');
      s.assertNoErrors({ what: `opening ${GZ_TRACE}` });
    },
  );
});
