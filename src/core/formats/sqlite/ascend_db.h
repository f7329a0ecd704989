// The Ascend PyTorch profiler's SQLite export (torch_npu, `ascend_pytorch_profiler_<rank>.db`;
// msprof's TABLE_* schema) into a TraceStore laid out as its text export's trace_view.json is:
// a "Python" process (PYTORCH_API by thread), "CANN" (CANN_API by thread), "Ascend Hardware"
// (TASK by stream, named from COMPUTE_TASK_INFO / COMMUNICATION_TASK_INFO, else the task type),
// "HCCL" (COMMUNICATION_OP), flows from CANN calls and PyTorch ops to the tasks they launched
// (connectionId, CONNECTION_IDS), and NPU_MEM / MEMORY_RECORD as memory counters. Names are ids
// into STRING_IDS. analysis.db (the communication analyser's tables) holds no timeline.
#pragma once
#include <string>

#include "core/formats/sqlite/sqlite_db.h"
#include "core/store/trace_builder.h"

namespace strata {

bool is_ascend_profiler_db(const SqliteDb& db);
// analysis.db: StepTraceTime and CommAnalyzer* only.
bool is_ascend_analysis_db(const SqliteDb& db);

// False, with *error for the user, when nothing could be read.
bool import_ascend_db(SqliteDb* db, TraceBuilder* b, std::string* error);

}  // namespace strata
