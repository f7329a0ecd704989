// Calls into an Emscripten module (the engine in the worker, the UI on the page) with strings
// and byte arrays copied into its memory for the call. Pointers are read `>>> 0` (above 2 GB
// they arrive negative) and HEAPU8 is re-read after any call that may grow memory.
'use strict';
/* exported StrataWasm */

const StrataWasm = (() => {
  // fn(pointer to `s` as a NUL-terminated UTF-8 string); the string is freed after.
  function withString(M, s, fn) {
    const n = M.lengthBytesUTF8(s) + 1;
    const p = M._malloc(n);
    M.stringToUTF8(s, p, n);
    try {
      return fn(p);
    } finally {
      M._free(p);
    }
  }
  // fn(pointer, length) over a copy of `bytes` (a Uint8Array; at least 1 byte is allocated).
  function withBytes(M, bytes, fn) {
    const p = M._malloc(Math.max(bytes.length, 1));
    M.HEAPU8.set(bytes, p >>> 0);
    try {
      return fn(p, bytes.length);
    } finally {
      M._free(p);
    }
  }
  // The same for typed arrays of 4- or 8-byte elements (Uint32Array, Float64Array): fn(pointer, count).
  function withArray(M, array, fn) {
    const p = M._malloc(Math.max(array.byteLength, 8));
    if (array instanceof Float64Array) M.HEAPF64.set(array, (p >>> 0) / 8);
    else M.HEAPU32.set(array, (p >>> 0) / 4);
    try {
      return fn(p, array.length);
    } finally {
      M._free(p);
    }
  }
  // fn() with several strings: withStrings(M, ['a', 'b'], (pa, pb) => ...).
  function withStrings(M, list, fn, at = 0, ptrs = []) {
    if (at === list.length) return fn(...ptrs);
    return withString(M, String(list[at]), (p) => withStrings(M, list, fn, at + 1, ptrs.concat([p])));
  }

  // Streams `chunks` into one of the engine's consumers: each piece of at most `piece` bytes is
  // copied into the buffer `buffer(n)` returns (that call may grow wasm memory, so HEAPU8 is read
  // after it) and handed to `commit(n)`, which returns 1 once it has what it needs. `stop()` is
  // asked before each chunk (a newer trace replaced this one, say). Returns 'done', 'stopped' or
  // 'end' (the source ended first).
  async function feedChunks(M, chunks, buffer, commit, { piece = 256 << 10, stop = null } = {}) {
    for await (const bytes of chunks) {
      if (stop && stop()) return 'stopped';
      for (let off = 0; off < bytes.length; off += piece) {
        const n = Math.min(piece, bytes.length - off);
        const p = buffer(n) >>> 0;
        M.HEAPU8.set(bytes.subarray(off, off + n), p);
        if (commit(n) === 1) return 'done';
      }
    }
    return 'end';
  }

  // A module's compile, started as early as its page or worker can: compiled as its bytes arrive
  // (streaming) when the server says application/wasm, else from the whole bytes. A Promise of
  // the WebAssembly.Module.
  function compile(url) {
    const whole = () =>
      fetch(url, { credentials: 'same-origin' }).then((r) => {
        if (!r.ok) throw new Error(`HTTP ${r.status} for ${url}`);
        return r.arrayBuffer().then((bytes) => WebAssembly.compile(bytes));
      });
    if (typeof WebAssembly.compileStreaming !== 'function') return whole();
    // A wrong MIME type or a failed stream: the plain path, which says why if it fails too.
    return WebAssembly.compileStreaming(fetch(url, { credentials: 'same-origin' })).catch(whole);
  }
  // An Emscripten instantiateWasm hook instantiating the module compile() promised; `fail(error)`
  // is told when it cannot (the Emscripten module's ready promise then never resolves).
  function instantiateWith(compiled, fail) {
    return (imports, receive) => {
      compiled
        .then((module) => WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module)))
        .catch(fail);
      return {}; // the exports come later, by receive()
    };
  }

  return Object.freeze({ withString, withBytes, withArray, withStrings, feedChunks, compile, instantiateWith });
})();
