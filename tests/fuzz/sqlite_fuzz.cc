// libFuzzer target for the SQLite path: any bytes as a database through the reader VFS, the
// kind told by its tables, and the Nsight Systems / Ascend importers over whatever SQLite
// returns. A valid export as a seed lets the fuzzer reach the importers' queries; the custom
// mutator (sqlite_mutator.h, libFuzzer build only) keeps such a file a database while it
// mutates its pages, cells and schema.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/formats/sqlite/byte_reader.h"
#include "core/formats/sqlite/sqlite_import.h"
#include "core/store/trace_store.h"
#include "fuzz_target.h"

#ifndef STRATA_FUZZ_REPLAY
#include "sqlite_mutator.h"

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  return strata::fuzz::sqlite_mutate(data, size, max_size, seed);
}
#endif

STRATA_FUZZ_TARGET(sqlite) {
  strata::MemoryByteReader reader(data, size);
  strata::TraceStore store;
  store.files.emplace_back();
  store.files[0].name = "fuzz.db";
  store.files[0].bytes = size;
  std::string error;
  strata::import_sqlite(&reader, &store, &error);
}
