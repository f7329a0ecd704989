// The Loss tab end to end: training logs opened like traces join the loss view (the loaded
// trace stays), default tags, strata.setLossTags re-extraction, and the comparison read back
// through strata.loss(), all checked against an independent extraction in this file (the
// seed's rules as regular expressions over the lines) and an independent join.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { dataPath, dataUrl, hasData, setupStrata, strataSuite } from './lib.mjs';

const MOE_KERNEL =
  'training_logs/megatron-deepspeed/MoE/gpt3-0.125B-tokendropping-graduallyIncrease-lr-3.0e-4-with-kernel.log';
const MOE = 'training_logs/megatron-deepspeed/MoE/gpt3-0.125B-tokendropping-graduallyIncrease-lr-3.0e-4.log';
const GPT_A = 'training_logs/deepspeedexamples/gpt_finetuning/train_my_implementation.log';
const GPT_B = 'training_logs/deepspeedexamples/gpt_finetuning/train_with_kernel.log';

// ---- independent reference --------------------------------------------------------------------
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
function extract(text, lossTag, iterationTag) {
  const lossRe = new RegExp(esc(lossTag) + '[ \\t]*([+-]?[0-9]+(?:\\.[0-9]*)?(?:[eE][+-]?[0-9]+)?)');
  const iterRe = new RegExp(esc(iterationTag) + '[ \\t]*([0-9]+)');
  const out = [];
  for (const line of text.split('\n')) {
    const l = lossRe.exec(line),
      i = iterRe.exec(line);
    if (l && i) out.push([Number(i[1]), Number(l[1])]);
  }
  return out;
}
function compare(a, b, mode) {
  const ma = new Map(a),
    mb = new Map(b); // a repeated iteration: the last line wins
  const its = [...ma.keys()].filter((k) => mb.has(k)).sort((x, y) => x - y);
  const points = its.map((it) => {
    const d = mb.get(it) - ma.get(it);
    const v =
      mode === 'normal' ? d : mode === 'absolute' ? Math.abs(d) : ma.get(it) !== 0 ? Math.abs(d) / ma.get(it) : null;
    return [it, v];
  });
  const vals = points.map((p) => p[1]).filter((v) => v !== null && Number.isFinite(v));
  const mean = vals.length ? vals.reduce((s, v) => s + v, 0) / vals.length : null;
  const max = vals.length ? Math.max(...vals) : null;
  return { points, mean, max };
}

// ---- generated logs ------------------------------------------------------------------------------
function logA() {
  let s = 'Using config train.yaml\n';
  for (let i = 1; i <= 50; ++i) {
    s += `[2024-01-01 00:00:${String(i % 60).padStart(2, '0')}] step: ${i} | train_loss: ${(5 / i + 0.01 * (i % 3)).toFixed(5)} | lr: ${(1e-4 * i).toExponential(3)}\n`;
    if (i % 10 === 0) s += `[eval] step: ${i} eval_loss 9.0\n`; // no train_loss: not a point
  }
  return s + 'step: 30 | train_loss: 0.25 | lr: 1e-9\n'; // a resumed run repeats iteration 30
}
function logB() {
  let s = 'setting training iterations to 100\n';
  for (let i = 5; i <= 70; i += 5) {
    s += ` iteration ${String(i).padStart(6)}/ 100 | elapsed time per iteration (ms): 12.5 | lm loss: ${(4.8 / i + 0.02).toExponential(6)} | loss scale: 2048.0 |\n`;
  }
  return s + 'iteration: 75 | lm loss: 0.1\n'; // ':' after the Iteration Tag: no point
}

