// The test tools themselves: scripts/serve.mjs, the PNG decoder and the trace counter.
// No browser and no dist/ needed.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { startServer } from '../../scripts/serve.mjs';
import { analyseImage, countTrace, decodePng, matchNames, tempDir } from './lib.mjs';

function request(port, p, { method = 'GET', headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: p, method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('scripts/serve.mjs', () => {
  let tmp, srv;
  before(async () => {
    tmp = tempDir();
    const root = path.join(tmp.dir, 'root');
    fs.mkdirSync(path.join(root, 'sub'), { recursive: true });
    fs.mkdirSync(path.join(tmp.dir, 'data'));
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>x</title>');
    fs.writeFileSync(path.join(root, 'm.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    fs.writeFileSync(path.join(root, 'a.js'), 'export {};');
    fs.writeFileSync(path.join(root, 't.json'), '{}');
    fs.writeFileSync(path.join(root, 't.json.gz'), zlib.gzipSync('{"traceEvents":[]}'));
    fs.writeFileSync(path.join(root, 'digits.txt'), '0123456789');
    fs.writeFileSync(path.join(root, 'sub', 'index.html'), 'sub');
    fs.writeFileSync(path.join(tmp.dir, 'secret.txt'), 'secret');
    fs.writeFileSync(path.join(tmp.dir, 'data', 'd.json'), '[]');
    srv = await startServer({ root, port: 0, prefix: '/app/', mounts: { '/data/': path.join(tmp.dir, 'data') } });
  });
  after(async () => {
    if (srv) await srv.close();
    if (tmp) tmp.cleanup();
  });

  test('port 0 picks a free port; url includes the prefix', () => {
    assert.ok(srv.port > 0);
    assert.equal(srv.url, `http://127.0.0.1:${srv.port}/app/`);
  });

  test('MIME types, no COOP/COEP, .gz served as-is', async () => {
    for (const [p, type] of [
      ['/app/', 'text/html'],
      ['/app/m.wasm', 'application/wasm'],
      ['/app/a.js', 'text/javascript'],
      ['/app/t.json', 'application/json'],
      ['/app/t.json.gz', 'application/gzip'],
      ['/data/d.json', 'application/json'],
    ]) {
      const r = await request(srv.port, p);
      assert.equal(r.status, 200, p);
      assert.equal(r.headers['content-type'].split(';')[0], type, p);
      assert.equal(r.headers['content-encoding'], undefined, p);
      assert.equal(r.headers['cross-origin-opener-policy'], undefined, p);
      assert.equal(r.headers['cross-origin-embedder-policy'], undefined, p);
    }
    const gz = await request(srv.port, '/app/t.json.gz');
    assert.equal(zlib.gunzipSync(gz.body).toString(), '{"traceEvents":[]}');
  });

  test('404, redirects to the directory, query strings ignored', async () => {
    assert.equal((await request(srv.port, '/app/nope.js')).status, 404);
    assert.equal((await request(srv.port, '/elsewhere')).status, 404);
    const r = await request(srv.port, '/app?url=x');
    assert.equal(r.status, 301);
    assert.equal(r.headers.location, '/app/?url=x');
    assert.equal((await request(srv.port, '/app/sub')).headers.location, '/app/sub/');
    assert.equal((await request(srv.port, '/app/sub/?a=1')).body.toString(), 'sub');
  });

  test('refuses path traversal', async () => {
    for (const p of [
      '/app/../secret.txt',
      '/app/%2e%2e/secret.txt',
      '/app/..%2fsecret.txt',
      '/app/sub/..%5c..%5csecret.txt',
      '/data/../secret.txt',
    ]) {
      const r = await request(srv.port, p);
      assert.ok(r.status === 403 || r.status === 404 || r.status === 400, `${p} → ${r.status}`);
      assert.ok(!r.body.toString().includes('secret\n') && r.body.toString() !== 'secret', p);
    }
  });

  test('HEAD and byte ranges', async () => {
    const h = await request(srv.port, '/app/digits.txt', { method: 'HEAD' });
    assert.equal(h.status, 200);
    assert.equal(h.headers['content-length'], '10');
    assert.equal(h.headers['accept-ranges'], 'bytes');
    assert.equal(h.body.length, 0);
    const cases = [
      ['bytes=2-4', 206, '234', 'bytes 2-4/10'],
      ['bytes=7-', 206, '789', 'bytes 7-9/10'],
      ['bytes=-3', 206, '789', 'bytes 7-9/10'],
      ['bytes=5-100', 206, '56789', 'bytes 5-9/10'],
    ];
    for (const [range, status, body, cr] of cases) {
      const r = await request(srv.port, '/app/digits.txt', { headers: { range } });
      assert.equal(r.status, status, range);
      assert.equal(r.body.toString(), body, range);
      assert.equal(r.headers['content-range'], cr, range);
    }
    const bad = await request(srv.port, '/app/digits.txt', { headers: { range: 'bytes=50-' } });
    assert.equal(bad.status, 416);
    assert.equal(bad.headers['content-range'], 'bytes */10');
    assert.equal((await request(srv.port, '/app/a.js', { method: 'POST' })).status, 405);
  });
});

/** Minimal PNG encoder for the decoder test: filter type per row = row % 5 (all five types). */
function encodePng(width, height, channels, pixels) {
  const colorType = { 1: 0, 2: 4, 3: 2, 4: 6 }[channels];
  const stride = width * channels;
  const rows = [];
  for (let y = 0; y < height; y++) {
    const f = y % 5,
      row = pixels.subarray(y * stride, (y + 1) * stride);
    const prev = y ? pixels.subarray((y - 1) * stride, y * stride) : Buffer.alloc(stride);
    const out = Buffer.alloc(stride + 1);
    out[0] = f;
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? row[i - channels] : 0,
        b = prev[i],
        c = i >= channels ? prev[i - channels] : 0;
      const p = a + b - c,
        pa = Math.abs(p - a),
        pb = Math.abs(p - b),
        pc = Math.abs(p - c);
      const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f];
      out[i + 1] = (row[i] - pred) & 255;
    }
    rows.push(out);
  }
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = colorType;
  const z = zlib.deflateSync(Buffer.concat(rows));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', z.subarray(0, 10)),
    chunk('IDAT', z.subarray(10)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('PNG decoder and image analysis', () => {
  test('decodes grey, grey+alpha, RGB and RGBA with all five filter types', () => {
    const w = 23,
      h = 11;
    let seed = 12345;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16) & 255;
    for (const ch of [1, 2, 3, 4]) {
      const px = Buffer.alloc(w * h * ch);
      for (let i = 0; i < px.length; i++) px[i] = rnd();
      const img = decodePng(encodePng(w, h, ch, px));
      assert.equal(img.width, w);
      assert.equal(img.height, h);
      for (let i = 0; i < w * h; i++) {
        const s = px.subarray(i * ch, (i + 1) * ch);
        const want =
          ch === 1
            ? [s[0], s[0], s[0], 255]
            : ch === 2
              ? [s[0], s[0], s[0], s[1]]
              : ch === 3
                ? [s[0], s[1], s[2], 255]
                : [s[0], s[1], s[2], s[3]];
        assert.deepEqual([...img.data.subarray(i * 4, i * 4 + 4)], want, `channels ${ch}, pixel ${i}`);
      }
    }
    assert.throws(() => decodePng(Buffer.from('not a png')), /not a PNG/);
  });

  test('counts colours and background', () => {
    const w = 10,
      h = 10,
      px = Buffer.alloc(w * h * 3, 20); // dark grey background
    for (let i = 0; i < 10; i++) {
      px[i * 3] = 200;
      px[i * 3 + 1] = 30;
      px[i * 3 + 2] = 30;
    } // 10 red pixels
    px[150] = 90;
    px[151] = 90;
    px[152] = 90; // one light grey pixel
    const a = analyseImage(decodePng(encodePng(w, h, 3, px)));
    assert.deepEqual(a.background, [20, 20, 20]);
    assert.equal(a.distinctColours, 3);
    assert.equal(a.nonBackground, 11);
    assert.equal(a.colourful, 10);
    assert.equal(a.distinctColourful, 1);
  });
});

describe('independent trace counter', () => {
  test('object form, array form without closing bracket, gzip, string timestamps', () => {
    const tmp = tempDir();
    try {
      const events = [
        { name: 'M1', ph: 'M', pid: 1, tid: 1, ts: 0, args: { name: 'p' } },
        { name: 'Foo', ph: 'X', pid: 1, tid: 1, ts: 10, dur: 5.5 },
        { name: 'foo bar', ph: 'B', pid: 1, tid: 2, ts: 12 },
        { ph: 'E', pid: 1, tid: 2, ts: 30 },
        { name: 'c', ph: 'C', pid: 1, ts: '11.250', args: { a: 1, b: 'x' } },
        { name: 'inst FOO', ph: 'i', pid: 1, tid: 1, ts: 9.5 },
      ];
      const files = {
        'o.json': JSON.stringify({ traceEvents: events }),
        'a.json': '[\n' + events.map((e) => JSON.stringify(e)).join(',\n') + ',\n',
      };
      for (const [n, t] of Object.entries(files)) fs.writeFileSync(path.join(tmp.dir, n), t);
      fs.writeFileSync(path.join(tmp.dir, 'o.json.gz'), zlib.gzipSync(files['o.json']));
      for (const n of ['o.json', 'a.json', 'o.json.gz']) {
        const c = countTrace(path.join(tmp.dir, n));
        assert.deepEqual(c.phases, { M: 1, X: 1, B: 1, E: 1, C: 1, i: 1 }, n);
        assert.equal(c.startNs, 9500, n);
        assert.equal(c.endNs, 30000, n);
        assert.deepEqual(
          matchNames(c.records, 'fOo').map((r) => r.ph),
          ['X', 'B', 'i'],
          n,
        );
      }
    } finally {
      tmp.cleanup();
    }
  });
});
