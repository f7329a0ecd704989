// Perfetto protobuf traces in the browser: the tracing-perfetto sample is detected as Perfetto
// (not an XSpace), its slices are drawn on the timeline (pixels), a slice's debug annotations
// are the details pane's args, a gzip copy opens the same; and files Strata does not read at
// all are named as what they are, with the previous trace kept.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import zlib from 'node:zlib';
import {
  analyseImage,
  dataPath,
  dataUrl,
  poll,
  screenshotCanvas,
  skipUnlessData,
  strataSuite,
  tilesSettled,
} from './lib.mjs';

const SAMPLE = 'perfetto/tokio-tracing-perfetto/test.pftrace';

describe('perfetto', { skip: skipUnlessData(SAMPLE) }, () => {
  let env;
  strataSuite((e) => (env = e));

  test('opens the tracing-perfetto sample: slices drawn, thread tracks named', async () => {
    const { session, page } = env;
    const s = await session.open(dataUrl(SAMPLE));
    assert.deepEqual(s.errors, []);
    assert.equal(s.files[0].format, 'perfetto');
    // 227 begin/end slices and 8 instants (SOURCES.md; the native test decodes the file itself).
    assert.equal(s.events, 235);
    await tilesSettled(session);
    const { image } = await screenshotCanvas(page);
    const timeline = analyseImage(image, {
      region: {
        x: Math.round(image.width * 0.25),
        y: Math.round(image.height * 0.15),
        width: Math.round(image.width * 0.7),
        height: Math.round(image.height * 0.6),
      },
    });
    assert.ok(
      timeline.colourful > 2000 && timeline.distinctColourful >= 4,
      `slices drawn: ${JSON.stringify(timeline)}`,
    );
    session.assertNoErrors();
  });

  test("shows a slice's debug annotations as its args", async () => {
    const { session } = env;
    const found = await session.find('worker start');
    assert.ok(found.count > 0, JSON.stringify(found));
    await session.call((e) => window.strata.select({ event: e }), found.matches[0].event);
    const d = await poll(
      async () => {
        const v = await session.details();
        return v && v.args && Object.keys(v.args).length ? v : null;
      },
      { message: 'details() with args' },
    );
    assert.equal(d.name, 'worker start');
    assert.ok(Object.keys(d.args).length >= 1, JSON.stringify(d));
  });

  test('opens the same file gzip-compressed', async () => {
    const gz = zlib.gzipSync(fs.readFileSync(dataPath(SAMPLE)));
    const s = await env.session.openBytes(gz, 'test.pftrace.gz');
    assert.deepEqual(s.errors, []);
    assert.equal(s.files[0].format, 'perfetto');
    assert.equal(s.files[0].compression, 'gzip');
    assert.equal(s.events, 235);
  });

  test('a file Strata does not read is named as what it is; the trace stays', async () => {
    const { session } = env;
    const before_ = await session.summary();
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
    let s = await session.openBytes(png, 'chart.png');
    assert.ok(
      s.errors.some((e) => /chart\.png: a PNG image\. Strata reads .*Perfetto/.test(e)),
      JSON.stringify(s.errors),
    );
    assert.equal(s.events, before_.events);
    s = await session.openBytes(Buffer.alloc(256, 3), 'run.nsys-rep');
    assert.ok(
      s.errors.some((e) => /nsys export --type sqlite/.test(e)),
      JSON.stringify(s.errors),
    );
    s = await session.openBytes(zlib.gzipSync(Buffer.from('SQLite format 3\0' + 'x'.repeat(200))), 'profile.db.gz');
    assert.ok(
      s.errors.some((e) => /gzip-compressed: an SQLite database/.test(e)),
      JSON.stringify(s.errors),
    );
    assert.equal(s.events, before_.events);
  });
});