describe('loss view', () => {
  let env, call, traceBefore;
  before(async () => {
    env = await setupStrata();
    call = env.session.call;
    traceBefore = await env.session.summary();
  });
  after(async () => {
    if (env) await env.close();
  });

  test('two generated logs load beside the trace with guessed tags', async () => {
    const { session } = env;
    const ra = await session.openBytes(Buffer.from(logA()), 'run-a.log');
    const rb = await session.openBytes(Buffer.from(logB()), 'run-b.log');
    assert.equal(ra.loss.name, 'run-a.log');
    assert.equal(rb.loss.points, extract(logB(), 'lm loss:', 'iteration').length);
    // The trace is untouched.
    const s = await session.summary();
    assert.deepEqual(s.files, traceBefore.files);
    assert.equal(s.events, traceBefore.events);
    assert.equal(await call(() => window.strata.tab()), 'loss');
    const loss = await call(() => window.strata.loss());
    assert.equal(loss.files.length, 2);
    const [a, b] = loss.files;
    assert.deepEqual([a.lossTag, a.iterationTag], ['train_loss:', 'step:']);
    assert.deepEqual([b.lossTag, b.iterationTag], ['lm loss:', 'iteration']);
    assert.deepEqual(a.points, extract(logA(), 'train_loss:', 'step:'));
    assert.deepEqual(b.points, extract(logB(), 'lm loss:', 'iteration'));
    assert.equal(a.points.length, 51);
    assert.equal(b.points.length, 14);
    session.assertNoErrors();
  });

  test('the comparison in every mode matches an independent join', async () => {
    const a = extract(logA(), 'train_loss:', 'step:'),
      b = extract(logB(), 'lm loss:', 'iteration');
    for (const mode of ['normal', 'absolute', 'relative']) {
      assert.equal(await call((m) => window.strata.setLossComparison('run-a.log', 'run-b.log', m), mode), true);
      const c = (await call(() => window.strata.loss())).comparison;
      const want = compare(a, b, mode);
      assert.equal(c.a, 'run-a.log');
      assert.equal(c.b, 'run-b.log');
      assert.equal(c.mode, mode);
      assert.deepEqual(c.points, want.points, mode);
      assert.equal(c.points.length, 10); // 5, 10, ... 50
      assert.ok(Math.abs(c.mean - want.mean) <= 1e-12 * Math.abs(want.mean), `${mode} mean ${c.mean} vs ${want.mean}`);
      assert.equal(c.max, want.max);
    }
    // Iteration 30 was logged twice in run-a: the later value (0.25) is the one compared.
    const c = (await call(() => window.strata.loss())).comparison;
    const b30 = b.find((p) => p[0] === 30)[1];
    assert.equal(c.points.find((p) => p[0] === 30)[1], Math.abs(b30 - 0.25) / 0.25);
    // Swapped order: Normal is later-chosen minus first-chosen.
    await call(() => window.strata.setLossComparison('run-b.log', 'run-a.log', 'normal'));
    assert.deepEqual((await call(() => window.strata.loss())).comparison.points, compare(b, a, 'normal').points);
    assert.equal(await call(() => window.strata.setLossComparison('run-b.log', 'nope.log', 'normal')), false);
  });

  test('setLossTags re-extracts from the kept file', async () => {
    const r = await call(() => window.strata.setLossTags('run-a.log', 'lr:', 'step:'));
    assert.equal(r.points, 51);
    let f = (await call(() => window.strata.loss())).files.find((x) => x.name === 'run-a.log');
    assert.deepEqual([f.lossTag, f.iterationTag], ['lr:', 'step:']);
    assert.deepEqual(f.points, extract(logA(), 'lr:', 'step:'));
    // A tag that never matches gives no points (and no comparison points), not an error.
    await call(() => window.strata.setLossTags('run-a.log', 'nothing-like-this:', 'step:'));
    const l = await call(() => window.strata.loss());
    f = l.files.find((x) => x.name === 'run-a.log');
    assert.equal(f.points.length, 0);
    assert.deepEqual(l.comparison.points, []);
    assert.equal(l.comparison.mean, null);
    await call(() => window.strata.setLossTags('run-a.log', 'train_loss:', 'step:'));
    assert.equal(await call(() => window.strata.setLossTags('nope.log', 'a', 'b')), null);
  });

  test('a gzip-compressed log is inflated as it streams, on import and on re-extraction', async () => {
    const { session } = env;
    // ~20 MB of text: several inflated pieces of 8 MB.
    let text = '';
    for (let i = 1; i <= 400000; ++i)
      text += `step: ${i} | train_loss: ${(5 / i).toFixed(6)} | tokens/s: ${1000 + (i % 97)}\n`;
    const r = await session.openBytes(zlib.gzipSync(Buffer.from(text)), 'big-run.log.gz');
    assert.equal(r.loss.name, 'big-run.log.gz');
    const f = (await call(() => window.strata.loss())).files.find((x) => x.name === 'big-run.log.gz');
    assert.deepEqual([f.lossTag, f.iterationTag], ['train_loss:', 'step:']);
    assert.deepEqual(f.points, extract(text, 'train_loss:', 'step:'));
    assert.equal(f.points.length, 400000);
    // Re-extraction inflates the kept compressed file again.
    const again = await call(() => window.strata.setLossTags('big-run.log.gz', 'tokens/s:', 'step:'));
    assert.equal(again.points, 400000);
    assert.deepEqual(
      (await call(() => window.strata.loss())).files.find((x) => x.name === 'big-run.log.gz').points,
      extract(text, 'tokens/s:', 'step:'),
    );
    session.assertNoErrors();
  });

  test("a zstd-compressed log joins the loss view with its plain copy's points", async () => {
    const { session } = env;
    const zst = execFileSync('zstd', ['-q', '-c'], { input: Buffer.from(logA()) });
    const r = await session.openBytes(zst, 'run-a.log.zst');
    assert.equal(r.loss.name, 'run-a.log.zst');
    const files = (await call(() => window.strata.loss())).files;
    const plain = files.find((x) => x.name === 'run-a.log'),
      f = files.find((x) => x.name === 'run-a.log.zst');
    assert.deepEqual([f.lossTag, f.iterationTag], [plain.lossTag, plain.iterationTag]);
    assert.ok(f.points.length > 0);
    assert.deepEqual(f.points, plain.points);
    // Re-extraction inflates the kept compressed file again.
    const again = await call(() => window.strata.setLossTags('run-a.log.zst', 'lr:', 'step:'));
    assert.equal(again.points, 51);
    assert.deepEqual(
      (await call(() => window.strata.loss())).files.find((x) => x.name === 'run-a.log.zst').points,
      extract(logA(), 'lr:', 'step:'),
    );
    session.assertNoErrors();
  });

  test('a log of the same name gets its own entry; the trace still answers', async () => {
    const { session } = env;
    const r = await session.openBytes(Buffer.from(logB()), 'run-b.log');
    assert.equal(r.loss.name, 'run-b.log (2)');
    assert.equal(await call(() => window.strata.setLossChecked('run-b.log (2)', false)), true);
    assert.equal(await call(() => window.strata.setTab('timeline')), true);
    assert.equal(await call(() => window.strata.tab()), 'timeline');
    const s = await session.summary();
    assert.deepEqual(s.files, traceBefore.files);
    const found = await session.find('a');
    assert.ok(found.count > 0, 'the trace is still searchable');
    await session.frame();
    session.assertNoErrors();
  });

  test('real Megatron-DeepSpeed pair by URL', { skip: !hasData(MOE) || !hasData(MOE_KERNEL) }, async () => {
    const { session } = env;
    await session.open(dataUrl(MOE));
    await session.open(dataUrl(MOE_KERNEL));
    const nameA = MOE.split('/').pop(),
      nameB = MOE_KERNEL.split('/').pop();
    await call(([a, b]) => window.strata.setLossComparison(a, b, 'absolute'), [nameA, nameB]);
    const l = await call(() => window.strata.loss());
    const fa = l.files.find((f) => f.name === nameA),
      fb = l.files.find((f) => f.name === nameB);
    const ta = fs.readFileSync(dataPath(MOE), 'utf8'),
      tb = fs.readFileSync(dataPath(MOE_KERNEL), 'utf8');
    assert.deepEqual(fa.points, extract(ta, 'lm loss:', 'iteration'));
    assert.deepEqual(fb.points, extract(tb, 'lm loss:', 'iteration'));
    assert.equal(fa.points.length, 12);
    assert.equal(fb.points.length, 213);
    const want = compare(fa.points, fb.points, 'absolute');
    assert.deepEqual(l.comparison.points, want.points);
    assert.equal(l.comparison.points.length, 12);
    assert.equal(l.comparison.max, want.max);
    assert.deepEqual((await session.summary()).files, traceBefore.files);
  });

  test(
    'real DeepSpeed pair: "Step at N with Perplexity: X"',
    { skip: !hasData(GPT_A) || !hasData(GPT_B) },
    async () => {
      const { session } = env;
      const ra = await session.openBytes(fs.readFileSync(dataPath(GPT_A)), 'gpt-a.log');
      const rb = await session.openBytes(fs.readFileSync(dataPath(GPT_B)), 'gpt-b.log');
      assert.deepEqual([ra.loss.lossTag, ra.loss.iterationTag], ['Perplexity:', 'Step at']);
      assert.equal(ra.loss.points, 524);
      assert.equal(rb.loss.points, 524);
      await call(() => window.strata.setLossComparison('gpt-a.log', 'gpt-b.log', 'relative'));
      const l = await call(() => window.strata.loss());
      const pa = extract(fs.readFileSync(dataPath(GPT_A), 'utf8'), 'Perplexity:', 'Step at');
      const pb = extract(fs.readFileSync(dataPath(GPT_B), 'utf8'), 'Perplexity:', 'Step at');
      assert.deepEqual(l.files.find((f) => f.name === 'gpt-a.log').points, pa);
      assert.deepEqual(l.comparison.points, compare(pa, pb, 'relative').points);
      await call(() => window.strata.setTab('loss'));
      await session.frame();
      session.assertNoErrors();
    },
  );
});

