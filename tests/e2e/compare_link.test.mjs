// The Compare tab's linked selection in headless Chromium, on HTA's two real Kineto ranks (rank
// 0 as A, rank 1 as B) aligned on step 551: a click on an event in A's timeline selects its
// counterpart in B, the same k-th occurrence of its name from the step's start, found here from
// the two files' records; A's and B's details show side by side with the durations' difference
// (the files' durations); a name only in A says "no counterpart in B" and selects nothing
// there; B's counterpart clicked selects the first A event back; a call-tree row selects its
// events in both timelines, as many as each file has of its name (a drag in B selecting in A:
// compare_align.test.mjs).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { countTrace, dataPath, dataUrl, poll, skipUnlessData, strataSuite, usToNs } from './lib.mjs';

const DIR = 'pytorch_kineto/hta/trace_filter';
const RANK0 = `${DIR}/sampled_rank-0.json.gz`;
const RANK1 = `${DIR}/sampled_rank-1.json.gz`;
const STEP = 'ProfilerStep#551';

// A file's complete events by name, each list by start, and where step 551 starts.
function readSide(rel) {
  const t = countTrace(dataPath(rel));
  const byName = new Map();
  const phases = new Map(); // name -> every phase it is written with
  for (const r of t.records) {
    if (!r || r.ph === 'M' || typeof r.name !== 'string') continue;
    if (!phases.has(r.name)) phases.set(r.name, new Set());
    phases.get(r.name).add(r.ph);
    if (r.ph !== 'X') continue;
    if (!byName.has(r.name)) byName.set(r.name, []);
    byName.get(r.name).push(r);
  }
  for (const list of byName.values()) list.sort((x, y) => x.ts - y.ts);
  const step = byName.get(STEP);
  assert.ok(step && step.length, `${STEP} in ${rel}`);
  return { startNs: t.startNs, byName, phases, alignNs: usToNs(step[0].ts) };
}
const after = (side, name) => (side.byName.get(name) || []).filter((r) => usToNs(r.ts) >= side.alignNs);

