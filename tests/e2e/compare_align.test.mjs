// The Compare tab's aligned timelines in headless Chromium: HTA's two real Kineto ranks, rank 0
// as A and rank 1 as B. B's timeline is drawn under A's from B's own engine (slices in both
// events areas of the screenshot); a wheel zoom over
// either moves both, B staying shifted by the alignment's offset; aligned on step 551 the offset
// equals the two steps' starts in the files (from each file's start, computed here); a diff
// row selects its events in both timelines, as many as the row counts in A and in B; a row only
// in B selects in B alone and, zoomed onto, its name is outlined there; a drag on B selects
// there and its counterparts in A (compare_link.test.mjs: which ones); a B without steps
// aligned on a step falls back to the starts and says so.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  analyseImage,
  countTrace,
  dataPath,
  dragMouse,
  dataUrl,
  poll,
  screenshotCanvas,
  skipUnlessData,
  strataSuite,
  usToNs,
} from './lib.mjs';

const DIR = 'pytorch_kineto/hta/trace_filter';
const RANK0 = `${DIR}/sampled_rank-0.json.gz`;
const RANK1 = `${DIR}/sampled_rank-1.json.gz`;

// ns from the file's start to the first record named `name`.
function fromStart(rel, name) {
  const t = countTrace(dataPath(rel));
  let first = Infinity;
  for (const r of t.records) if (r.name === name && r.ph !== 'M') first = Math.min(first, usToNs(r.ts));
  assert.ok(Number.isFinite(first), `${name} in ${rel}`);
  return first - t.startNs;
}

