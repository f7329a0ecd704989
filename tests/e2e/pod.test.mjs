// A pod opened in the page: a generated 4-rank pod packed as tests/pod/pack_pod_test.sh packs it
// (strata_make_demo ranks, scripts/pack-pod with build/native/strata-pack) and served beside the
// app. ?pod= lists its hosts with the summaries pod.json gives them; two hosts open as one trace
// on one time axis (a section group each, every host's events at its own times, as when it is
// opened alone); a host whose bundle is missing gets its error in its row while the others open.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { REPO_ROOT, serverAndBrowser, newStrataPage, poll, tempDir } from './lib.mjs';

const PACK = path.join(REPO_ROOT, 'build/native/strata-pack');
const DEMO = path.join(REPO_ROOT, 'build/native/strata_make_demo');
const HAVE_TOOLS = fs.existsSync(PACK) && fs.existsSync(DEMO);
const HOSTS = ['rank0', 'rank1', 'rank2', 'rank3'];
const SHIFT_US = 1500;
// summary().startNs is a Number: at epoch scale it is good to 256 ns.
const NUMBER_NS = 512;

// The pod, packed before the server starts (its folder is mounted at /pod/).
const tmp = HAVE_TOOLS ? tempDir('strata-pod-') : null;
const OUT = tmp ? path.join(tmp.dir, 'out') : '';
if (tmp) {
  const input = path.join(tmp.dir, 'in');
  fs.mkdirSync(input);
  HOSTS.forEach((h, r) => {
    const file = path.join(input, `${h}.json`);
    execFileSync(DEMO, [file, '1', `${r}/4`], { stdio: 'ignore' });
    // Rank r starts r * SHIFT_US later, so each host has an offset of its own in the pod.
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(
      file,
      text.replace(/"ts": (\d+)\./g, (_, us) => `"ts": ${BigInt(us) + BigInt(r * SHIFT_US)}.`),
    );
  });
  execFileSync('bash', [path.join(REPO_ROOT, 'scripts/pack-pod'), input, OUT, '-j', '2'], {
    env: { ...process.env, STRATA_PACK: PACK },
    stdio: 'ignore',
  });
  process.on('exit', tmp.cleanup);
}
const manifest = () => JSON.parse(fs.readFileSync(path.join(OUT, 'pod.json'), 'utf8'));

