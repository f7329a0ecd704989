// The Memory tab and the Memory Viewer one click apart for the same XLA module, on a real JAX
// GPU xplane with allocator memory events and HloProtos with buffer assignments. The Memory
// tab opens at the device's peak, names the XLA run that instant falls in (the module on the
// device's XLA Modules row) and its "Open in Memory Viewer" shows that module's buffer
// assignment; the Memory Viewer's "Show in Memory tab" comes back to the module's run on its
// device, zoomed to it, with what was live at the run's peak; and once more to the Viewer.
// State through strata.memoryView() / strata.analysisView().memoryViewer, the run checked
// against the trace's own XLA Modules event (strata.eventsNamed).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { boxCentre, clickMouse, dataUrl, poll, setupStrata, skipUnlessData } from './lib.mjs';

const XP = 'xplane/tracelens/jax_te_fused_attn/934987a2fc2f.xplane.pb';

const memoryView = (s) => s.call(() => window.strata.memoryView());
const viewer = async (s) => (await s.call(() => window.strata.analysisView()))?.memoryViewer;
const tab = async (s) => (await s.call(() => window.strata.state())).tab;
const centre = (b) => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 });

describe('the Memory tab and the Memory Viewer on one XLA module', { skip: skipUnlessData(XP) }, () => {
  let env, s, run;
  before(async () => {
    env = await setupStrata();
    s = env.session;
    await s.open(dataUrl(XP));
    // The trace's HloProtos reach the graph viewer's modules after the load.
    await poll(
      async () => {
        const list = await s.call(() => window.strata.analysis());
        return list.analyses.find((a) => a.name === 'memory_viewer' && a.available);
      },
      { timeout: 60_000, message: 'memory_viewer available' },
    );
  });
  after(async () => {
    if (env) await env.close();
  });

  test('the Memory tab names the run of its peak and opens its module in the Memory Viewer', async () => {
    assert.equal(await s.call(() => window.strata.setTab('memory')), true);
    const m = await poll(
      async () => {
        const v = await memoryView(s);
        return v.ready && v.xlaRun && v.viewerButton.w > 0 && v;
      },
      { timeout: 60_000, message: 'the live instant with its XLA run' },
    );
    // The tab opens at the device's peak, which lies in a run of an XLA program on its device.
    const mem = await s.call(() => window.strata.memory());
    const device = mem.devices.find((d) => d.name === m.device);
    assert.equal(m.liveT, device.peakRelNs);
    run = m.xlaRun;
    assert.equal(run.device, m.device);
    assert.equal(run.plane, '/device:GPU:0');
    assert.equal(run.bufferAssignment, true, JSON.stringify(run));
    assert.equal(run.during, run.startRelNs <= m.liveT);
    assert.ok(m.liveT <= run.endRelNs, `${m.liveT} after the run ${JSON.stringify(run)}`);
    // The run is the trace's XLA Modules event of that name and program.
    const named = await s.call((n) => window.strata.eventsNamed(n), `${run.module}(${run.programId})`);
    assert.equal(named.count, 1, JSON.stringify(named));
    assert.equal(named.summary[0].maxNs, run.endRelNs - run.startRelNs);

    await clickMouse(s, centre(m.viewerButton).x, centre(m.viewerButton).y);
    const v = await poll(
      async () => {
        const x = await viewer(s);
        return (await tab(s)) === 'analysis' && x?.drawn && x.moduleName === run.module && x;
      },
      { timeout: 60_000, message: `the Memory Viewer on ${run.module}` },
    );
    assert.equal(v.programId, run.programId);
    assert.equal(v.module, run.graphModule);
    // At the op's program point when the instant maps to one, else at the module's peak.
    assert.equal(v.point.point, run.point >= 0 ? run.point : v.peak.point);
    const answer = await s.call((i) => window.strata.analysis('memory_viewer', { module: i }), run.graphModule);
    assert.equal(answer.extra.moduleName, run.module);
    s.assertNoErrors();
  });

  test('the Memory Viewer shows the module in the Memory tab, and back', async () => {
    assert.ok(run, 'the first test found the run');
    let v = await viewer(s);
    assert.ok(v?.layout.memoryTab[2] > 0, 'Show in Memory tab is drawn');
    const b = boxCentre(v.layout.memoryTab);
    await clickMouse(s, b.x, b.y);
    const m = await poll(
      async () => {
        const x = await memoryView(s);
        return (await tab(s)) === 'memory' && x.focus.run && !x.focus.pending && x.xlaRun && x;
      },
      { timeout: 60_000, message: 'the Memory tab on the module' },
    );
    const f = m.focus.run;
    assert.equal(m.focus.module, v.moduleName);
    assert.equal(m.focus.programId, v.programId);
    assert.equal(f.module, v.moduleName);
    assert.equal(f.programId, v.programId);
    assert.equal(f.device, m.device, 'on the device the module ran on');
    assert.equal(m.focus.runs, 1);
    // Zoomed to the run (and the gap before it, where its buffers are allocated), with what was
    // live at its peak: here the device's own peak, in the same run.
    assert.ok(m.view[0] <= Math.min(f.startRelNs, f.peakRelNs) && m.view[1] >= f.endRelNs, JSON.stringify(m.view));
    assert.ok(m.view[1] - m.view[0] < 2 * (f.endRelNs - Math.min(f.startRelNs, f.peakRelNs)), 'zoomed in');
    assert.equal(m.liveT, f.peakRelNs);
    const mem = await s.call(() => window.strata.memory());
    assert.equal(f.peakBytes, mem.devices.find((d) => d.name === m.device).peakBytes);
    assert.equal(m.xlaRun.module, v.moduleName, 'the live instant is in the module');
    // And back to the Memory Viewer on the same module.
    await clickMouse(s, centre(m.viewerButton).x, centre(m.viewerButton).y);
    v = await poll(
      async () => {
        const x = await viewer(s);
        return (await tab(s)) === 'analysis' && x?.drawn && x.moduleName === f.module && x;
      },
      { timeout: 60_000, message: 'the Memory Viewer again' },
    );
    assert.equal(v.programId, f.programId);
    s.assertNoErrors();
  });
});
