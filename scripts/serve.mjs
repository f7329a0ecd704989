#!/usr/bin/env node
// Strata's tiny static file server: no dependencies, no special headers (no COOP/COEP).
//
//   node scripts/serve.mjs [--root dist] [--port 8080] [--host 127.0.0.1] [--prefix /]
//                          [--mount /data/=../shared/data ...] [--log]
//
// Serves files under --root at URL --prefix with correct MIME types (.wasm is application/wasm
// so streaming compilation works; .gz is served as-is as application/gzip with no
// Content-Encoding), supports GET, HEAD and single byte ranges, answers 404 for anything it
// does not have and 403 for path traversal. --port 0 picks a free port.
//
// In-process use (tests):  const s = await startServer({root, port: 0, mounts: {'/data/': dir}});
//                          s.url, s.port, await s.close()
import http from 'node:http';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.gz': 'application/gzip',
  '.zst': 'application/zstd',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.xml': 'application/xml',
  '.webmanifest': 'application/manifest+json',
  '.pb': 'application/octet-stream',
  '.data': 'application/octet-stream',
};

export function mimeType(file) {
  return MIME_TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream';
}

/** Normalises a URL prefix to "/", or "/a/b/" (leading and trailing slash). */
function normPrefix(p) {
  let s = String(p || '/').trim();
  if (!s.startsWith('/')) s = '/' + s;
  if (!s.endsWith('/')) s += '/';
  return s.replace(/\/{2,}/g, '/');
}

/**
 * Parses a Range header against a file size.
 * Returns null (no usable range: serve the whole file), {start, end} (inclusive), or 'unsatisfiable'.
 * Multiple ranges are not supported: the whole file is served (allowed by RFC 9110).
 */
