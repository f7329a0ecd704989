// Bad input: each failure gives a clear message in summary().errors, no page error, and leaves the
// previously loaded trace loaded and usable.
import { describe, test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  DIST_DIR,
  analyseImage,
  countTrace,
  dataPath,
  dataUrl,
  hasData,
  screenshotCanvas,
  setupStrata,
  tempDir,
} from './lib.mjs';
import { dropFolder } from './drop_folder.mjs';

const BASE_TRACE = 'chrome_trace/catapult/x_event_trace.json'; // loaded before the bad inputs
const CUT_TRACE = 'chrome_trace/catapult/flow.json'; // object form, cut mid-event
const INPUT_OK = 'chrome_trace/catapult/trivial_trace.json'; // a small valid trace
const DEMO_FILE = path.join(DIST_DIR, 'demo', 'demo-trace.json');

/** A real 2x2 RGB PNG (built here; the bytes look like a PNG image, not JSON). */
function tinyPng() {
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32 ? zlib.crc32(Buffer.concat([Buffer.from(type), data])) : 0);
    return Buffer.concat([len, Buffer.from(type, 'latin1'), data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const raw = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
    Buffer.alloc(200, 0xa5),
  ]);
}

/** A real trace cut in the middle of an event object, well inside the file. */
function truncatedTrace() {
  const src = hasData(CUT_TRACE) ? dataPath(CUT_TRACE) : DEMO_FILE;
  const text = fs.readFileSync(src);
  const at = text.indexOf('{"', Math.floor(text.length / 2)) + 1;
  const nameAt = text.indexOf('"name"', at);
  const cut = nameAt > 0 && nameAt < at + 400 ? nameAt + 9 : at + 12; // inside the event (ideally in its name)
  return { bytes: text.subarray(0, cut), cut, src };
}

