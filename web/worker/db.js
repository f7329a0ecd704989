// A SQLite profile (Nsight Systems, Ascend): the engine opens it where it is and reads pages
// through engine_load_sqlite's reader, which calls self.strataDbRead(offset, n) synchronously
// (src/engine/wasm/browser_byte_reader.cc). A File or Blob is sliced with FileReaderSync, so a
// big database is never copied whole; a URL's body is fetched into a Blob first.
'use strict';
/* exported createDb */

// M: the engine module; sources: createSources(); trace: createTrace().
function createDb(M, sources, trace) {
  const { withString } = StrataWasm;

  // Opens a database with `open(name, size)` (an engine export answering 1 when it loaded) while
  // self.strataDbRead reads its bytes. opened: sources.open()'s answer, its first chunk already
  // read. Returns {ok, blob} or {ok: false, error} for a database that could not be read.
  async function openWith(opened, open) {
    try {
      await opened.chunks.return(); // the stream's read-ahead is not needed: pages are read by offset
    } catch (e) {
      /* already ended */
    }
    let blob = opened.source.blob;
    if (!blob) {
      try {
        blob = new Blob([await sources.readAll(opened.source)]);
      } catch (e) {
        return { ok: false, error: `reading the database failed: ${e.message || e}` };
      }
    }
    const reader = new FileReaderSync();
    self.strataDbRead = (offset, n) => new Uint8Array(reader.readAsArrayBuffer(blob.slice(offset, offset + n)));
    try {
      return { ok: withString(M, opened.name, (p) => open(p, blob.size)) === 1, blob };
    } finally {
      self.strataDbRead = null;
    }
  }

  // The database as the current trace. Returns {ok, error}.
  async function load(opened) {
    const r = await openWith(opened, (p, size) => M._engine_load_sqlite(p, size));
    if (r.error) return trace.fail(opened.name, r.error);
    if (!r.ok) return { ok: false, error: M.UTF8ToString(M._engine_last_error()) };
    sources.setCurrent({ blob: r.blob }, [{ blob: r.blob }]);
    return { ok: true };
  }

  return { load, openWith };
}
