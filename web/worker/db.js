// A SQLite profile (Nsight Systems, Ascend): the engine opens it where it is and reads pages
// through engine_load_sqlite's reader, which calls self.strataDbRead(offset, n) synchronously
// (src/engine/wasm/browser_byte_reader.cc). A File or Blob is sliced with FileReaderSync, so a
// big database is never copied whole; a URL's body is fetched into a Blob first.
'use strict';
/* exported createDb */

// M: the engine module; sources: createSources(); trace: createTrace().
function createDb(M, sources, trace) {
  const { withString } = StrataWasm;

  // opened: sources.open()'s answer, its first chunk already read. Returns {ok, error}.
  async function load(opened) {
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
        return trace.fail(opened.name, `reading the database failed: ${e.message || e}`);
      }
    }
    const reader = new FileReaderSync();
    self.strataDbRead = (offset, n) => new Uint8Array(reader.readAsArrayBuffer(blob.slice(offset, offset + n)));
    let ok;
    try {
      ok = withString(M, opened.name, (p) => M._engine_load_sqlite(p, blob.size)) === 1;
    } finally {
      self.strataDbRead = null;
    }
    if (!ok) return { ok: false, error: M.UTF8ToString(M._engine_last_error()) };
    sources.setCurrent({ blob }, [{ blob }]);
    return { ok: true };
  }

  return { load };
}
