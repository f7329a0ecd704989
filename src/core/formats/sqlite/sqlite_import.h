// A profiler's SQLite database into a TraceStore: which profiler wrote it is told by its
// tables (Nsight Systems, the Ascend PyTorch profiler); any other database, or a damaged one,
// fails with a message that says what it is.
#pragma once
#include <string>

#include "core/formats/sqlite/byte_reader.h"
#include "core/formats/sqlite/sqlite_db.h"
#include "core/store/trace_store.h"

namespace strata {

enum class SqliteKind { kNotSqlite, kUnreadable, kNsys, kAscend, kAscendAnalysis, kOther };

// What the database `reader` holds (opened through the VFS, its schema read).
SqliteKind sqlite_kind(ByteReader* reader);

// Fills `store` (fresh; files[0] names the file) and builds its layout. False, with *error for
// the user, when the database is not one Strata reads or cannot be read.
bool import_sqlite(ByteReader* reader, TraceStore* store, std::string* error);
// The same from a database already open, so a caller that reads more of it (the Ascend memory
// tables) opens it once.
bool import_sqlite_db(SqliteDb* db, TraceStore* store, std::string* error);

}  // namespace strata
