// Shared helpers for Strata's end-to-end tests (node --test tests/e2e/).
// Dependencies: node built-ins and playwright-core (driving Debian's /usr/bin/chromium).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The built site; STRATA_DIST overrides it (e.g. to test another build of the same site). */
export const DIST_DIR = path.resolve(process.env.STRATA_DIST || path.join(REPO_ROOT, 'dist'));
/** Read-only sample traces (../shared/data); tests that need them skip when absent. */
export const SHARED_DATA_DIR = path.resolve(process.env.STRATA_SHARED_DATA || path.join(REPO_ROOT, '../shared/data'));
export const HAVE_SHARED_DATA = fs.existsSync(SHARED_DATA_DIR);
export const SUB_PATH = '/some/dir/';
export const CHROMIUM_PATH = process.env.STRATA_CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--enable-unsafe-swiftshader',
  '--use-angle=swiftshader',
  '--enable-webgl',
  '--ignore-gpu-blocklist',
];
export const VIEWPORT = { width: 1280, height: 720 };
/** Generous: SwiftShader + wasm compile on a loaded 2-core machine. */
export const READY_TIMEOUT_MS = 60_000;
export const OPEN_TIMEOUT_MS = 60_000;
export const CALL_TIMEOUT_MS = 30_000;

/** Rejects with message() if promise has not settled within ms. */
export function withTimeout(promise, ms, message) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(typeof message === 'function' ? message() : message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------------------------------------
// Data files

/** Absolute path of a file in ../shared/data (relative path as in SOURCES.md). */
export const dataPath = (rel) => path.join(SHARED_DATA_DIR, rel);
export const hasData = (rel) => HAVE_SHARED_DATA && fs.existsSync(dataPath(rel));
/** For node:test's {skip}: false when present, else a reason string. */
export const skipUnlessData = (...rels) => {
  const missing = rels.filter((r) => !hasData(r));
  return missing.length ? `sample data absent: ../shared/data/${missing[0]}` : false;
};
/** URL path under which the test server mounts ../shared/data. */
export const dataUrl = (rel) => '/data/' + rel.split('/').map(encodeURIComponent).join('/');

// A shared-data folder's files as strata.open takes a folder ([{path, url}]): paths from the
// folder's own name, as a dropped folder reports them, in name order; `skip`: paths left out.
export function folderEntries(rel, skip = []) {
  const root = dataPath(rel),
    base = path.dirname(root),
    out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(base, p).split(path.sep).join('/'));
    }
  };
  walk(root);
  return out
    .filter((p) => !skip.includes(p))
    .map((p) => ({ path: p, url: dataUrl(path.posix.join(path.posix.dirname(rel), p)) }));
}

/** dist/ must exist: the e2e suite fails (not skips) without it. */
export function requireDist() {
  if (!fs.existsSync(path.join(DIST_DIR, 'index.html'))) {
    throw new Error('dist/ missing: run scripts/build.sh');
  }
}

// ---------------------------------------------------------------------------------------------
// Independent trace-record counting (plain JSON or gzip), JSON.parse in node.

/** Reads a Chrome trace file (plain or gzip, detected by magic) and returns its text. */
export function readTraceText(fileOrBuffer) {
  let buf = Buffer.isBuffer(fileOrBuffer) ? fileOrBuffer : fs.readFileSync(fileOrBuffer);
  if (buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) buf = zlib.gunzipSync(buf);
  return buf.toString('utf8');
}

/** Parses a Chrome trace: object form ({traceEvents:[...]}) or array form (closing ']' optional). */
export function parseTrace(text) {
  let json;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const t = text.trimEnd();
    if (!t.trimStart().startsWith('[')) throw err;
    json = JSON.parse(t.replace(/,\s*$/, '') + ']'); // array form may omit the closing bracket
  }
  const records = Array.isArray(json) ? json : json && json.traceEvents;
  if (!Array.isArray(records)) throw new Error('not a Chrome trace: no traceEvents array');
  return { json, records };
}

/** A timestamp/duration in µs (number or decimal string) → ns as a Number (string path exact to 1 ns). */
export function usToNs(v) {
  if (typeof v === 'number') return v * 1000;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d*)?\s*$/.test(v)) {
    const s = v.trim();
    const neg = s.startsWith('-');
    const [ip, fp = ''] = s.replace('-', '').split('.');
    const ns = BigInt(ip) * 1000n + BigInt((fp + '000').slice(0, 3));
    return Number(neg ? -ns : ns);
  }
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v) * 1000;
  return NaN;
}

