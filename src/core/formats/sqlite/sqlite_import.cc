#include "core/formats/sqlite/sqlite_import.h"

#include <algorithm>
#include <memory>

#include "core/formats/sqlite/ascend_db.h"
#include "core/formats/sqlite/nsys_sqlite.h"
#include "core/formats/sqlite/sqlite_db.h"
#include "core/store/trace_builder.h"

namespace strata {

namespace {

SqliteKind kind_of(const SqliteDb& db) {
  if (is_nsys_db(db)) return SqliteKind::kNsys;
  if (is_ascend_profiler_db(db)) return SqliteKind::kAscend;
  if (is_ascend_analysis_db(db)) return SqliteKind::kAscendAnalysis;
  return SqliteKind::kOther;
}

std::string table_list(const SqliteDb& db) {
  std::string out;
  const size_t shown = std::min<size_t>(db.tables().size(), 8);
  for (size_t i = 0; i < shown; ++i) out += (i ? ", " : "") + db.tables()[i];
  if (db.tables().size() > shown) out += ", ...";
  return out.empty() ? "no tables" : "tables " + out;
}

}  // namespace

SqliteKind sqlite_kind(ByteReader* reader) {
  std::string error;
  std::unique_ptr<SqliteDb> db = SqliteDb::open(reader, &error);
  if (!db) return SqliteKind::kUnreadable;
  return kind_of(*db);
}

bool import_sqlite(ByteReader* reader, TraceStore* store, std::string* error) {
  CachedByteReader cached(reader);
  std::unique_ptr<SqliteDb> db = SqliteDb::open(&cached, error);
  return db && import_sqlite_db(db.get(), store, error);
}

bool import_sqlite_db(SqliteDb* db, TraceStore* store, std::string* error) {
  TraceBuilder b(store);
  bool ok = false;
  switch (kind_of(*db)) {
    case SqliteKind::kNsys:
      if (!store->files.empty()) store->files[0].format = "nsys-sqlite";
      ok = import_nsys_db(db, &b, error);
      break;
    case SqliteKind::kAscend:
      if (!store->files.empty()) store->files[0].format = "ascend-db";
      ok = import_ascend_db(db, &b, error);
      break;
    case SqliteKind::kAscendAnalysis:
      *error =
          "this is the Ascend profiler's analysis.db (step and communication summaries, no "
          "timeline): open ascend_pytorch_profiler_<rank>.db from the same folder";
      return false;
    default:
      *error = "a SQLite database Strata does not read (" + table_list(*db) +
               "): Strata reads Nsight Systems exports (nsys export --type sqlite) and the "
               "Ascend PyTorch profiler's ascend_pytorch_profiler_<rank>.db";
      return false;
  }
  if (!ok) return false;
  b.finish();
  return true;
}

}  // namespace strata
