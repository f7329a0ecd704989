// Navigation (keys, wheel, drag) and selection (locate + click → details pane).
// Input is held across rendered frames, as a person's would be: SwiftShader draws only a few
// frames per second, and nothing here judges speed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { countTrace, dataPath, dataUrl, DIST_DIR, poll, skipUnlessData, strataSuite, usToNs } from './lib.mjs';

const DEMO_FILE = path.join(DIST_DIR, 'demo', 'demo-trace.json');
const SELECT_TRACE = 'pytorch_kineto/kineto-tb_plugin-test/gpu_metrics_input.json';

const width = (v) => v.endNs - v.startNs;
const centre = (v) => (v.startNs + v.endNs) / 2;
const fmt = (v) => `[${v.startNs}, ${v.endNs}] (width ${width(v)})`;

/** X events worth clicking: unique name among timeline events, positive duration; with args first. */
function clickCandidates(records) {
  const freq = new Map();
  for (const r of records) if (['X', 'B', 'i', 'I'].includes(r.ph)) freq.set(r.name, (freq.get(r.name) || 0) + 1);
  return records
    .filter((r) => r.ph === 'X' && typeof r.name === 'string' && freq.get(r.name) === 1 && usToNs(r.dur) > 0)
    .sort(
      (a, b) =>
        (Object.keys(b.args || {}).length > 0) - (Object.keys(a.args || {}).length > 0) ||
        usToNs(b.dur) - usToNs(a.dur),
    );
}

