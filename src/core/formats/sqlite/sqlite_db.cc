#include "core/formats/sqlite/sqlite_db.h"

#include <sqlite3.h>

#include <cstring>

#include "core/formats/sqlite/sqlite_vfs.h"

namespace strata {

namespace {
constexpr char kHeader[] = "SQLite format 3";  // + its NUL: 16 bytes
}  // namespace

bool is_sqlite_header(const uint8_t* data, size_t n) {
  return n >= sizeof(kHeader) && std::memcmp(data, kHeader, sizeof(kHeader)) == 0;
}

SqliteStatement::~SqliteStatement() {
  if (stmt_) sqlite3_finalize(stmt_);
}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& o) noexcept {
  if (this != &o) {
    if (stmt_) sqlite3_finalize(stmt_);
    stmt_ = o.stmt_;
    db_ = o.db_;
    o.stmt_ = nullptr;
  }
  return *this;
}

bool SqliteStatement::step() {
  if (!stmt_) return false;
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE && db_) db_->set_error(sqlite3_errmsg(sqlite3_db_handle(stmt_)));
  return false;
}
bool SqliteStatement::null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
int64_t SqliteStatement::i64(int col) const { return sqlite3_column_int64(stmt_, col); }
double SqliteStatement::f64(int col) const { return sqlite3_column_double(stmt_, col); }
std::string_view SqliteStatement::text(int col) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  if (!p) return {};
  return std::string_view(p, static_cast<size_t>(sqlite3_column_bytes(stmt_, col)));
}

std::unique_ptr<SqliteDb> SqliteDb::open(ByteReader* reader, std::string* error) {
  if (reader->size() < 100) {
    *error = "not a readable SQLite database: the file is shorter than its 100-byte header";
    return nullptr;
  }
  uint8_t head[16] = {};
  if (!reader->read(0, head, sizeof(head)) || !is_sqlite_header(head, sizeof(head))) {
    *error = "not a SQLite database (no \"SQLite format 3\" header)";
    return nullptr;
  }
  std::unique_ptr<SqliteDb> db(new SqliteDb());
  db->vfs_name_ = sqlite_vfs_register(reader);
  const std::string uri = "file:" + db->vfs_name_ + "?immutable=1";
  if (sqlite3_open_v2(uri.c_str(), &db->db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) !=
      SQLITE_OK) {
    *error = std::string("the SQLite database could not be opened: ") +
             (db->db_ ? sqlite3_errmsg(db->db_) : "out of memory");
    return nullptr;
  }
  SqliteStatement s = db->prepare("SELECT name FROM sqlite_master WHERE type = 'table'");
  while (s.step()) db->tables_.emplace_back(s.text(0));
  if (!s.ok() || !db->error_.empty()) {
    *error = "the SQLite database is damaged or cut short: " +
             (db->error_.empty() ? std::string("its schema cannot be read") : db->error_);
    return nullptr;
  }
  return db;
}

SqliteDb::~SqliteDb() {
  if (db_) sqlite3_close(db_);
  sqlite_vfs_forget(vfs_name_);
}

void SqliteDb::note_error() {
  const int code = sqlite3_errcode(db_);
  if (code == SQLITE_OK || code == SQLITE_ROW || code == SQLITE_DONE || !error_.empty()) return;
  error_ = sqlite3_errmsg(db_);
}

bool SqliteDb::has_table(std::string_view name) const {
  for (const std::string& t : tables_)
    if (t == name) return true;
  return false;
}

std::vector<std::string> SqliteDb::columns(std::string_view table) const {
  std::vector<std::string> out;
  if (!has_table(table)) return out;
  sqlite3_stmt* raw = nullptr;
  const std::string sql = "PRAGMA table_info(\"" + std::string(table) + "\")";
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &raw, nullptr) != SQLITE_OK) return out;
  SqliteStatement s(raw, nullptr);
  while (s.step()) out.emplace_back(s.text(1));
  return out;
}

SqliteStatement SqliteDb::prepare(const std::string& sql) {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &raw, nullptr) != SQLITE_OK) {
    note_error();
    if (raw) sqlite3_finalize(raw);
    return SqliteStatement();
  }
  return SqliteStatement(raw, this);
}

SqliteStatement SqliteDb::select(std::string_view table,
                                 const std::vector<std::string_view>& wanted,
                                 std::string_view tail) {
  const std::vector<std::string> have = columns(table);
  if (have.empty()) return SqliteStatement();
  std::string sql = "SELECT ";
  for (size_t i = 0; i < wanted.size(); ++i) {
    if (i) sql += ", ";
    bool found = false;
    for (const std::string& h : have) found = found || h == wanted[i];
    if (found) {
      sql += '"';
      sql += wanted[i];
      sql += '"';
    } else {
      sql += "NULL";
    }
  }
  sql += " FROM \"" + std::string(table) + "\" ";
  sql += tail;
  return prepare(sql);
}

int64_t SqliteDb::count(std::string_view table) {
  if (!has_table(table)) return 0;
  SqliteStatement s = prepare("SELECT count(*) FROM \"" + std::string(table) + "\"");
  return s.step() ? s.i64(0) : 0;
}

}  // namespace strata
