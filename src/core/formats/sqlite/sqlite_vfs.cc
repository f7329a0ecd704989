#include "core/formats/sqlite/sqlite_vfs.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <string>

namespace strata {
namespace {

std::map<std::string, ByteReader*>& readers() {
  static std::map<std::string, ByteReader*> m;
  return m;
}

struct ReaderFile {
  sqlite3_file base;  // first: SQLite sees a sqlite3_file*
  ByteReader* reader;
};

int file_close(sqlite3_file*) { return SQLITE_OK; }

int file_read(sqlite3_file* f, void* dst, int n, sqlite3_int64 offset) {
  ByteReader* r = reinterpret_cast<ReaderFile*>(f)->reader;
  if (n < 0 || offset < 0) return SQLITE_IOERR_READ;
  const uint64_t size = r->size(), off = static_cast<uint64_t>(offset);
  const size_t want = static_cast<size_t>(n);
  const size_t have = off >= size ? 0 : static_cast<size_t>(std::min<uint64_t>(want, size - off));
  if (have > 0 && !r->read(off, static_cast<uint8_t*>(dst), have)) return SQLITE_IOERR_READ;
  // Header bytes 18-19 are 2 in a database last written in WAL mode (torch_npu writes its db
  // so). A database opened read-only and immutable never has a WAL to replay, and the build has
  // no WAL code (SQLITE_OMIT_WAL), which would refuse version 2: read the pages as rollback.
  constexpr uint64_t kFormatVersions = 18;
  if (off <= kFormatVersions && off + have >= kFormatVersions + 2) {
    uint8_t* v = static_cast<uint8_t*>(dst) + (kFormatVersions - off);
    if (v[0] == 2 && v[1] == 2) v[0] = v[1] = 1;
  }
  if (have < want) {
    // SQLite requires the rest zeroed on a short read (a truncated file).
    std::memset(static_cast<uint8_t*>(dst) + have, 0, want - have);
    return SQLITE_IOERR_SHORT_READ;
  }
  return SQLITE_OK;
}

int file_write(sqlite3_file*, const void*, int, sqlite3_int64) { return SQLITE_READONLY; }
int file_truncate(sqlite3_file*, sqlite3_int64) { return SQLITE_READONLY; }
int file_sync(sqlite3_file*, int) { return SQLITE_OK; }
int file_size(sqlite3_file* f, sqlite3_int64* out) {
  *out = static_cast<sqlite3_int64>(reinterpret_cast<ReaderFile*>(f)->reader->size());
  return SQLITE_OK;
}
int file_lock(sqlite3_file*, int) { return SQLITE_OK; }
int file_unlock(sqlite3_file*, int) { return SQLITE_OK; }
int file_check_reserved(sqlite3_file*, int* out) {
  *out = 0;
  return SQLITE_OK;
}
int file_control(sqlite3_file*, int, void*) { return SQLITE_NOTFOUND; }
int file_sector_size(sqlite3_file*) { return 4096; }
int file_device(sqlite3_file*) { return SQLITE_IOCAP_IMMUTABLE; }

const sqlite3_io_methods kReaderMethods = {
    1,
    file_close,
    file_read,
    file_write,
    file_truncate,
    file_sync,
    file_size,
    file_lock,
    file_unlock,
    file_check_reserved,
    file_control,
    file_sector_size,
    file_device,
    nullptr,  // shared memory and mmap: version 1 methods only
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
};

int vfs_open(sqlite3_vfs*, const char* name, sqlite3_file* file, int flags, int* out_flags) {
  file->pMethods = nullptr;
  // Only the main database: with immutable=1 SQLite opens no journal, and temporary tables
  // live in memory (SQLITE_TEMP_STORE=3).
  if (!name || !(flags & SQLITE_OPEN_MAIN_DB)) return SQLITE_CANTOPEN;
  auto it = readers().find(name);
  if (it == readers().end()) return SQLITE_CANTOPEN;
  auto* f = reinterpret_cast<ReaderFile*>(file);
  f->reader = it->second;
  f->base.pMethods = &kReaderMethods;
  if (out_flags) *out_flags = SQLITE_OPEN_READONLY;
  return SQLITE_OK;
}

int vfs_delete(sqlite3_vfs*, const char*, int) { return SQLITE_READONLY; }
int vfs_access(sqlite3_vfs*, const char* name, int, int* out) {
  *out = name && readers().count(name) ? 1 : 0;
  return SQLITE_OK;
}
int vfs_full_pathname(sqlite3_vfs*, const char* name, int n, char* out) {
  sqlite3_snprintf(n, out, "%s", name);
  return SQLITE_OK;
}
int vfs_randomness(sqlite3_vfs*, int n, char* out) {
  // Only for temporary names and the like: nothing here needs real randomness.
  for (int i = 0; i < n; ++i) out[i] = static_cast<char>(i * 131 + 7);
  return n;
}
int vfs_sleep(sqlite3_vfs*, int us) { return us; }
int vfs_current_time_int64(sqlite3_vfs*, sqlite3_int64* out) {
  // Julian day in ms, as SQLite defines it.
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  *out = static_cast<sqlite3_int64>(ms) + 210866760000000LL;
  return SQLITE_OK;
}
int vfs_current_time(sqlite3_vfs* v, double* out) {
  sqlite3_int64 ms = 0;
  vfs_current_time_int64(v, &ms);
  *out = static_cast<double>(ms) / 86400000.0;
  return SQLITE_OK;
}
int vfs_last_error(sqlite3_vfs*, int, char*) { return 0; }

sqlite3_vfs g_vfs = {
    2,                   // iVersion (xCurrentTimeInt64)
    sizeof(ReaderFile),  // szOsFile
    1024,                // mxPathname
    nullptr,             // pNext
    "strata-ro",         // zName
    nullptr,             // pAppData
    vfs_open,
    vfs_delete,
    vfs_access,
    vfs_full_pathname,
    nullptr,  // xDlOpen (no extensions)
    nullptr,
    nullptr,
    nullptr,
    vfs_randomness,
    vfs_sleep,
    vfs_current_time,
    vfs_last_error,
    vfs_current_time_int64,
    nullptr,
    nullptr,
    nullptr,
};

uint64_t g_next_name = 0;

}  // namespace

std::string sqlite_vfs_register(ByteReader* reader) {
  std::string name = "strata-db-" + std::to_string(++g_next_name);
  readers()[name] = reader;
  return name;
}

void sqlite_vfs_forget(const std::string& name) { readers().erase(name); }

}  // namespace strata

// With SQLITE_OS_OTHER the application supplies these: the reader VFS is the default.
extern "C" int sqlite3_os_init(void) { return sqlite3_vfs_register(&strata::g_vfs, 1); }
extern "C" int sqlite3_os_end(void) { return SQLITE_OK; }