describe('linked selection of A and B', { skip: skipUnlessData(RANK0, RANK1) }, () => {
  let s;
  strataSuite((e) => (s = e.session));
  const view = () => s.call(() => window.strata.compareView());
  let A, B, clicked; // the two files, and the A record clicked first
  const onlyX = (side, n) => [...side.phases.get(n)].every((p) => p === 'X');

  // Frames A's record, clicks it through locate(); waits for the match to answer.
  async function clickInA(rec) {
    const rel = usToNs(rec.ts) - A.startNs,
      dur = usToNs(rec.dur);
    await s.call(([a, b]) => window.strata.setViewRel(a, b), [rel - dur, rel + 2 * dur]);
    await s.frame();
    const pt = await s.locate({ name: rec.name, tsNs: usToNs(rec.ts), pid: rec.pid, tid: rec.tid });
    assert.ok(pt, `${rec.name} at ${rel} ns shown in A`);
    const before = (await view()).timelines.match;
    await s.page.mouse.move(pt.x, pt.y);
    await s.frame();
    await s.page.mouse.down();
    await s.frame();
    await s.page.mouse.up();
    await s.frame();
    return poll(
      async () => {
        await s.frame();
        const x = await view();
        const m = x.timelines.match;
        return m.from === 'a' && x.timelines.aName === rec.name && JSON.stringify(m) !== JSON.stringify(before) && x;
      },
      { message: `the match of ${rec.name}` },
    );
  }

  test('a click on an event in A selects the same occurrence from step 551 in B, details side by side', async () => {
    A = readSide(RANK0);
    B = readSide(RANK1);
    await s.open(dataUrl(RANK0));
    const r = await s.call((b) => window.strata.compare(null, b), dataUrl(RANK1), 120_000);
    assert.equal(r.ok, true, r.error);
    const al = await s.call(() => window.strata.compareAlign('step', 551));
    assert.equal(al.alignment.used, 'step', al.alignment.note);
    await s.call(() => window.strata.setTab('compare'));
    await poll(
      async () => {
        await s.frame();
        const v = await view();
        return v.timelines.bLoaded && v.timelines.bSettled && v;
      },
      { timeout: 30_000, message: "B's timeline drawn" },
    );
    // A name written only as complete events in both, as many times after step 551 in each,
    // of some length: its third occurrence after the step's start.
    const name = [...A.byName.keys()].find(
      (n) =>
        B.byName.has(n) &&
        onlyX(A, n) &&
        onlyX(B, n) &&
        after(A, n).length >= 3 &&
        after(A, n).length === after(B, n).length &&
        after(A, n)[2].dur >= 10 &&
        !n.startsWith('ProfilerStep'),
    );
    assert.ok(name, 'the ranks share an op with as many calls after step 551');
    clicked = after(A, name)[2];
    const want = after(B, name)[2];
    const v = await clickInA(clicked);
    const t = v.timelines;
    assert.equal(t.match.kind, 'occurrence', JSON.stringify(t.match));
    assert.equal(t.match.ordinal, 2);
    assert.equal(t.match.text, 'in B: the same occurrence (#3 from the alignment point)');
    assert.equal(t.aSelected, 1);
    assert.equal(t.bSelected, 1);
    const wantRel = usToNs(want.ts) - B.startNs;
    assert.ok(Math.abs(t.bSelStart - wantRel) <= 1000, `B's selection at ${t.bSelStart} ns, the file's ${wantRel}`);
    assert.ok(Math.abs(t.bSelEnd - t.bSelStart - usToNs(want.dur)) <= 1000);
    // B's timeline scrolled to it: drawn in B's events area.
    const shown = await poll(
      async () => {
        await s.frame();
        const x = (await view()).timelines;
        return x.bSelShown && x;
      },
      { message: "B's counterpart shown" },
    );
    assert.equal(shown.bSelEvent, t.bSelEvent);
    // Both panes' events, and B - A of the files' durations.
    const d = await poll(
      async () => {
        await s.frame();
        const x = (await view()).timelines;
        return x.aName && x.bName && x;
      },
      { message: 'the details of A and B' },
    );
    assert.equal(d.aName, name);
    assert.equal(d.bName, name);
    assert.ok(Math.abs(d.aDurNs - usToNs(clicked.dur)) <= 1000, `A ${d.aDurNs} vs ${usToNs(clicked.dur)}`);
    assert.ok(Math.abs(d.bDurNs - usToNs(want.dur)) <= 1000, `B ${d.bDurNs} vs ${usToNs(want.dur)}`);
    assert.equal(d.deltaNs, d.bDurNs - d.aDurNs);
    s.assertNoErrors();
  });

  test('an event whose name is only in A has no counterpart in B', async () => {
    const name = [...A.byName.keys()].find((n) => !B.phases.has(n) && onlyX(A, n) && A.byName.get(n)[0].dur >= 10);
    assert.ok(name, 'a name only in rank 0');
    const v = await clickInA(A.byName.get(name)[0]);
    const t = v.timelines;
    assert.equal(t.match.kind, 'none');
    assert.equal(t.match.none, 1);
    assert.equal(t.match.text, 'no counterpart in B');
    assert.equal(t.aSelected, 1);
    assert.equal(t.bSelected, 0, 'nothing selected in B');
    assert.ok(v.removed.includes(name) || v.key !== 'operator', `${name} is a removed row`);
    s.assertNoErrors();
  });

  test("a click on B's counterpart selects the clicked A event back", async () => {
    let v = await clickInA(clicked);
    const t = v.timelines;
    assert.equal(t.bSelected, 1);
    await s.call(([e, a, b]) => window.strata.compareSelectB(e, a, b), [t.bSelEvent, t.bSelStart, t.bSelEnd]);
    v = await poll(
      async () => {
        await s.frame();
        const x = await view();
        return x.timelines.match.from === 'b' && x.timelines.aSelected === 1 && x.timelines.aName && x;
      },
      { message: "B's click matched in A" },
    );
    assert.equal(v.timelines.match.kind, 'occurrence');
    assert.equal(v.timelines.match.ordinal, 2);
    assert.equal(v.timelines.match.text, 'in A: the same occurrence (#3 from the alignment point)');
    const sel = await s.call(() => window.strata.selection());
    assert.equal(sel.count, 1);
    assert.equal(sel.events[0].name, clicked.name);
    assert.ok(Math.abs(sel.events[0].tsNs - usToNs(clicked.ts)) <= 1000, `A's ${sel.events[0].tsNs} vs the file's`);
    assert.equal(v.timelines.bSelected, 1, "B's selection stays");
    s.assertNoErrors();
  });

  test('a call-tree row selects its events in both timelines', async () => {
    const res = await s.call(() => window.strata.compareResult());
    const count = (side, n) => (side.byName.get(n) || []).length;
    const row = res.tree.rows.find(
      (r) =>
        r.status === 'changed' &&
        r.aCount > 0 &&
        r.bCount > 0 &&
        !r.name.startsWith('ProfilerStep') &&
        A.phases.has(r.name) &&
        onlyX(A, r.name) &&
        onlyX(B, r.name),
    );
    assert.ok(row, 'a changed tree row in both');
    assert.equal(await s.call((p) => window.strata.compareSelect('tree', p), row.path), true);
    const v = await poll(
      async () => {
        await s.frame();
        const x = await view();
        return x.timelines.aSelected === count(A, row.name) && x.timelines.bSelected === count(B, row.name) && x;
      },
      { message: `${row.name} selected in A and B` },
    );
    assert.equal(v.key, 'tree');
    s.assertNoErrors();
  });
});