export function parseRange(header, size) {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return null; // malformed or multi-range: ignore
  const [, a, b] = m;
  if (a === '' && b === '') return null;
  let start, end;
  if (a === '') {
    // suffix range: last N bytes
    const n = Number(b);
    if (n === 0) return 'unsatisfiable';
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
    if (b !== '' && Number(b) < start) return null; // invalid: ignore per RFC
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}

function sendText(res, status, text, extra = {}) {
  const body = Buffer.from(text + '\n');
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': body.length,
    'Cache-Control': 'no-cache',
    ...extra,
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

/**
 * Starts the server. Resolves to {server, port, host, url, close()} once listening.
 * root is served at prefix; mounts maps more URL prefixes to directories ({'/data/': dir}).
 * The longest matching URL prefix wins.
 */
export async function startServer({
  root = 'dist',
  port = 8080,
  host = '127.0.0.1',
  prefix = '/',
  mounts = {},
  log = false,
} = {}) {
  const table = [];
  const addMount = async (urlPrefix, dir) => {
    const abs = path.resolve(dir);
    let real;
    try {
      real = await fsp.realpath(abs);
    } catch {
      throw new Error(`serve: directory not found: ${abs}`);
    }
    if (!(await fsp.stat(real)).isDirectory()) throw new Error(`serve: not a directory: ${abs}`);
    table.push({ prefix: normPrefix(urlPrefix), dir: real });
  };
  await addMount(prefix, root);
  for (const [p, d] of Object.entries(mounts || {})) if (d) await addMount(p, d);
  table.sort((x, y) => y.prefix.length - x.prefix.length);

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) sendText(res, 500, `500 Internal Server Error`);
      else res.destroy(err);
    });
    if (log) res.on('finish', () => console.log(`${res.statusCode} ${req.method} ${req.url}`));
  });

  async function handle(req, res) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendText(res, 405, '405 Method Not Allowed', { Allow: 'GET, HEAD' });
    }
    const rawUrl = req.url || '/';
    const qIndex = rawUrl.search(/[?#]/);
    const rawPath = qIndex < 0 ? rawUrl : rawUrl.slice(0, qIndex);
    const query = qIndex < 0 ? '' : rawUrl.slice(qIndex);
    let urlPath;
    try {
      urlPath = decodeURIComponent(rawPath);
    } catch {
      return sendText(res, 400, '400 Bad Request');
    }
    if (!urlPath.startsWith('/') || urlPath.includes('\0')) return sendText(res, 400, '400 Bad Request');
    // Refuse traversal outright (also catches %2e%2e and backslash forms) rather than normalising.
    const segments = urlPath.split(/[/\\]/);
    if (segments.some((s) => s === '..')) return sendText(res, 403, '403 Forbidden');

    // "/some/dir" where "/some/dir/" is a mount: redirect so relative URLs resolve.
    for (const m of table) {
      if (m.prefix !== '/' && urlPath === m.prefix.slice(0, -1)) {
        return sendText(res, 301, '301 Moved Permanently', { Location: m.prefix + query });
      }
    }
    const mount = table.find((m) => urlPath.startsWith(m.prefix));
    if (!mount) return sendText(res, 404, `404 Not Found: ${urlPath}`);
    const rel = urlPath.slice(mount.prefix.length);
    const file = path.join(mount.dir, ...rel.split('/').filter((s) => s && s !== '.'));
    // No '..' segment survives the check above, so file is inside mount.dir. Symlinks placed in the
    // served tree by its owner are followed (like most static servers).
    let real = file,
      st;
    try {
      st = await fsp.stat(real);
    } catch {
      return sendText(res, 404, `404 Not Found: ${urlPath}`);
    }
    if (st.isDirectory()) {
      if (!urlPath.endsWith('/')) {
        return sendText(res, 301, '301 Moved Permanently', { Location: encodeURI(urlPath + '/') + query });
      }
      real = path.join(real, 'index.html');
      try {
        st = await fsp.stat(real);
      } catch {
        return sendText(res, 404, `404 Not Found: ${urlPath}`);
      }
    }
    if (!st.isFile()) return sendText(res, 404, `404 Not Found: ${urlPath}`);

    const size = st.size;
    const headers = {
      'Content-Type': mimeType(real),
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'no-cache',
      'Last-Modified': st.mtime.toUTCString(),
    };
    const range = parseRange(req.headers.range, size);
    if (range === 'unsatisfiable') {
      return sendText(res, 416, '416 Range Not Satisfiable', { 'Content-Range': `bytes */${size}` });
    }
    let status = 200,
      start = 0,
      end = size - 1;
    if (range) {
      status = 206;
      ({ start, end } = range);
      headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    }
    headers['Content-Length'] = size === 0 ? 0 : end - start + 1;
    res.writeHead(status, headers);
    if (req.method === 'HEAD' || size === 0) return res.end();
    await new Promise((resolve, reject) => {
      const stream = fs.createReadStream(real, { start, end });
      stream.on('error', reject);
      res.on('close', () => {
        stream.destroy();
        resolve();
      });
      stream.pipe(res).on('finish', resolve);
    });
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = server.address().port;
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  const origin = `http://${hostForUrl}:${actualPort}`;
  const sockets = new Set();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    server,
    host,
    port: actualPort,
    origin,
    url: origin + normPrefix(prefix),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy(); // keep-alive connections from the browser
      }),
  };
}

function parseArgs(argv) {
  const opts = { root: 'dist', port: 8080, host: '127.0.0.1', prefix: '/', mounts: {}, log: false };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i],
      val;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      val = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    const next = () => {
      if (val !== undefined) return val;
      if (i + 1 >= argv.length) throw new Error(`serve: ${arg} needs a value`);
      return argv[++i];
    };
    switch (arg) {
      case '--root':
        opts.root = next();
        break;
      case '--port': {
        const v = next();
        opts.port = Number(v);
        if (!/^\d+$/.test(v) || opts.port > 65535) throw new Error(`serve: bad --port ${v}`);
        break;
      }
      case '--host':
        opts.host = next();
        break;
      case '--prefix':
        opts.prefix = next();
        break;
      case '--mount': {
        const v = next();
        const k = v.indexOf('=');
        if (k <= 0) throw new Error(`serve: --mount wants /url/prefix/=directory, got ${v}`);
        opts.mounts[v.slice(0, k)] = v.slice(k + 1);
        break;
      }
      case '--log':
        opts.log = true;
        break;
      case '-h':
      case '--help':
        console.log(
          'usage: node scripts/serve.mjs [--root dist] [--port 8080] [--host 127.0.0.1] ' +
            '[--prefix /] [--mount /data/=DIR]... [--log]',
        );
        process.exit(0);
        break;
      default:
        throw new Error(`serve: unknown argument ${arg}`);
    }
  }
  return opts;
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
    const s = await startServer(opts);
    console.log(`Strata is at ${s.url}`);
    const stop = () => {
      s.close().then(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
