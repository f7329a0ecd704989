// The advisor's Report on a real Kineto trace, as a user works it: strata.report() has a status,
// a summary written from the figures, findings by priority each with evidence whose links
// select existing events, and rules the file cannot feed listed as "not checked"; the Analysis
// tab's Report view shows the status, a click on a finding's evidence row selects its events in
// the timeline, and "Export HTML" downloads a self-contained file that loads in Chromium with
// every request blocked and makes none. An HLO module opened beside the trace feeds the HLO
// detectors, whose evidence row opens its instruction in the Graph tab; the supporting tables
// (step breakdown, top ops, roofline, memory) follow the findings. On a real JAX xplane (its
// HloProtos opened after the load) and a real Ascend folder, the new rules are listed as
// findings, passed or "not checked", and the Ascend rules apply to the Ascend profile only.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  boxCentre,
  clickMouse,
  dataUrl,
  folderEntries,
  hasData,
  openAnalysisSubTab,
  poll,
  setupStrata,
} from './lib.mjs';

const RESNET = 'pytorch_kineto/kineto-tb_plugin/resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz';
const skip = !hasData(RESNET) && 'needs ../shared/data';
const HLO_FILE = 'hlo/xla/hlo_llama31_70b_bf16_16x8.hlo';
const XPLANE = 'xplane/tracelens/jax_conv_minimal_08/tw003.xplane.pb';
const ASCEND = 'ascend/msinsight/text_level1';
const HLO_RULES = ['unfused_data_movement', 'layout_copies', 'upcast_reduce'];
const XLA_RULES = ['low_precision_share', 'debug_print_bound', 'barrier_cores_bound'];
const INPUT_RULES = ['host_processing_bound', 'data_transfer_bound', 'slow_dataloader', 'gc_pauses'];
const ASCEND_RULES = ['aicpu_tasks', 'slow_link', 'small_packets', 'unaligned_packets'];
const SUPPORT = ['Step breakdown', 'Top ops', 'Roofline', 'Memory'];

// Where a rule ended up in a report: 'finding', 'passed', 'notChecked', 'notApplicable' or null.
function placed(report, id) {
  if (report.findings.some((f) => f.id === id)) return 'finding';
  if (report.passed.includes(id)) return 'passed';
  if (report.notChecked.some((u) => u.id === id)) return 'notChecked';
  if (report.notApplicable.includes(id)) return 'notApplicable';
  return null;
}
const listed = (report, id) => ['finding', 'passed', 'notChecked'].includes(placed(report, id));

const view = (s) => s.call(() => window.strata.analysisView());

const openReport = (s) =>
  openAnalysisSubTab(s, 'advisor', (v) => v.report && v.report.status && v.layout.rows.length > 0, {
    available: false,
    timeout: 120_000,
    message: 'the Report view',
  });

// The Analysis tab keeps the table it drew: another sub-tab, then the Report again, asks anew.
async function reopenReport(s) {
  assert.equal(await s.call(() => window.strata.setTab('analysis')), true);
  const v = await poll(
    async () => {
      const w = await view(s);
      return w && w.layout.subTabs.length > 1 && w;
    },
    { timeout: 60_000, message: 'the sub-tabs' },
  );
  const other = v.analyses.findIndex((a) => a.name !== 'advisor' && a.available);
  const t = boxCentre(v.layout.subTabs[other]);
  await clickMouse(s, t.x, t.y);
  await poll(async () => (await view(s)).analysis === v.analyses[other].name, { message: 'another sub-tab' });
  return openReport(s);
}

