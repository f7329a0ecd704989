// Engine::load_sqlite: a database is opened where it is (a reader of its bytes), imported into a
// fresh store and installed as a load's end does; a failure keeps the trace shown.
#include <memory>
#include <new>

#include "core/formats/sqlite/sqlite_import.h"
#include "core/memory/ascend_db_memory.h"
#include "engine/engine.h"

namespace strata {

bool Engine::load_sqlite(std::string_view name, ByteReader* reader) {
  load_begin(name, reader->size());
  importer_.reset();  // no stream to feed
  preview_importer_.reset();
  preview_store_.reset();
  loading_->files[0].format = "sqlite";
  std::string error;
  bool ok = false;
  MemoryData memory;
  try {
    // One open for the timeline and the memory tables: SQLite's page cache and the reader's
    // blocks serve both.
    CachedByteReader cached(reader);
    std::unique_ptr<SqliteDb> db = SqliteDb::open(&cached, &error);
    ok = db && import_sqlite_db(db.get(), loading_.get(), &error);
    if (ok && loading_->files[0].format == "ascend-db") ascend_db_memory(db.get(), &memory);
  } catch (const std::bad_alloc&) {
    error = "out of memory while reading the database";
  }
  if (!ok) {
    load_fail(error);
    return false;
  }
  if (!install_built(std::move(loading_), reader->size())) return false;
  // An Ascend db's memory is the text export's model (operator allocations included), not its
  // timeline counters read back: the Memory tab shows what the CSVs would.
  if (!memory.empty()) {
    memory_finish(&memory);
    memory_ = std::move(memory);
  }
  return true;
}

}  // namespace strata