/**
 * Counts a trace's records by ph and computes the expected time bounds.
 * startNs/endNs: min ts / max (ts + dur for X) over records that have a numeric ts, excluding
 * metadata ('M') records.
 */
export function countTrace(fileOrBuffer) {
  const { records } = parseTrace(readTraceText(fileOrBuffer));
  const phases = {};
  let startNs = Infinity,
    endNs = -Infinity;
  for (const r of records) {
    if (!r || typeof r !== 'object') continue;
    const ph = String(r.ph);
    phases[ph] = (phases[ph] || 0) + 1;
    if (ph === 'M') continue;
    const ts = usToNs(r.ts);
    if (!Number.isFinite(ts)) continue;
    let end = ts;
    if (ph === 'X') {
      const d = usToNs(r.dur);
      if (Number.isFinite(d) && d > 0) end = ts + d;
    }
    if (ts < startNs) startNs = ts;
    if (end > endNs) endNs = end;
  }
  return { records, phases, total: records.length, startNs, endNs };
}

/** Events find() searches: X, i, I and B records; returns those whose name contains text (case-insensitive). */
export function matchNames(records, text) {
  const needle = text.toLowerCase();
  return records.filter(
    (r) =>
      r && ['X', 'i', 'I', 'B'].includes(r.ph) && typeof r.name === 'string' && r.name.toLowerCase().includes(needle),
  );
}

// ---------------------------------------------------------------------------------------------
// PNG decoding and screenshot analysis (own code: IHDR, IDAT, inflate, unfilter).

const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Decodes an 8-bit, non-interlaced PNG (grey, grey+alpha, RGB, RGBA, palette) to RGBA. */
export function decodePng(buf) {
  if (buf.length < 8 || !buf.subarray(0, 8).equals(PNG_SIG)) throw new Error('not a PNG');
  let pos = 8,
    ihdr = null,
    palette = null,
    trns = null;
  const idat = [];
  while (pos + 8 <= buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (body.length !== len) throw new Error(`PNG: chunk ${type} cut off`);
    pos += 12 + len; // length + type + data + CRC
    if (type === 'IHDR') {
      ihdr = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        bitDepth: body[8],
        colorType: body[9],
        compression: body[10],
        filter: body[11],
        interlace: body[12],
      };
    } else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') trns = body;
    else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
  }
  if (!ihdr) throw new Error('PNG: no IHDR');
  const { width, height, bitDepth, colorType, interlace } = ihdr;
  if (bitDepth !== 8) throw new Error(`PNG: bit depth ${bitDepth} not supported`);
  if (interlace !== 0) throw new Error('PNG: interlaced images not supported');
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType];
  if (!channels) throw new Error(`PNG: colour type ${colorType} not supported`);
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length < height * (stride + 1)) throw new Error('PNG: image data too short');
  const px = Buffer.alloc(height * stride);
  const bpp = channels; // bytes per pixel at 8 bits
  for (let y = 0; y < height; y++) {
    const ft = raw[y * (stride + 1)];
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = px.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? px.subarray((y - 1) * stride, y * stride) : null;
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? out[i - bpp] : 0;
      const b = prev ? prev[i] : 0;
      const c = prev && i >= bpp ? prev[i - bpp] : 0;
      let v;
      switch (ft) {
        case 0:
          v = src[i];
          break;
        case 1:
          v = src[i] + a;
          break;
        case 2:
          v = src[i] + b;
          break;
        case 3:
          v = src[i] + ((a + b) >> 1);
          break;
        case 4: {
          const p = a + b - c,
            pa = Math.abs(p - a),
            pb = Math.abs(p - b),
            pc = Math.abs(p - c);
          v = src[i] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
          break;
        }
        default:
          throw new Error(`PNG: bad filter type ${ft} on row ${y}`);
      }
      out[i] = v & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += 4) {
    const s = i * channels;
    switch (colorType) {
      case 0:
        rgba[j] = rgba[j + 1] = rgba[j + 2] = px[s];
        rgba[j + 3] = 255;
        break;
      case 4:
        rgba[j] = rgba[j + 1] = rgba[j + 2] = px[s];
        rgba[j + 3] = px[s + 1];
        break;
      case 2:
        rgba[j] = px[s];
        rgba[j + 1] = px[s + 1];
        rgba[j + 2] = px[s + 2];
        rgba[j + 3] = 255;
        break;
      case 6:
        rgba[j] = px[s];
        rgba[j + 1] = px[s + 1];
        rgba[j + 2] = px[s + 2];
        rgba[j + 3] = px[s + 3];
        break;
      case 3: {
        const k = px[s];
        if (!palette || k * 3 + 2 >= palette.length) throw new Error('PNG: palette index out of range');
        rgba[j] = palette[k * 3];
        rgba[j + 1] = palette[k * 3 + 1];
        rgba[j + 2] = palette[k * 3 + 2];
        rgba[j + 3] = trns && k < trns.length ? trns[k] : 255;
        break;
      }
    }
  }
  return { width, height, data: rgba };
}

