// Deep zoom on epoch-based traces: the view narrows to a few nanoseconds, strata.view() stays
// exact there (relative ns and the origin as decimal text; setView takes exact decimal ns), an
// event sits where its nanosecond says, and the ruler counts "+12.345 us" from a base shown once
// instead of writing twelve-digit times.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dataPath, dataUrl, parseTrace, poll, readTraceText, skipUnlessData, strataSuite } from './lib.mjs';

// torch_npu's Kineto-format trace: epoch µs with ns decimals written as strings.
const ASCEND = 'ascend/msinsight/text_level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json';
// PyTorch Kineto (HTA sample): epoch µs.
const KINETO = 'pytorch_kineto/hta/critical_path/benchmark_result_2869224_1695835535_trace.json.gz';

/** "1736405443863674.400" µs → 1736405443863674400n ns, exactly. */
function usTextToNs(v) {
  const [whole, frac = ''] = String(v).split('.');
  return BigInt(whole) * 1000n + BigInt((frac + '000').slice(0, 3));
}

describe('deep zoom on epoch-based traces', () => {
  let s, page;
  const ev = (fn, arg) => page.evaluate(fn, arg);
  strataSuite((e) => ({ session: s, page } = e));

  async function eventsArea() {
    const box = await page.locator('#canvas').boundingBox();
    const h = await ev(() => window.strata.trackHeaders());
    const x0 = box.x + h.columnX + h.labelWidth;
    return { box, x0, w: box.x + box.width - x0 };
  }

  test(
    'an event sits at its nanosecond in a 6 ns window; view() is exact',
    { skip: skipUnlessData(ASCEND) },
    async () => {
      await s.open(dataUrl(ASCEND));
      await s.frame();
      const { records } = parseTrace(readTraceText(dataPath(ASCEND)));
      const pick = records.find(
        (r) => r.ph === 'X' && typeof r.ts === 'string' && /\.\d*[1-9]\d*$/.test(r.ts) && Number(r.dur) > 10,
      );
      assert.ok(pick, 'an X event with a sub-µs start');
      const at = usTextToNs(pick.ts);
      const v = await ev(([a, b]) => window.strata.setView(a, b), [String(at - 2n), String(at + 4n)]);
      assert.equal(v.endRelNs - v.startRelNs, 6, `a 6 ns window: ${JSON.stringify(v)}`);
      assert.equal(BigInt(v.originNs) + BigInt(v.startRelNs), at - 2n, `view() start is exact: ${JSON.stringify(v)}`);
      // The old Numbers still say about the same place (good to 256 ns at epoch scale).
      assert.ok(Math.abs(v.startNs - Number(at)) < 1024, JSON.stringify(v));
      const pt = await poll(
        async () => {
          await s.frame();
          return s.locate({ name: pick.name, tsNs: Number(at), pid: pick.pid, tid: pick.tid });
        },
        { timeout: 20_000, message: `locate(${pick.name})` },
      );
      // locate() gives the middle of the event's visible part: from its start (2 ns into the
      // 6 ns view) to the right edge.
      const { x0, w } = await eventsArea();
      const want = (x0 + (2 / 6) * w + (x0 + w)) / 2;
      assert.ok(
        Math.abs(pt.x - want) <= 3,
        `the event's start is drawn ${(pt.x - want).toFixed(1)} px off its ns (x ${pt.x}, want ${want})`,
      );
      // The ruler counts from a base shown once.
      const r = await ev(() => window.strata.ruler());
      assert.ok(r.base, `no base on the ruler at a 6 ns view: ${JSON.stringify(r)}`);
      assert.ok(
        r.labels.length > 0 && r.labels.every((l) => /^[+-]\d+(\.\d+)? (ns|us|ms|s)$/.test(l)),
        JSON.stringify(r),
      );
      assert.ok(
        r.labels.every((l) => l.length <= 12),
        `offset labels stay short: ${JSON.stringify(r.labels)}`,
      );
    },
  );

  test(
    'W zooms down to a few ns on a Kineto trace, the ruler shows offsets',
    { skip: skipUnlessData(KINETO) },
    async () => {
      await s.open(dataUrl(KINETO));
      await s.frame();
      const sum = await s.summary();
      assert.ok(sum.startNs > 1.6e18, `epoch-based: starts at ${sum.startNs}`);
      const v0 = await ev(() => {
        const v = window.strata.view();
        const mid = (v.startRelNs + v.endRelNs) / 2;
        return window.strata.setViewRel(mid - 500, mid + 500);
      });
      assert.equal(v0.endRelNs - v0.startRelNs, 1000);
      await s.focusCanvas(0.6, 0.5);
      for (let i = 0; i < 40; i++) await page.keyboard.press('KeyW');
      await s.frame();
      const v = await s.view();
      const span = v.endRelNs - v.startRelNs;
      assert.ok(span <= 5, `zoom stops at ${span} ns (view ${JSON.stringify(v)})`);
      assert.ok(span > 0, JSON.stringify(v));
      const r = await ev(() => window.strata.ruler());
      assert.ok(r.base && !/^0(\.0+)? /.test(r.base), `the base names where we are: ${JSON.stringify(r)}`);
      assert.ok(
        r.labels.every((l) => /^[+-]/.test(l)),
        JSON.stringify(r),
      );
    },
  );

  test('the demo trace zooms to a few ns too; wide views keep plain times', async () => {
    await s.open('demo/demo-trace.json');
    await s.frame();
    await ev(() => window.strata.setView(0, 1e300));
    await s.frame();
    const wide = await ev(() => window.strata.ruler());
    assert.equal(wide.base, null, `a whole-trace view needs no base: ${JSON.stringify(wide)}`);
    const v = await ev(() => window.strata.setViewRel(1e6, 1e6 + 3));
    assert.equal(v.endRelNs - v.startRelNs, 3, JSON.stringify(v));
  });
});