describe('navigation and selection', () => {
  let s, page;
  strataSuite((e) => ({ session: s, page } = e));

  /** Sets the view to fractions [f0, f1] of the loaded trace and returns view(). */
  async function viewFraction(f0, f1) {
    const sum = await s.summary();
    const w = sum.endNs - sum.startNs;
    await s.setView(sum.startNs + w * f0, sum.startNs + w * f1);
    await s.frame();
    return s.view();
  }
  async function canvasPoint(fx, fy = 0.5) {
    const box = await page.locator('#canvas').boundingBox();
    return { x: box.x + box.width * fx, y: box.y + box.height * fy };
  }

  test('setView() / view() round-trip', async () => {
    const sum = await s.summary();
    const w = sum.endNs - sum.startNs;
    const a = sum.startNs + w * 0.2,
      b = sum.startNs + w * 0.6;
    await s.setView(a, b);
    await s.frame();
    const v = await s.view();
    assert.ok(
      Math.abs(v.startNs - a) <= w * 1e-6 + 1 && Math.abs(v.endNs - b) <= w * 1e-6 + 1,
      `setView(${a}, ${b}) then view() = ${fmt(v)}`,
    );
    s.assertNoErrors();
  });

  test('W zooms in, S zooms out', async () => {
    await viewFraction(0.25, 0.75);
    await s.focusCanvas(0.5, 0.5);
    const v0 = await s.view();
    await s.holdKey('KeyW');
    const v1 = await s.view();
    assert.ok(width(v1) < width(v0) * 0.98, `W did not narrow the view: ${fmt(v0)} → ${fmt(v1)}`);
    await s.holdKey('KeyS');
    const v2 = await s.view();
    assert.ok(width(v2) > width(v1) * 1.02, `S did not widen the view: ${fmt(v1)} → ${fmt(v2)}`);
    s.assertNoErrors();
  });

  test('W zooms about the mouse position', async () => {
    for (const [fx, dir] of [
      [0.9, +1],
      [0.35, -1],
    ]) {
      await viewFraction(0.25, 0.75);
      await s.focusCanvas(fx, 0.5);
      const v0 = await s.view();
      await s.holdKey('KeyW');
      const v1 = await s.view();
      assert.ok(width(v1) < width(v0), `W did not zoom with the mouse at ${fx}: ${fmt(v0)} → ${fmt(v1)}`);
      assert.ok(
        Math.sign(centre(v1) - centre(v0)) === dir,
        `zooming with the mouse at x=${fx} of the canvas should move the view centre ${dir > 0 ? 'later' : 'earlier'}: ` +
          `${fmt(v0)} → ${fmt(v1)}`,
      );
    }
    s.assertNoErrors();
  });

  test('D pans later, A pans earlier', async () => {
    await viewFraction(0.25, 0.75);
    await s.focusCanvas(0.5, 0.5);
    const v0 = await s.view();
    await s.holdKey('KeyD');
    const v1 = await s.view();
    assert.ok(v1.startNs > v0.startNs, `D did not move the start later: ${fmt(v0)} → ${fmt(v1)}`);
    assert.ok(Math.abs(width(v1) - width(v0)) <= width(v0) * 0.02, `D changed the width: ${fmt(v0)} → ${fmt(v1)}`);
    await s.holdKey('KeyA');
    const v2 = await s.view();
    assert.ok(v2.startNs < v1.startNs, `A did not move the start earlier: ${fmt(v1)} → ${fmt(v2)}`);
    assert.ok(Math.abs(width(v2) - width(v1)) <= width(v1) * 0.02, `A changed the width: ${fmt(v1)} → ${fmt(v2)}`);
    s.assertNoErrors();
  });

  test('mouse wheel zooms (up: in, down: out)', async () => {
    await viewFraction(0.25, 0.75);
    const p = await canvasPoint(0.6, 0.5);
    await page.mouse.move(p.x, p.y);
    await s.frame();
    const v0 = await s.view();
    await page.mouse.wheel(0, -240);
    await s.frame();
    const v1 = await s.view();
    assert.ok(width(v1) < width(v0) * 0.99, `wheel up did not zoom in: ${fmt(v0)} → ${fmt(v1)}`);
    await page.mouse.wheel(0, 240);
    await s.frame();
    const v2 = await s.view();
    assert.ok(width(v2) > width(v1) * 1.01, `wheel down did not zoom out: ${fmt(v1)} → ${fmt(v2)}`);
    s.assertNoErrors();
  });

  /** Drags from a to b (canvas fractions) with `button`, a few frames per step. */
  async function drag(a, b, button = 'left') {
    await page.mouse.move(a.x, a.y);
    await s.frame();
    await page.mouse.down({ button });
    await s.frame();
    for (let i = 1; i <= 4; i++) {
      await page.mouse.move(a.x + ((b.x - a.x) * i) / 4, a.y + ((b.y - a.y) * i) / 4, { steps: 2 });
      await s.frame();
    }
    await page.mouse.up({ button });
    await s.frame();
  }

  test('dragging with the pan tool (2), or with the right button in any tool, pans', async () => {
    await viewFraction(0.25, 0.75);
    const a = await canvasPoint(0.7, 0.5),
      b = await canvasPoint(0.4, 0.5);
    await page.mouse.move(a.x, a.y);
    await page.keyboard.press('Digit2'); // pan tool
    await s.frame();
    let v0 = await s.view();
    await drag(a, b);
    let v1 = await s.view();
    assert.ok(v1.startNs > v0.startNs, `dragging left did not move the view later: ${fmt(v0)} → ${fmt(v1)}`);
    assert.ok(Math.abs(width(v1) - width(v0)) <= width(v0) * 0.02, `drag changed the width: ${fmt(v0)} → ${fmt(v1)}`);
    await page.keyboard.press('Digit1'); // back to the select tool: a right-drag still pans
    await s.frame();
    v0 = await s.view();
    await drag(b, a, 'right');
    v1 = await s.view();
    assert.ok(v1.startNs < v0.startNs, `right-dragging right did not move the view earlier: ${fmt(v0)} → ${fmt(v1)}`);
    s.assertNoErrors();
  });

  /**
   * Finds ev via find(), frames it in the middle half of the view, clicks its centre (from locate())
   * and polls details(). Returns false when locate() reports it not visible.
   */
  async function clickAndCheck(ev, label) {
    const tsNs = usToNs(ev.ts),
      durNs = usToNs(ev.dur);
    const found = await s.find(ev.name);
    const m = found.matches.find((x) => x.name === ev.name && Math.abs(x.tsNs - tsNs) <= 1000);
    assert.ok(
      m,
      `${label}: find(${JSON.stringify(ev.name)}) has no match at ${tsNs} ns: ${JSON.stringify(found).slice(0, 500)}`,
    );
    assert.ok(Math.abs(m.durNs - durNs) <= 1000, `${label}: find() durNs ${m.durNs}, file says ${durNs}`);
    assert.equal(String(m.pid), String(ev.pid), `${label}: find() pid`);
    assert.equal(String(m.tid), String(ev.tid), `${label}: find() tid`);
    await s.setView(tsNs - durNs * 0.5, tsNs + durNs * 1.5);
    await s.frame();
    const pt = await s.locate({ name: m.name, tsNs: m.tsNs, pid: m.pid, tid: m.tid });
    if (!pt) return false;
    const box = await page.locator('#canvas').boundingBox();
    assert.ok(
      pt.x >= box.x && pt.x <= box.x + box.width && pt.y >= box.y && pt.y <= box.y + box.height,
      `${label}: locate() = ${JSON.stringify(pt)} is outside the canvas ${JSON.stringify(box)}`,
    );
    await page.mouse.move(pt.x, pt.y);
    await s.frame();
    await page.mouse.down();
    await s.frame();
    await page.mouse.up();
    await s.frame();
    const wantArgs = ev.args || {};
    let last = null;
    try {
      await poll(
        async () => {
          last = await s.details();
          return (
            last && last.name === ev.name && last.args && Object.keys(last.args).length >= Object.keys(wantArgs).length
          );
        },
        { timeout: 15_000, message: `details() for ${ev.name}` },
      );
    } catch {
      assert.fail(
        `${label}: after clicking ${JSON.stringify(ev.name)} at ${JSON.stringify(pt)}, details() = ${JSON.stringify(last)}`,
      );
    }
    assert.ok(Math.abs(last.startNs - tsNs) <= 1000, `${label}: details().startNs ${last.startNs}, file ${tsNs}`);
    assert.ok(Math.abs(last.durNs - durNs) <= 1000, `${label}: details().durNs ${last.durNs}, file ${durNs}`);
    assert.equal(String(last.pid), String(ev.pid), `${label}: details().pid`);
    assert.equal(String(last.tid), String(ev.tid), `${label}: details().tid`);
    if (ev.cat !== undefined) assert.equal(last.cat, ev.cat, `${label}: details().cat`);
    assert.deepEqual(last.args, wantArgs, `${label}: details().args`);
    return true;
  }

  async function selectIn(records, label) {
    const cands = clickCandidates(records).slice(0, 4);
    assert.ok(cands.length > 0, `${label}: no uniquely named X event to click`);
    const tried = [];
    for (const ev of cands) {
      if (await clickAndCheck(ev, label)) return;
      tried.push(ev.name);
    }
    assert.fail(`${label}: locate() returned null for every candidate: ${JSON.stringify(tried)}`);
  }

  test(
    'clicking an event in the demo trace shows it in the details pane',
    { skip: !fs.existsSync(DEMO_FILE) && 'dist/demo/demo-trace.json absent' },
    async () => {
      const sum = await s.summary();
      assert.match(sum.files[0].name, /demo/i, 'demo trace still loaded');
      await selectIn(countTrace(DEMO_FILE).records, 'demo');
      s.assertNoErrors();
    },
  );

  test(
    `clicking an event in a real trace shows it and its args (${path.basename(SELECT_TRACE)})`,
    { skip: skipUnlessData(SELECT_TRACE) },
    async () => {
      const sum = await s.open(dataUrl(SELECT_TRACE));
      assert.deepEqual(sum.errors, [], 'open errors');
      await selectIn(countTrace(dataPath(SELECT_TRACE)).records, path.basename(SELECT_TRACE));
      s.assertNoErrors();
    },
  );
});