describe('bad input', () => {
  let env, s, tmp, baseline, baseName, baseFind, baseUrl, before_;
  before(async () => {
    tmp = tempDir();
    env = await setupStrata({ mounts: { '/fixtures/': tmp.dir } });
    s = env.session;
    baseUrl = hasData(BASE_TRACE) ? dataUrl(BASE_TRACE) : '/demo/demo-trace.json';
    const sum = await s.open(baseUrl);
    assert.deepEqual(sum.errors, [], `loading ${baseUrl}`);
    baseline = await s.summary();
    baseName = baseline.files[0] && baseline.files[0].name;
    baseFind = await s.find('e');
    assert.ok(baseline.events > 0, `a trace is loaded before the bad inputs: ${JSON.stringify(baseline)}`);
  });
  // Each case starts from the baseline trace, so one failure does not cascade into the next.
  beforeEach(async () => {
    let cur = await s.summary();
    if (!cur.files[0] || cur.files[0].name !== baseName || cur.events !== baseline.events) {
      cur = await s.open(baseUrl);
      assert.equal(cur.events, baseline.events, `re-opening ${baseUrl} to restore the baseline`);
    }
    before_ = cur; // errors already listed before this case's open
    s.clearErrors();
  });
  after(async () => {
    if (env) await env.close();
    if (tmp) tmp.cleanup();
  });

  /** After a failed open: same trace loaded, same counts, view still works, no page error. */
  async function checkStillLoaded(sum, label) {
    for (const x of [sum, await s.summary()]) {
      assert.equal(x.events, baseline.events, `${label}: events changed after the failed open`);
      assert.deepEqual(x.phases, baseline.phases, `${label}: phases changed after the failed open`);
      assert.equal(x.files[0] && x.files[0].name, baseName, `${label}: files[0].name`);
    }
    const w = baseline.endNs - baseline.startNs;
    const a = baseline.startNs + w * 0.3,
      b = baseline.startNs + w * 0.55;
    await s.setView(a, b);
    await s.frame();
    const v = await s.view();
    assert.ok(
      Math.abs(v.startNs - a) <= w * 1e-6 + 1 && Math.abs(v.endNs - b) <= w * 1e-6 + 1,
      `${label}: setView(${a}, ${b}) after the failed open gave ${JSON.stringify(v)}`,
    );
    const found = await s.find('e');
    assert.equal(found && found.count, baseFind.count, `${label}: find('e').count after the failed open`);
    assert.deepEqual(s.log.pageErrors, [], `${label}: page errors`);
    assert.deepEqual(s.log.crashes, [], `${label}: crashes`);
  }

  /** The open's own message: errors not already listed before it (stale ones must not satisfy the check). */
  function expectError(sum, re, label) {
    assert.ok(Array.isArray(sum.errors), `${label}: summary.errors is not an array`);
    const fresh = sum.errors.filter((e) => !before_.errors.includes(e));
    assert.ok(
      fresh.length > 0,
      `${label}: no new error reported; errors ${JSON.stringify(sum.errors)}, ` +
        `warnings ${JSON.stringify(sum.warnings)}, events ${sum.events}, files ${JSON.stringify(sum.files)}`,
    );
    assert.match(fresh.join('\n'), re, `${label}: error message is not clear: ${JSON.stringify(fresh)}`);
  }

  test('0-byte file → "empty"', async () => {
    const sum = await s.openBytes(Buffer.alloc(0), 'empty.json');
    expectError(sum, /empty|0 bytes|no data/i, '0-byte file');
    await checkStillLoaded(sum, '0-byte file');
  });

  test('PNG-like binary → "not a Chrome trace"', async () => {
    const sum = await s.openBytes(tinyPng()); // as an ArrayBuffer
    expectError(sum, /not a (chrome|json)? ?trace|png|image|binary|not json|unrecogni[sz]ed|unsupported/i, 'PNG bytes');
    await checkStillLoaded(sum, 'PNG bytes');
  });

  test('a text file named .strata → "not one", not an empty training log', async () => {
    const sum = await s.openBytes(Buffer.from('hello, this is not a bundle\njust text\n'), 'run.strata');
    expectError(sum, /run\.strata: named as a Strata tile bundle \(\.strata\) but not one/, 'text named .strata');
    await checkStillLoaded(sum, 'text named .strata');
  });

  test('invalid UTF-8 inside a string → error naming UTF-8', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"traceEvents":[{"name":"bad'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('","ph":"X","ts":1,"dur":2,"pid":1,"tid":1}]}'),
    ]);
    const sum = await s.openBytes(bytes, 'bad-utf8.json');
    expectError(sum, /utf-?8/i, 'invalid UTF-8');
    // The rest of the file is good, so it loads, with the bad bytes replaced (U+FFFD).
    assert.equal(sum.files[0] && sum.files[0].name, 'bad-utf8.json', 'the file is loaded');
    assert.equal(sum.events, 1, 'its one event is loaded');
    const found = await s.find('bad');
    assert.equal(found.count, 1);
    assert.match(found.matches[0].name, /^bad\uFFFD/, 'invalid bytes become U+FFFD');
    assert.deepEqual(s.log.pageErrors, [], 'page errors');
  });

  test('truncated trace (cut mid-event) → "cut off at byte N"', async () => {
    const { bytes, cut, src } = truncatedTrace();
    fs.writeFileSync(path.join(tmp.dir, 'truncated.json'), bytes);
    const sum = await s.open('/fixtures/truncated.json');
    const label = `${path.basename(src)} cut at byte ${cut}`;
    expectError(sum, /cut off at byte \d+/i, label);
    // The rule: a file cut off mid-event loads what it holds and says where it was cut.
    const full = countTrace(src);
    const fullEvents = ['X', 'B', 'i', 'I'].reduce((n, ph) => n + (full.phases[ph] || 0), 0);
    assert.equal(sum.files[0] && sum.files[0].name, 'truncated.json', `${label}: the part it holds is loaded`);
    assert.ok(sum.events > 0 && sum.events < fullEvents, `${label}: events ${sum.events} of ${fullEvents}`);
    assert.ok(
      sum.errors.some((e) => e.includes(`byte ${cut}`) || /cut off at byte/.test(e)),
      `${label}: names the byte`,
    );
    assert.deepEqual(s.log.pageErrors, [], `${label}: page errors`);
  });

  test('{"traceEvents": 5} → "not a Chrome trace" / traceEvents', async () => {
    const sum = await s.openBytes(Buffer.from('{"traceEvents": 5}'), 'five.json');
    expectError(sum, /traceEvents|not a chrome trace/i, '{"traceEvents": 5}');
    await checkStillLoaded(sum, '{"traceEvents": 5}');
  });

  test('missing URL → "404" / "not found"', async () => {
    const sum = await s.open('/fixtures/no-such-file.json');
    expectError(sum, /404|not found/i, 'missing URL');
    await checkStillLoaded(sum, 'missing URL');
  });

  test('a valid file opens after a failure, with no stale errors', async () => {
    const failed = await s.openBytes(Buffer.from('{"traceEvents": 5}'), 'five.json');
    assert.ok(failed.errors.length > 0, 'the failure is reported');
    const file = hasData(INPUT_OK) ? dataPath(INPUT_OK) : DEMO_FILE;
    const url = hasData(INPUT_OK) ? dataUrl(INPUT_OK) : '/demo/demo-trace.json';
    const sum = await s.open(url);
    assert.equal(sum.files[0].name, path.basename(file), 'the new file is loaded');
    assert.deepEqual(sum.errors, [], 'errors after a good open');
    assert.deepEqual(sum.phases, countTrace(file).phases, 'phases after a good open');
    assert.deepEqual(s.log.pageErrors, [], 'page errors');
  });
  // A folder (or a pick of several files) of which nothing is a file Strata reads: one message
  // naming each file and what it looks like, in the UI's banner and summary().errors.
  const unreadable = () => [
    { name: 'plot.png', bytes: tinyPng() },
    { name: 'archive.zip', bytes: Buffer.concat([Buffer.from('PK\x03\x04\x14\0\0\0', 'latin1'), Buffer.alloc(64, 7)]) },
    { name: 'capture.nsys-rep', bytes: Buffer.concat([Buffer.from([0, 1, 0xfe, 0xfd]), Buffer.alloc(300, 0xc3)]) },
  ];
  const UNREAD =
    /none of the 3 files here is one Strata reads: .*plot\.png \(a PNG image\).*archive\.zip \(a ZIP archive.*capture\.nsys-rep \(an Nsight Systems report/;

  test('a dropped folder with nothing Strata reads says so and lists what it saw', async () => {
    const failed = s.page.evaluate(
      () =>
        new Promise((ok) => window.addEventListener('strata:loadfailed', (e) => ok(e.detail.error), { once: true })),
    );
    await dropFolder(
      s,
      'shots',
      unreadable().map((f) => ({ path: `shots/${f.name}`, bytes: f.bytes })),
    );
    const error = await failed;
    assert.match(error, UNREAD);
    assert.match(error, /Strata reads Chrome/);
    const sum = await s.summary();
    expectError(sum, UNREAD, 'folder of unreadable files');
    await s.frame();
    const st = await s.call(() => window.strata.state());
    assert.match(st.error, UNREAD, 'the UI shows the message');
    const b = st.errorBanner;
    assert.ok(b.h > 0, `an error banner: ${JSON.stringify(b)}`);
    const { image } = await screenshotCanvas(s.page);
    const banner = analyseImage(image, {
      region: { x: 0, y: Math.floor(b.y), width: Math.floor(b.button[0]), height: Math.floor(b.h) },
    });
    assert.ok(banner.colourful > 50, `the message is drawn in the error colour: ${JSON.stringify(banner)}`);
    await checkStillLoaded(sum, 'folder of unreadable files');
    await s.call(() => window.strata.setTab('timeline'));
  });

  test('several picked files with nothing Strata reads give the same one message', async () => {
    const sum = await s.call(
      (list) =>
        window.strata.open(
          list.map((f) => {
            const bin = atob(f.b64);
            const u8 = new Uint8Array(bin.length);
            for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
            return new File([u8], f.name);
          }),
        ),
      unreadable().map((f) => ({ name: f.name, b64: f.bytes.toString('base64') })),
    );
    expectError(sum, UNREAD, 'picked unreadable files');
    await checkStillLoaded(sum, 'picked unreadable files');
  });
});
