// Nsight Systems' SQLite export (`nsys export --type sqlite`) into a TraceStore: CUDA kernels,
// memcpy and memset on one track per (GPU, stream), CUDA runtime calls and NVTX ranges on their
// host threads, a flow from each runtime call to the GPU work it launched (shared
// correlationId), GPU names from TARGET_INFO_GPU. Categories are Kineto's ("kernel",
// "gpu_memcpy", "gpu_memset", "cuda_runtime", "ac2g"), so the analyses that read a Kineto
// trace's GPU work read these too; kernels' launch parameters go to store.kernel_launches.
#pragma once
#include <string>

#include "core/formats/sqlite/sqlite_db.h"
#include "core/store/trace_builder.h"

namespace strata {

// True when the database has the tables of an nsys export.
bool is_nsys_db(const SqliteDb& db);

// Adds the export's events. False, with *error for the user, when nothing could be read.
bool import_nsys_db(SqliteDb* db, TraceBuilder* b, std::string* error);

// globalTid / globalPid as nsys packs them: the pid in bits 24-47, the tid in bits 0-23.
inline int64_t nsys_pid(int64_t global_id) { return (global_id >> 24) & 0xffffff; }
inline int64_t nsys_tid(int64_t global_id) { return global_id & 0xffffff; }

}  // namespace strata
