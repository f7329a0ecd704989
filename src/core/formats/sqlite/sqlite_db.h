// A read-only SQLite database over a ByteReader, through Strata's own VFS (sqlite_vfs.cc): no
// journal, no locks, no writes; SQLite asks for pages and the reader serves them. Statements
// are small RAII wrappers; columns are looked up by name, because profilers add and drop
// columns between versions.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/sqlite/byte_reader.h"

struct sqlite3;
struct sqlite3_stmt;

namespace strata {

class SqliteDb;

class SqliteStatement {
 public:
  SqliteStatement() = default;
  SqliteStatement(sqlite3_stmt* s, SqliteDb* db) : stmt_(s), db_(db) {}
  ~SqliteStatement();
  SqliteStatement(SqliteStatement&& o) noexcept : stmt_(o.stmt_), db_(o.db_) { o.stmt_ = nullptr; }
  SqliteStatement& operator=(SqliteStatement&& o) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  bool ok() const { return stmt_ != nullptr; }
  // The next row: true while there is one. A read error ends the rows (see SqliteDb::error()).
  bool step();
  bool null(int col) const;
  int64_t i64(int col) const;
  double f64(int col) const;
  std::string_view text(int col) const;  // valid until the next step()

 private:
  sqlite3_stmt* stmt_ = nullptr;
  SqliteDb* db_ = nullptr;  // told of a failed step
};

class SqliteDb {
 public:
  // Opens the database `reader` holds (it must outlive the db). Null, with *error saying why
  // for the user, when it is not a readable SQLite database.
  static std::unique_ptr<SqliteDb> open(ByteReader* reader, std::string* error);
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  sqlite3* handle() const { return db_; }
  const std::vector<std::string>& tables() const { return tables_; }
  bool has_table(std::string_view name) const;
  // Column names of `table` as declared (empty when it does not exist).
  std::vector<std::string> columns(std::string_view table) const;
  // `sql` prepared; not ok() (and error() set) when it does not compile.
  SqliteStatement prepare(const std::string& sql);
  // "SELECT a, b, NULL, ... FROM table": the wanted columns, NULL for those the table lacks, so
  // one query reads every version of a schema.
  SqliteStatement select(std::string_view table, const std::vector<std::string_view>& wanted,
                         std::string_view tail = {});
  // The first error SQLite reported (a corrupt page, a failed read), empty when none.
  const std::string& error() const { return error_; }
  void note_error();
  void set_error(std::string message) {
    if (error_.empty()) error_ = std::move(message);
  }
  int64_t count(std::string_view table);

 private:
  SqliteDb() = default;
  sqlite3* db_ = nullptr;
  std::string vfs_name_;
  std::vector<std::string> tables_;
  std::string error_;
};

// True when `data` starts with the SQLite file header ("SQLite format 3\0").
bool is_sqlite_header(const uint8_t* data, size_t n);

}  // namespace strata