describe('the advisor report', { skip }, () => {
  let env, s, report;
  before(async () => {
    env = await setupStrata();
    s = env.session;
    await s.open(dataUrl(RESNET));
    report = await s.call(() => window.strata.report(), undefined, 120_000);
  });
  after(async () => {
    if (env) await env.close();
  });

  test('strata.report(): status, summary, findings by priority with figures, rules not checked', () => {
    assert.ok(['OPTIMAL', 'NEEDS_ATTENTION'].includes(report.status), report.status);
    assert.ok(report.summary.length >= 2 && report.summary.length <= 5, report.summary.join(' | '));
    assert.deepEqual(report.ruleErrors, []);
    assert.ok(report.findings.length > 0, 'this input-bound trace has findings');
    assert.equal(report.status, report.findings.some((f) => f.priority !== 'P2') ? 'NEEDS_ATTENTION' : 'OPTIMAL');
    const ids = report.findings.map((f) => f.id);
    assert.ok(
      ids.includes('input_bound_high') || ids.includes('input_bound_moderate'),
      `the DataLoader wait is found: ${ids.join()}`,
    );
    for (let i = 1; i < report.findings.length; ++i)
      assert.ok(report.findings[i - 1].priority <= report.findings[i].priority, 'ordered by priority');
    for (const f of report.findings) {
      assert.ok(!/[{}]/.test(f.text), `every placeholder filled: ${f.text}`);
      assert.ok(f.figures.length > 0 && f.figures.every((g) => typeof g.value === 'number' && g.analysis));
      assert.ok(f.fix.length > 0);
    }
    // One rank, no HLO: those rules say what they need instead of passing.
    const unchecked = new Map(report.notChecked.map((u) => [u.id, u]));
    for (const id of ['stragglers', 'memory_bound', 'oom_risk'])
      assert.ok(
        unchecked.has(id) && unchecked.get(id).why.length > 0,
        `${id} not checked: ${JSON.stringify([...unchecked.keys()])}`,
      );
    assert.ok(!report.passed.includes('stragglers'));
  });

  test("every finding's evidence links events of the file", async () => {
    for (const f of report.findings)
      for (const e of f.evidence) {
        if (!e.link.name) {
          assert.ok(e.link.step >= 0 && e.link.part, `a step part link: ${JSON.stringify(e.link)}`);
          continue;
        }
        const r = await s.call(([n, t]) => window.strata.eventsNamed(n, t), [e.link.name, e.link.tracks]);
        assert.ok(r.count > 0, `${f.id}: ${e.label} selects events`);
      }
    assert.ok(
      report.findings.some((f) => f.evidence.length > 0),
      'some finding has evidence',
    );
  });

  test('the Report view: a click on an evidence row selects its events; Export HTML downloads the report', async () => {
    let v = await openReport(s);
    assert.equal(v.report.status, report.status);
    assert.deepEqual(v.report.summary, report.summary);
    const f = report.findings.find((x) => x.evidence.length > 0);
    // Expand the finding (its +), then click its first evidence row.
    const shown = v.rows.findIndex((r) => r.row === f.row);
    assert.ok(shown >= 0, 'the finding is shown');
    const box = v.layout.rows[shown - v.layout.firstRow];
    await clickMouse(s, box[0] + 8, box[1] + box[3] / 2);
    const evidenceRow = f.evidence[0].row;
    v = await poll(
      async () => {
        await s.frame();
        const w = await view(s);
        return w.rows.some((r) => r.row === evidenceRow) && w;
      },
      { message: 'the evidence rows shown' },
    );
    const ei = v.rows.findIndex((r) => r.row === evidenceRow);
    const eb = v.layout.rows[ei - v.layout.firstRow];
    await clickMouse(s, eb[0] + eb[2] * 0.3, eb[1] + eb[3] / 2);
    const sel = await poll(
      async () => {
        const x = await s.call(() => window.strata.selection());
        return x && x.count > 0 && x;
      },
      { timeout: 30_000, message: 'the evidence selected in the timeline' },
    );
    const link = f.evidence[0].link;
    if (link.name)
      assert.ok(
        sel.events.every((e) => e.name === link.name),
        'the evidence events',
      );

    v = await view(s);
    const b = boxCentre(v.report.exportButton);
    const [dl] = await Promise.all([s.page.waitForEvent('download', { timeout: 30_000 }), clickMouse(s, b.x, b.y)]);
    assert.equal(dl.suggestedFilename(), 'strata-report.html');
    const html = fs.readFileSync(await dl.path(), 'utf8');
    assert.equal(html, report.html, 'the file is the report the engine wrote');
    v = await view(s);
    assert.equal(v.report.exportedBytes, Buffer.byteLength(report.html, 'utf8'), 'the UTF-8 bytes the UI downloaded');
    s.assertNoErrors();
  });

  test('the HTML export is self-contained: it loads with the network blocked and makes no request', async () => {
    const page = await env.browser.newPage();
    const requests = [];
    await page.route('**/*', (route) => {
      requests.push(route.request().url());
      return route.abort();
    });
    page.on('request', (r) => {
      if (!r.url().startsWith('data:') && r.url() !== 'about:blank') requests.push(r.url());
    });
    await page.setContent(report.html, { waitUntil: 'load' });
    assert.deepEqual(requests, [], 'no request');
    assert.equal(await page.locator('script').count(), 0);
    assert.equal(await page.locator('#status').textContent(), `Status: ${report.status}`);
    assert.equal(await page.locator('.finding').count(), report.findings.length);
    assert.ok((await page.locator('svg').count()) >= 1, 'an inline SVG chart');
    const title = await page.locator('.finding h3').first().textContent();
    assert.ok(title.includes(report.findings[0].title), title);
    await page.close();
  });
  test('the supporting tables follow the findings, in the view and the HTML', () => {
    const titles = report.support.map((t) => t.title);
    assert.deepEqual(titles.slice(0, 1), ['Step breakdown']);
    assert.ok(titles.includes('Top kernels'), titles.join());
    const steps = report.support[0];
    assert.ok(steps.rows.length > 0 && steps.rows.every((r) => r.ns >= 0 && r.row > steps.row));
    const kernels = report.support.find((t) => t.title === 'Top kernels');
    assert.ok(kernels.rows.length > 0 && kernels.rows[0].ns >= kernels.rows.at(-1).ns, 'longest first');
    // No HLO module with peaks or a buffer assignment: they say what the file lacks.
    for (const t of ['Roofline', 'Memory']) {
      const x = report.support.find((y) => y.title === t);
      assert.ok(x && x.rows.length === 0 && x.missing.length > 0, JSON.stringify(x));
    }
    for (const id of [...INPUT_RULES, ...HLO_RULES]) assert.ok(listed(report, id), `${id}: ${placed(report, id)}`);
    for (const id of ASCEND_RULES) assert.equal(placed(report, id), 'notApplicable', id);
    assert.ok(report.html.includes('<h2 class="support">Top kernels</h2>'));
  });

  test(
    'an HLO file opened beside the trace: its detectors find instructions that open in the Graph tab',
    {
      skip: !hasData(HLO_FILE) && 'needs ../shared/data/' + HLO_FILE,
    },
    async () => {
      const before = await s.call(() => window.strata.report(), undefined, 120_000);
      assert.ok(
        HLO_RULES.every((id) => placed(before, id) === 'notChecked'),
        'no module yet',
      );
      await s.open(dataUrl(HLO_FILE));
      const r = await s.call(() => window.strata.report(), undefined, 120_000);
      for (const id of HLO_RULES) assert.ok(['finding', 'passed'].includes(placed(r, id)), `${id}: ${placed(r, id)}`);
      const f = r.findings.find((x) => HLO_RULES.includes(x.id) && x.evidence.length > 0);
      assert.ok(f, `an HLO detector finding: ${r.findings.map((x) => x.id).join()}`);
      const link = f.evidence[0].link;
      assert.ok(link.module && link.op && !link.name, JSON.stringify(link));
      // In the Report view: expand the finding, select its evidence row, "Open in graph".
      let v = await reopenReport(s);
      const shown = v.rows.findIndex((x) => x.row === f.row);
      assert.ok(shown >= 0, 'the finding is shown');
      const box = v.layout.rows[shown - v.layout.firstRow];
      await clickMouse(s, box[0] + 8, box[1] + box[3] / 2);
      v = await poll(
        async () => {
          await s.frame();
          const w = await view(s);
          return w.rows.some((x) => x.row === f.evidence[0].row) && w;
        },
        { message: 'the evidence rows shown' },
      );
      const ei = v.rows.findIndex((x) => x.row === f.evidence[0].row);
      const eb = v.layout.rows[ei - v.layout.firstRow];
      await clickMouse(s, eb[0] + eb[2] * 0.3, eb[1] + eb[3] / 2);
      v = await poll(
        async () => {
          await s.frame();
          const w = await view(s);
          return w.layout.graphButton && w.layout.graphButton[2] > 0 && w;
        },
        { message: 'the Open in graph button' },
      );
      const g = boxCentre(v.layout.graphButton);
      await clickMouse(s, g.x, g.y);
      const graph = await poll(
        async () => {
          if ((await s.call(() => window.strata.tab())) !== 'graph') return null;
          const x = await s.call(() => window.strata.graph());
          return x && x.selected === link.op && x;
        },
        { timeout: 60_000, message: 'the instruction selected in the Graph tab' },
      );
      assert.equal(graph.module, link.module);
      s.assertNoErrors();
    },
  );
});

