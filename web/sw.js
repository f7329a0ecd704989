// Strata's service worker: keeps this build's app files so Strata opens without network after the
// first visit. scripts/build.sh writes BUILD (a hash of the build's files: a new build is a new
// cache, and the old one is deleted) and FILES (the app's files, relative to this script).
// Only those files are answered from the cache; every other request (the traces you open) goes
// to the network untouched.
'use strict';
const BUILD = 'dev';
const FILES = ['index.html', 'strata.css', 'page/strata.js', 'worker/engine-worker.js']; // written by build.sh
const CACHE = `strata-${BUILD}`;
const BASE = new URL('./', self.location.href);

self.addEventListener('install', (e) => {
  // cache: 'reload' so the new build's files come from the server, not the HTTP cache.
  e.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(FILES.map((f) => new Request(new URL(f, BASE), { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (e) => {
  // No clients.claim(): the page that installed this worker keeps running as it started (its
  // files, its range reads straight from the server); the next visit is served from the cache.
  e.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith('strata-') && k !== CACHE).map((k) => caches.delete(k))),
      ),
  );
});

// The app file a request is for (the page itself whatever its ?query), or null.
function appFile(request) {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url);
  if (url.origin !== BASE.origin || !url.pathname.startsWith(BASE.pathname)) return null;
  const rel = url.pathname.slice(BASE.pathname.length) || 'index.html';
  return FILES.includes(rel) ? new URL(rel, BASE).href : null;
}

// A single "bytes=a-b" range of a cached file (the worker re-reads an event's bytes that way).
async function sliceResponse(resp, range) {
  const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  const blob = await resp.blob();
  if (!m || (m[1] === '' && m[2] === '')) return new Response(blob, { headers: resp.headers });
  const size = blob.size;
  const start = m[1] === '' ? Math.max(0, size - Number(m[2])) : Number(m[1]);
  const end = m[1] === '' || m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start > end || start >= size)
    return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${size}` } });
  const headers = new Headers(resp.headers);
  headers.set('Content-Range', `bytes ${start}-${end}/${size}`);
  headers.set('Content-Length', String(end - start + 1));
  return new Response(blob.slice(start, end + 1), { status: 206, headers });
}

self.addEventListener('fetch', (e) => {
  const key = appFile(e.request);
  if (!key) return;
  e.respondWith(
    caches
      .open(CACHE)
      .then((c) => c.match(key))
      .then((hit) => {
        if (!hit) return fetch(e.request);
        const range = e.request.headers.get('range');
        return range ? sliceResponse(hit, range) : hit;
      }),
  );
});