describe('a pod manifest in the page', { skip: HAVE_TOOLS ? false : 'build/native/strata-pack not built' }, () => {
  const env = serverAndBrowser(tmp ? { '/pod/': OUT } : {});
  let s;
  before(async () => {
    s = await newStrataPage(env.browser);
    await s.goto(`${env.server.origin}/?pod=/pod/pod.json`);
  });
  const pod = () => s.call(() => window.strata.pod());
  const openHosts = (names) => s.call((n) => window.strata.openHosts(n), names, 120_000, `strata.openHosts(${names})`);
  // The processes' section names, in order (the Global process of each host included).
  const sections = async () => {
    await s.frame();
    return (await s.call(() => window.strata.trackHeaders())).processes.map((p) => p.name);
  };
  // Every event whose name holds `text`: how many, and the start of each (of the first 100).
  const found = async (text) => {
    const r = await s.call((t) => window.strata.find(t), text);
    return { count: r.count, ts: r.matches.map((m) => m.tsNs).sort((a, b) => a - b) };
  };

  test('?pod= lists every host with the summary pod.json gives it', async () => {
    const m = manifest();
    const table = await poll(pod, { message: 'strata.pod()' });
    assert.deepEqual(table.errors, []);
    assert.equal(table.base, m.base);
    assert.deepEqual(
      table.hosts.map((h) => h.name),
      HOSTS,
    );
    for (const [i, h] of table.hosts.entries()) {
      const want = m.hosts[i];
      assert.deepEqual(
        [h.bundle, h.offsetNs, h.spanNs, h.events, h.tracks, h.busyNs, h.steps, h.stepMedianNs],
        [want.bundle, want.offset, want.span, want.events, want.tracks, want.busy, want.steps, want.step],
        h.name,
      );
      assert.ok(h.steps > 0 && h.busyNs > 0, JSON.stringify(h));
      assert.equal(h.open, false);
    }
    // The Pod tab shows them, in name order until a column is sorted.
    await s.call(() => window.strata.setTab('pod'));
    await s.frame();
    assert.deepEqual((await s.call(() => window.strata.podView())).hosts, HOSTS);
    s.assertNoErrors();
  });

  test('two hosts open as one trace on one time axis, each a section group at its offset', async () => {
    const m = manifest();
    const one = await openHosts(['rank1']);
    const oneSections = await sections();
    const oneSteps = await found('ProfilerStep#');
    const three = await openHosts(['rank3']);
    const threeSections = await sections();
    const threeSteps = await found('ProfilerStep#');
    assert.deepEqual([one.errors, three.errors], [[], []]);
    assert.equal(one.events, m.hosts[1].events);
    assert.equal(three.events, m.hosts[3].events);
    assert.ok(oneSteps.count > 0, 'rank1 has steps');

    const both = await openHosts(['rank1', 'rank3']);
    assert.deepEqual(both.errors, []);
    assert.equal(both.events, one.events + three.events);
    assert.equal(both.tracks, one.tracks + three.tracks);
    // One axis: each host where its own clock put it, rank3 (offset - rank1's offset) later.
    assert.equal(both.startNs, Math.min(one.startNs, three.startNs));
    assert.equal(both.endNs, Math.max(one.endNs, three.endNs));
    const base = BigInt(m.base);
    assert.deepEqual(
      m.hosts.map((h) => h.offset),
      HOSTS.map((h, r) => r * SHIFT_US * 1000),
    );
    assert.ok(Math.abs(Number(BigInt(one.startNs) - base) - m.hosts[1].offset) < NUMBER_NS, `${one.startNs}`);
    assert.ok(Math.abs(Number(BigInt(three.startNs) - base) - m.hosts[3].offset) < NUMBER_NS, `${three.startNs}`);
    // rank1's sections, then rank3's, each named after its host (as each is when opened alone).
    assert.ok(oneSections.length > 0 && oneSections.every((n) => n.startsWith('rank1 ')), `${oneSections}`);
    assert.ok(
      threeSections.every((n) => n.startsWith('rank3 ')),
      `${threeSections}`,
    );
    assert.deepEqual(await sections(), [...oneSections, ...threeSections]);
    // A query sees both hosts' events at their own times.
    const stepsBoth = await found('ProfilerStep#');
    assert.equal(stepsBoth.count, oneSteps.count + threeSteps.count);
    if (stepsBoth.count <= 100)
      assert.deepEqual(
        stepsBoth.ts,
        [...oneSteps.ts, ...threeSteps.ts].sort((a, b) => a - b),
      );
    const table = await pod();
    assert.deepEqual(
      table.hosts.map((h) => [h.name, h.open, h.error]),
      HOSTS.map((h) => [h, h === 'rank1' || h === 'rank3', '']),
    );
    s.assertNoErrors();
  });

  test('a host whose bundle is missing gets its error in its row while the others open', async () => {
    const m = manifest();
    const bundle = path.join(OUT, 'rank2.strata');
    fs.renameSync(bundle, `${bundle}.gone`);
    try {
      const r = await openHosts(['rank0', 'rank2']);
      assert.equal(r.events, m.hosts[0].events);
      assert.ok(
        r.errors.some((e) => e.startsWith('rank2: ') && e.includes('404')),
        JSON.stringify(r.errors),
      );
      const table = await pod();
      const row = (n) => table.hosts.find((h) => h.name === n);
      assert.equal(row('rank0').open, true);
      assert.equal(row('rank2').open, false);
      assert.match(row('rank2').error, /404/);
      assert.deepEqual(
        (await sections()).filter((n) => !n.startsWith('rank0 ')),
        [],
      );
    } finally {
      fs.renameSync(`${bundle}.gone`, bundle);
    }
    s.assertNoErrors({ allowHttp: true });
  });
});