describe('the advisor report on a JAX xplane with HloProtos', { skip: !hasData(XPLANE) && 'needs ' + XPLANE }, () => {
  let env, s;
  before(async () => {
    env = await setupStrata();
    s = env.session;
    await s.open(dataUrl(XPLANE));
  });
  after(async () => {
    if (env) await env.close();
  });

  test('the HLO detectors, precision share, prints and barriers are checked; Top ops lists HLO ops', async () => {
    // The HloProtos reach the graph session after the load: the detectors then run.
    const r = await poll(
      async () => {
        const x = await s.call(() => window.strata.report(), undefined, 120_000);
        return placed(x, 'unfused_data_movement') !== 'notChecked' && x;
      },
      { timeout: 120_000, message: 'the HLO detectors checked' },
    );
    assert.deepEqual(r.ruleErrors, []);
    for (const id of [...HLO_RULES, ...XLA_RULES]) assert.ok(listed(r, id), `${id}: ${placed(r, id)}`);
    for (const id of HLO_RULES) assert.notEqual(placed(r, id), 'notChecked', id);
    for (const id of ASCEND_RULES) assert.equal(placed(r, id), 'notApplicable', id);
    assert.deepEqual(
      r.support.map((t) => t.title),
      SUPPORT,
    );
    const top = r.support[1];
    assert.ok(top.rows.length > 0, 'top HLO ops');
    for (const f of r.findings)
      for (const e of f.evidence) {
        if (!e.link.name) continue;
        const n = await s.call(([a, t]) => window.strata.eventsNamed(a, t), [e.link.name, e.link.tracks]);
        assert.ok(n.count > 0, `${f.id}: ${e.label} selects events`);
      }
    s.assertNoErrors();
  });
});