/**
 * Colour statistics of a decoded image (optionally a sub-rectangle {x,y,width,height}).
 * background: the most frequent colour unless given as [r,g,b].
 * colourful: pixels whose max-min channel spread exceeds 48 (UI greys and text don't).
 */
export function analyseImage(img, { background = null, region = null } = {}) {
  const r0 = region || { x: 0, y: 0, width: img.width, height: img.height };
  const counts = new Map();
  const colourfulSet = new Set();
  let colourful = 0;
  for (let y = r0.y; y < r0.y + r0.height; y++) {
    for (let x = r0.x; x < r0.x + r0.width; x++) {
      const j = (y * img.width + x) * 4;
      const r = img.data[j],
        g = img.data[j + 1],
        b = img.data[j + 2];
      const key = (r << 16) | (g << 8) | b;
      counts.set(key, (counts.get(key) || 0) + 1);
      if (Math.max(r, g, b) - Math.min(r, g, b) > 48) {
        colourful++;
        colourfulSet.add(key);
      }
    }
  }
  let bgKey;
  if (background) bgKey = (background[0] << 16) | (background[1] << 8) | background[2];
  else {
    let best = -1;
    for (const [k, n] of counts)
      if (n > best) {
        best = n;
        bgKey = k;
      }
  }
  const pixels = r0.width * r0.height;
  const nonBackground = pixels - (counts.get(bgKey) || 0);
  return {
    width: r0.width,
    height: r0.height,
    pixels,
    distinctColours: counts.size,
    background: [(bgKey >> 16) & 255, (bgKey >> 8) & 255, bgKey & 255],
    nonBackground,
    nonBackgroundFraction: nonBackground / pixels,
    colourful,
    distinctColourful: colourfulSet.size,
  };
}

/** PNG screenshot of the canvas region, decoded: {png, image, box}. */
export async function screenshotCanvas(page, selector = '#canvas') {
  const box = await page.locator(selector).boundingBox();
  assert.ok(box && box.width > 0 && box.height > 0, `${selector} has no size on the page`);
  const png = await page.screenshot({ clip: box, type: 'png', animations: 'allow', timeout: 60_000 });
  return { png, image: decodePng(png), box };
}

// ---------------------------------------------------------------------------------------------
// Server, browser, page

/** Serves dist/ at / and at SUB_PATH, ../shared/data at /data/ (when present), plus extra mounts. */
export async function startStrataServer(extraMounts = {}) {
  requireDist();
  const mounts = { [SUB_PATH]: DIST_DIR, ...extraMounts };
  if (HAVE_SHARED_DATA) mounts['/data/'] = SHARED_DATA_DIR;
  const server = await startServer({ root: DIST_DIR, port: 0, host: '127.0.0.1', prefix: '/', mounts });
  return { ...server, subUrl: server.origin + SUB_PATH };
}

export async function launchBrowser() {
  // playwright's launch creates (and later deletes) a fresh user-data-dir.
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
}

/** Benign noise that is not the app's fault. */
const IGNORED = [/\/favicon\.ico\b/];

/**
 * Opens a page at 1280x720 (as a returning visitor unless firstVisit) and records its errors:
 *   pageErrors (uncaught exceptions), consoleErrors (console.error, also from workers),
 *   httpErrors (responses >= 400 and failed requests), crashes.
 */