describe('aligned timelines of A and B', { skip: skipUnlessData(RANK0, RANK1) }, () => {
  let s;
  strataSuite((e) => (s = e.session));
  const view = () => s.call(() => window.strata.compareView());
  const align = (mode, arg) => s.call(([m, a]) => window.strata.compareAlign(m, a), [mode, arg]);
  // B's view is A's shifted by the offset, span for span.
  function assertLinked(t, what) {
    const tol = Math.max(1, (t.aEnd - t.aStart) * 1e-9);
    assert.ok(Math.abs(t.bStart - t.aStart - t.offsetNs) <= tol, `${what}: start ${t.bStart} vs ${t.aStart}`);
    assert.ok(Math.abs(t.bEnd - t.aEnd - t.offsetNs) <= tol, `${what}: end ${t.bEnd} vs ${t.aEnd}`);
  }
  const settled = () =>
    poll(
      async () => {
        const v = await view();
        return v.timelines.bLoaded && v.timelines.bSettled && v.timelines.bTiles > 0 && v;
      },
      { timeout: 30_000, message: "B's timeline drawn" },
    );

  test("B's timeline is drawn under A's; a zoom over either moves both", async () => {
    await s.open(dataUrl(RANK0));
    const r = await s.call((b) => window.strata.compare(null, b), dataUrl(RANK1), 120_000);
    assert.equal(r.ok, true, r.error);
    assert.equal(r.result.alignment.mode, 'start');
    assert.equal(r.result.alignment.offsetNs, 0);
    await s.call(() => window.strata.setTab('compare'));
    await s.frame();
    let v = await settled();
    let t = v.timelines;
    assert.equal(v.alignment.used, 'start');
    assert.ok(t.bY > t.aY + t.aH - 1, 'B under A');
    assertLinked(t, 'at first');
    // Both events areas have slices drawn in them (event colours, not the UI's greys).
    const { image } = await screenshotCanvas(s.page);
    for (const [side, y, hgt] of [
      ['A', t.aY, t.aH],
      ['B', t.bY, t.bH],
    ]) {
      const region = {
        x: Math.ceil(t.eventsX),
        y: Math.ceil(y),
        width: Math.floor(t.eventsW) - 1,
        height: Math.floor(hgt) - 1,
      };
      const px = analyseImage(image, { region });
      assert.ok(px.colourful > 500, `${side}'s timeline is drawn: ${JSON.stringify(px)}`);
    }
    const span0 = t.aEnd - t.aStart;
    for (const [side, y] of [
      ['A', t.aY + t.aH / 2],
      ['B', t.bY + t.bH / 2],
    ]) {
      const before = (await view()).timelines;
      await s.page.mouse.move(t.eventsX + t.eventsW / 2, y);
      await s.frame();
      await s.page.mouse.wheel(0, -240);
      await s.frame();
      await s.frame();
      const after = (await view()).timelines;
      assert.ok(after.aEnd - after.aStart < (before.aEnd - before.aStart) * 0.95, `a wheel over ${side} zooms A`);
      assertLinked(after, `zoomed over ${side}`);
    }
    t = (await view()).timelines;
    assert.ok(t.aEnd - t.aStart < span0);
    s.assertNoErrors();
  });

  test('aligned on step 551: the offset is the steps’ starts from their files’ starts', async () => {
    const res = await align('step', 551);
    const al = res.alignment;
    assert.equal(al.used, 'step', al.note);
    assert.equal(al.aStep, 551);
    assert.equal(al.bStep, 551);
    const want = fromStart(RANK1, 'ProfilerStep#551') - fromStart(RANK0, 'ProfilerStep#551');
    assert.ok(Math.abs(al.offsetNs - want) <= 1000, `offset ${al.offsetNs} vs ${want} from the files`);
    assert.ok(want !== 0, 'the ranks start their steps at different times from their starts');
    await s.frame();
    const v = await poll(
      async () => {
        const x = await view();
        return x.alignment.offsetNs === al.offsetNs && x;
      },
      { message: 'the tab reads the new alignment' },
    );
    assert.equal(v.alignment.note, 'aligned on step 551 (by number)');
    await s.frame();
    assertLinked((await view()).timelines, 'on step 551');
    // By order: the first step of each is 551 too.
    const o = await align('order', 0);
    assert.equal(o.alignment.used, 'order');
    assert.equal(o.alignment.offsetNs, al.offsetNs);
    // The first of an operator's calls in each.
    const ev = await align('event', 'nccl:all_reduce');
    assert.equal(ev.alignment.used, 'event');
    const wantEv = fromStart(RANK1, 'nccl:all_reduce') - fromStart(RANK0, 'nccl:all_reduce');
    assert.ok(Math.abs(ev.alignment.offsetNs - wantEv) <= 1000, `${ev.alignment.offsetNs} vs ${wantEv}`);
    s.assertNoErrors();
  });

  test('a diff row selects its events in A and in B', async () => {
    const res = await s.call(() => window.strata.compareResult());
    const t = res.tables.operator;
    const row = t.changed.find((x) => x.aCount !== x.bCount && x.aCount > 1 && x.bCount > 1) || t.changed[0];
    assert.equal(await s.call((n) => window.strata.compareSelect('operator', n), row.name), true);
    const v = await poll(
      async () => {
        await s.frame();
        const x = await view();
        return x.timelines.aSelected > 0 && x.timelines.bSelected > 0 && x;
      },
      { message: 'the row selected in both' },
    );
    assert.equal(v.timelines.aSelected, row.aCount);
    assert.equal(v.timelines.bSelected, row.bCount);
    // Names on one side only are outlined: at most the table's added / removed names.
    assert.ok(v.timelines.aOutlined <= t.removed.length && v.timelines.bOutlined <= t.added.length);
    s.assertNoErrors();
  });

  test('a row only in B selects its events in B alone, and B outlines its name', async () => {
    const res = await s.call(() => window.strata.compareResult());
    const key = ['kernel', 'operator', 'xla_op'].find((k) => res.tables[k].added.length > 0);
    assert.ok(key, 'the ranks have a name only in B');
    const row = res.tables[key].added[0];
    assert.equal(row.aCount, 0);
    assert.equal(await s.call(([k, n]) => window.strata.compareSelect(k, n), [key, row.name]), true);
    const sel = await poll(
      async () => {
        await s.frame();
        const x = await view();
        return x.key === key && x.timelines.bSelected === row.bCount && x;
      },
      { message: `${row.name} selected in B` },
    );
    assert.equal(sel.timelines.aSelected, 0);
    // Zoomed onto it (through A's view: B follows), its slice is drawn and its name outlined.
    const t = sel.timelines;
    const pad = Math.max(1000, (t.bSelEnd - t.bSelStart) * 4);
    await s.call(
      ([a, b]) => window.strata.setViewRel(a, b),
      [t.bSelStart - t.offsetNs - pad, t.bSelEnd - t.offsetNs + pad],
    );
    const v = await poll(
      async () => {
        await s.frame();
        const x = await view();
        return x.timelines.bSettled && x.timelines.bOutlined > 0 && x;
      },
      { message: `${row.name} outlined in B` },
    );
    assertLinked(v.timelines, 'zoomed onto the row');
    assert.deepEqual(v.added.includes(row.name), true);
    s.assertNoErrors();
  });

  test("a drag on B's timeline selects B's events under it, and their counterparts in A", async () => {
    await s.call(() => window.strata.setViewRel(0, 1e12)); // the whole of both
    const t = (
      await poll(
        async () => {
          await s.frame();
          const x = await view();
          return x.timelines.bSettled && x;
        },
        { message: 'B settled' },
      )
    ).timelines;
    await dragMouse(s, { x: t.eventsX + 5, y: t.bY + 5 }, { x: t.eventsX + t.eventsW - 5, y: t.bY + t.bH - 5 });
    const v = await poll(
      async () => {
        await s.frame();
        const x = await view();
        return x.timelines.bSelected > 1 && x.timelines.match.from === 'b' && x.timelines.aSelected > 0 && x;
      },
      { message: 'the drag selected in B, then in A' },
    );
    const m = v.timelines.match;
    assert.equal(m.occurrences + m.nearest + m.none, v.timelines.bSelected, 'each of B matched once');
    s.assertNoErrors();
  });

  test('a new A is compared with B again, on the alignment chosen', async () => {
    await align('step', 552);
    await s.open(dataUrl(RANK1)); // A is now rank 1, as B is
    const v = await poll(
      async () => {
        await s.frame();
        const x = await view();
        return x.a === 'sampled_rank-1.json.gz' && x;
      },
      { message: 'the tab compares the new A' },
    );
    assert.equal(v.alignment.mode, 'step');
    assert.equal(v.b, 'sampled_rank-1.json.gz');
    assert.equal(v.alignment.used, 'step');
    assert.equal(v.alignment.offsetNs, 0, 'rank 1 against itself on step 552');
    assert.deepEqual([v.changed, v.added, v.removed], [[], [], []]);
    s.assertNoErrors();
  });

  test('a B without steps aligned on a step is aligned on the starts, and says so', async () => {
    const json = JSON.stringify([{ ph: 'X', pid: 1, tid: 1, ts: 5, dur: 3, name: 'lonely', cat: 'cpu_op' }]);
    const r = await s.call(
      (text) => window.strata.compare(null, new File([new TextEncoder().encode(text)], 'nosteps.json')),
      json,
    );
    assert.equal(r.ok, true, r.error);
    const res = await align('step', -1);
    assert.equal(res.alignment.mode, 'step');
    assert.equal(res.alignment.used, 'start');
    assert.equal(res.alignment.note, 'no common steps: aligned on starts');
    assert.equal(res.alignment.offsetNs, 0);
    assert.equal(res.steps.note, 'no common steps: aligned on starts');
    const v = await poll(
      async () => {
        const x = await view();
        return x.b === 'nosteps.json' && x.timelines.bLoaded && x;
      },
      { message: 'the new B in the tab' },
    );
    assert.equal(v.alignment.note, 'no common steps: aligned on starts');
    s.assertNoErrors();
  });
});