describe('the advisor report on an Ascend folder', { skip: !hasData(ASCEND) && 'needs ' + ASCEND }, () => {
  let env, s;
  before(async () => {
    env = await setupStrata();
    s = env.session;
    await s.call((l) => window.strata.open(l), folderEntries(ASCEND), 120_000);
    await s.call((q) => window.strata.selectRun(q), { worker: 'rank0', view: 'Trace' }, 120_000);
  });
  after(async () => {
    if (env) await env.close();
  });

  test("the Ascend rules read rank0's trace_view.json; slow link needs several ranks; evidence selects events", async () => {
    const r = await s.call(() => window.strata.report(), undefined, 120_000);
    assert.deepEqual(r.ruleErrors, []);
    // rank0 runs no AI CPU task (kernel_details.csv has none); its HCCL tasks move small and
    // unaligned packets (a 4-byte all-reduce among them).
    assert.equal(placed(r, 'aicpu_tasks'), 'passed');
    assert.equal(placed(r, 'small_packets'), 'finding');
    assert.equal(placed(r, 'unaligned_packets'), 'finding');
    assert.equal(placed(r, 'slow_link'), 'notChecked');
    assert.match(r.notChecked.find((u) => u.id === 'slow_link').why, /several ranks/);
    for (const f of r.findings.filter((x) => ASCEND_RULES.includes(x.id)))
      for (const e of f.evidence) {
        const n = await s.call(([a, t]) => window.strata.eventsNamed(a, t), [e.link.name, e.link.tracks]);
        assert.ok(n.count > 0, `${f.id}: ${e.label} selects events`);
      }
    for (const id of INPUT_RULES) assert.ok(listed(r, id), `${id}: ${placed(r, id)}`);
    assert.equal(r.support[0].title, 'Step breakdown');
    s.assertNoErrors();
  });
});
