// Strata's SQLite VFS: read-only, over ByteReaders. The build has no OS layer
// (SQLITE_OS_OTHER), so this is the only VFS and sqlite3_os_init registers it.
#pragma once
#include <string>

#include "core/formats/sqlite/byte_reader.h"

namespace strata {

// A name SQLite can open (sqlite3_open_v2 with the "strata-ro" VFS) that reads `reader`; the
// name stays valid until sqlite_vfs_forget(name).
std::string sqlite_vfs_register(ByteReader* reader);
void sqlite_vfs_forget(const std::string& name);

}  // namespace strata