// The side list's actions by mouse, at the layout's fixed places (1280x720 viewport): the first
// file's Export CSV downloads its points, Remove asks first and then drops the file.
describe('loss side list actions', () => {
  let env;
  strataSuite((e) => (env = e));
  const click = async (s, x, y) => {
    await s.page.mouse.move(x, y);
    await s.frame();
    await s.page.mouse.down();
    await s.frame();
    await s.page.mouse.up();
    await s.frame();
  };

  test('Export CSV and Remove with confirmation', async () => {
    const s = env.session;
    const text = 'iteration 1 loss: 2.5\niteration 2 loss: 1e-3\niteration 3 loss: 7\n';
    await s.openBytes(Buffer.from(text), 'a.log');
    await s.frame();
    const [dl] = await Promise.all([s.page.waitForEvent('download', { timeout: 20_000 }), click(s, 129, 119)]);
    assert.equal(dl.suggestedFilename(), 'a.log.csv');
    const csv = fs.readFileSync(await dl.path(), 'utf8');
    assert.equal(
      csv,
      'iteration,loss\n' +
        extract(text, 'loss:', 'iteration')
          .map((p) => p.join(','))
          .join('\n') +
        '\n',
    );
    await click(s, 200, 119); // Remove: a confirmation, nothing removed yet
    assert.equal((await s.call(() => window.strata.loss())).files.length, 1);
    await click(s, 572, 378); // the dialog's Remove
    assert.equal((await s.call(() => window.strata.loss())).files.length, 0);
    assert.deepEqual(
      (await s.summary()).files.map((f) => f.name),
      ['demo-trace.json'],
    );
    s.assertNoErrors();
  });
});