export async function newStrataPage(browser, { firstVisit = false } = {}) {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  // A returning visitor unless asked: the first visit's note would move every tab's layout.
  if (!firstVisit)
    await context.addInitScript(() => {
      try {
        localStorage.setItem('strata.visited', '1');
      } catch (e) {
        /* a frame without storage: nothing to remember */
      }
    });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  const log = { pageErrors: [], consoleErrors: [], httpErrors: [], crashes: [] };
  const ignored = (s) => IGNORED.some((re) => re.test(s));
  const onConsole = (where) => (msg) => {
    if (msg.type() !== 'error') return;
    const loc = msg.location();
    const text = `${where}: ${msg.text()}${loc && loc.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`;
    if (!ignored(text)) log.consoleErrors.push(text);
  };
  page.on('pageerror', (err) => log.pageErrors.push(String((err && err.stack) || err)));
  page.on('console', onConsole('page'));
  page.on('worker', (w) => w.on('console', onConsole('worker')));
  page.on('crash', () => log.crashes.push('page crashed'));
  page.on('response', (r) => {
    if (r.status() >= 400 && !ignored(r.url())) log.httpErrors.push(`${r.status()} ${r.url()}`);
  });
  // A navigation cancels the requests the page it leaves still had in flight (a demo trace
  // still loading under a slow machine): those aborts belong to that page, not to an error.
  let navigations = 0;
  const startedIn = new WeakMap();
  page.on('request', (r) => startedIn.set(r, navigations));
  page.on('requestfailed', (r) => {
    const why = r.failure() && r.failure().errorText;
    if (why === 'net::ERR_ABORTED' && startedIn.get(r) < navigations) return;
    if (!ignored(r.url())) log.httpErrors.push(`failed ${r.url()}: ${why}`);
  });
  let firstErrorAt = 0;
  page.on('pageerror', () => {
    firstErrorAt = firstErrorAt || Date.now();
  });
  /** page.evaluate with a deadline, so a hung app fails the test instead of hanging the suite. */
  const call = (fn, arg, ms = CALL_TIMEOUT_MS, what = 'page call') =>
    withTimeout(
      page.evaluate(fn, arg),
      ms,
      () => `${what} did not finish within ${ms} ms; errors so far: ${JSON.stringify(log)}`,
    );
  const session = {
    page,
    context,
    log,
    call,
    /** Leaves the page for about:blank (what it still had in flight is aborted, not an error). */
    async leave() {
      navigations += 1;
      await page.goto('about:blank');
    },
    /**
     * Navigates and waits for window.strata and `await strata.ready`. Fails early on a crash or
     * a rejected ready, and 5 s after the first uncaught page error if the page is still not ready.
     */
    async goto(url) {
      firstErrorAt = 0;
      navigations += 1;
      await page.goto(url, { waitUntil: 'load', timeout: READY_TIMEOUT_MS });
      const t0 = Date.now();
      let state = 'not evaluated';
      for (;;) {
        try {
          state = await withTimeout(
            page.evaluate(() => {
              if (!window.strata || !window.strata.ready) return 'window.strata.ready absent';
              if (!window.__e2eReadyState) {
                window.__e2eReadyState = 'pending';
                Promise.resolve(window.strata.ready).then(
                  () => {
                    window.__e2eReadyState = 'ok';
                  },
                  (e) => {
                    window.__e2eReadyState = 'rejected: ' + ((e && e.message) || e);
                  },
                );
              }
              return window.__e2eReadyState;
            }),
            10_000,
            'evaluate',
          );
        } catch (err) {
          state = `evaluate failed: ${err.message}`;
        }
        if (state === 'ok') return;
        const why = state.startsWith('rejected')
          ? `strata.ready ${state}`
          : log.crashes.length
            ? 'the page crashed'
            : firstErrorAt && Date.now() - firstErrorAt > 5000
              ? 'uncaught page errors during start-up'
              : Date.now() - t0 > READY_TIMEOUT_MS
                ? `timed out after ${READY_TIMEOUT_MS} ms (${state})`
                : null;
        if (why) throw new Error(`${url}: ${why}; errors: ${JSON.stringify(log, null, 1)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    clearErrors() {
      for (const k of Object.keys(log)) log[k].length = 0;
    },
    /** Asserts no page errors, console errors, crashes (and, unless allowHttp, no failed requests). */
    assertNoErrors({ allowHttp = false, allowConsole = false, what = '' } = {}) {
      const bad = {
        pageErrors: log.pageErrors,
        crashes: log.crashes,
        ...(allowConsole ? {} : { consoleErrors: log.consoleErrors }),
        ...(allowHttp ? {} : { httpErrors: log.httpErrors }),
      };
      const n = Object.values(bad).reduce((s, a) => s + a.length, 0);
      assert.equal(n, 0, `unexpected errors${what ? ' ' + what : ''}: ${JSON.stringify(bad, null, 1)}`);
    },
    summary: () => call(() => window.strata.summary(), undefined, CALL_TIMEOUT_MS, 'strata.summary()'),
    view: () => call(() => window.strata.view(), undefined, CALL_TIMEOUT_MS, 'strata.view()'),
    setView: (s, e) => call(([a, b]) => window.strata.setView(a, b), [s, e], CALL_TIMEOUT_MS, 'strata.setView()'),
    frame: () => call(() => window.strata.frame(), undefined, CALL_TIMEOUT_MS, 'strata.frame()'),
    details: () => call(() => window.strata.details(), undefined, CALL_TIMEOUT_MS, 'strata.details()'),
    find: (text) => call((t) => window.strata.find(t), text, CALL_TIMEOUT_MS, `strata.find(${JSON.stringify(text)})`),
    locate: (ev) => call((e) => window.strata.locate(e), ev, CALL_TIMEOUT_MS, 'strata.locate()'),
    open: (url) => call((u) => window.strata.open(u), url, OPEN_TIMEOUT_MS, `strata.open(${JSON.stringify(url)})`),
    /** Opens bytes as an ArrayBuffer (bytes: Buffer/Uint8Array), or as a File when name is given. */
    openBytes: (bytes, name = null) =>
      call(
        async ({ b64, name }) => {
          const bin = atob(b64);
          const u8 = new Uint8Array(bin.length);
          for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
          return window.strata.open(name ? new File([u8], name) : u8.buffer);
        },
        { b64: Buffer.from(bytes).toString('base64'), name },
        OPEN_TIMEOUT_MS,
        `strata.open(${name || 'ArrayBuffer'})`,
      ),
    /** Focuses the canvas by clicking it at (fx, fy) fractions of its box and leaves the mouse there. */
    async focusCanvas(fx = 0.5, fy = 0.5) {
      const box = await page.locator('#canvas').boundingBox();
      const x = box.x + box.width * fx,
        y = box.y + box.height * fy;
      await page.mouse.click(x, y);
      await page.mouse.move(x, y);
      await session.frame();
      return { x, y, box };
    },
    /** Holds a key (KeyboardEvent.code, e.g. 'KeyW') across two rendered frames, like a person would. */
    async holdKey(code) {
      await page.keyboard.down(code);
      await session.frame();
      await page.keyboard.up(code);
      await session.frame();
    },
    close: () => context.close(),
  };
  return session;
}

/** Polls fn() until it returns a truthy value; returns it. Throws with the last value on timeout. */
export async function poll(fn, { timeout = 20_000, interval = 100, message = 'condition' } = {}) {
  const t0 = Date.now();
  let last;
  for (;;) {
    last = await fn();
    if (last) return last;
    if (Date.now() - t0 > timeout)
      throw new Error(`timed out after ${timeout} ms waiting for ${message}; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, interval));
  }
}

/**
 * Per-file fixture: server + one browser + one page at `/` (demo trace loaded).
 * Use in before()/after(): const env = await setupStrata(); ... await env.close().
 */
export async function setupStrata({ mounts = {}, path: startPath = '/' } = {}) {
  requireDist();
  const server = await startStrataServer(mounts);
  let browser;
  try {
    browser = await launchBrowser();
    const session = await newStrataPage(browser);
    await session.goto(server.origin + startPath);
    return {
      server,
      browser,
      session,
      page: session.page,
      async close() {
        await browser.close().catch(() => {});
        await server.close();
      },
    };
  } catch (err) {
    if (browser) await browser.close().catch(() => {});
    await server.close();
    throw err;
  }
}

/**
 * Registers before/after hooks in the calling describe(): one Strata page (setupStrata(opts)),
 * closed afterwards. ready(env) runs once it is up: to keep env, env.session, env.page in the
 * suite's own variables (`strataSuite((e) => ({ session: s, page } = env = e))`) or to prepare
 * the page further.
 */
export function strataSuite(ready, opts) {
  let env = null;
  before(async () => {
    env = await setupStrata(opts);
    await ready(env);
  });
  after(async () => {
    if (env) await env.close();
  });
}

/**
 * Until no tile is in flight and, two frames later, nothing new was asked for (the timeline's
 * tiles, strata.tileStats()); resolves to the last stats.
 */
export async function tilesSettled(session, { timeout = 30_000 } = {}) {
  const stats = () => session.call(() => window.strata.tileStats());
  return poll(
    async () => {
      const a = await stats();
      await session.frame();
      await session.frame();
      const b = await stats();
      return b.pending === 0 && b.requests === a.requests ? b : null;
    },
    { timeout, message: 'tiles settled' },
  );
}

/** Clicks at page pixel (x, y): move, press and release, a frame after each (the UI reads one
 * button change a frame). */
export async function clickMouse(session, x, y) {
  await session.page.mouse.move(x, y);
  await session.frame();
  await session.page.mouse.down();
  await session.frame();
  await session.page.mouse.up();
  await session.frame();
}

/** The centre {x, y} of a box [x, y, w, h] as strata's state reports boxes. */
export const boxCentre = (b) => ({ x: b[0] + b[2] / 2, y: b[1] + b[3] / 2 });

/**
 * Shows the Analysis tab's sub-tab `name` by clicking it, as a user does, and resolves with
 * strata.analysisView() once that analysis has loaded and `ready(view)` holds. `available`
 * (default true): the analysis must say it is available for this trace.
 */
export async function openAnalysisSubTab(session, name, ready, { available = true, timeout = 60_000, message } = {}) {
  const view = () => session.call(() => window.strata.analysisView());
  assert.equal(await session.call(() => window.strata.setTab('analysis')), true);
  const first = await poll(
    async () => {
      const v = await view();
      return v && v.analyses.length > 0 && v.layout.subTabs.length === v.analyses.length && v;
    },
    { timeout: 60_000, message: 'the sub-tabs' },
  );
  const i = first.analyses.findIndex((a) => a.name === name);
  assert.ok(i >= 0 && (!available || first.analyses[i].available), JSON.stringify(first.analyses));
  const t = boxCentre(first.layout.subTabs[i]);
  await clickMouse(session, t.x, t.y);
  return poll(
    async () => {
      const v = await view();
      return v && v.analysis === name && !v.loading && ready(v) && v;
    },
    { timeout, message: message || `the ${name} view` },
  );
}

/** Drags the mouse from a to b ({x, y} page pixels) in four steps, a frame after each. */
export async function dragMouse(session, a, b) {
  const { page } = session;
  await page.mouse.move(a.x, a.y);
  await session.frame();
  await page.mouse.down();
  await session.frame();
  for (let i = 1; i <= 4; i++) {
    await page.mouse.move(a.x + ((b.x - a.x) * i) / 4, a.y + ((b.y - a.y) * i) / 4, { steps: 2 });
    await session.frame();
  }
  await page.mouse.up();
  await session.frame();
}

/**
 * Registers before/after hooks in the calling describe(): the test server (dist/ plus `mounts`)
 * and one Chromium, closed afterwards. Returns {server, browser}, filled in by before().
 */
export function serverAndBrowser(mounts = {}) {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startStrataServer(mounts);
    env.browser = await launchBrowser();
  });
  after(async () => {
    if (env.browser) await env.browser.close().catch(() => {});
    if (env.server) await env.server.close();
  });
  return env;
}

/** A fresh temporary directory (removed by the returned cleanup function). */
export function tempDir(prefix = 'strata-e2e-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A bundle's tile index as `strata-pack --tiles` prints it (build/native's strata-pack): one
 * {tile, kind: 'events' | 'level' | 'counter', level, row, t0, t1, count, offset, length} per
 * tile (t0 and t1 as BigInt ns). Tests pick tiles by what they hold, not by where the packer put them.
 */
export function bundleTiles(bundle) {
  const pack = path.join(REPO_ROOT, 'build/native/strata-pack');
  const lines = execFileSync(pack, ['--tiles', bundle], { encoding: 'utf8' }).trim().split('\n');
  const head = lines.shift().split('\t');
  return lines.map((line) => {
    const v = line.split('\t');
    const t = Object.fromEntries(head.map((k, i) => [k, v[i]]));
    return {
      tile: Number(t.tile),
      kind: t.kind,
      level: Number(t.level),
      row: Number(t.row),
      t0: BigInt(t.t0),
      t1: BigInt(t.t1),
      count: Number(t.count),
      offset: Number(t.offset),
      length: Number(t.length),
    };
  });
}
