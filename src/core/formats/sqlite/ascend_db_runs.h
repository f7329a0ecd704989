// The Runs views' inputs from an Ascend PyTorch profiler db (`ascend_pytorch_profiler_<rank>.db`),
// written as the text export's files are (same header names, µs, one row per call or task), so
// the Operator, Kernel and Distributed tables aggregate a db exactly as they do the CSVs
// (core/runs/run_stats.h):
//   kernel_details.csv   TASK joined with COMPUTE_TASK_INFO (names, op type, core type, block
//                        dim, wait and input shapes from STRING_IDS); the step from STEP_TIME
//   operator_details.csv PYTORCH_API rows of type "op": host total = end - start, host self =
//                        total minus the ops nested in it on its thread; device self = the tasks
//                        its CONNECTION_IDS reach, device total = self + nested ops' device time;
//                        the "With AICore" columns count AI Core tasks (AI_CORE, MIX_AIC)
//   step_trace_time.csv  OVERLAP_ANALYSIS per STEP_TIME step (type 0 compute, 1 communication,
//                        2 communication not overlapped, 3 free; Stage = their sum without the
//                        overlapped part, as the CSV's columns add up)
//   communication.json   COMMUNICATION_OP per step ("<op>@<group>"), Elapse = the op's time,
//                        Wait = its Notify_Wait tasks, Synchronization = the waits before its
//                        first transfer, Transit = its copy / reduce tasks
//                        (COMMUNICATION_TASK_INFO)
// A table the db lacks leaves its file empty ("" = absent, as for a missing CSV).
#pragma once
#include <string>

#include "core/formats/sqlite/sqlite_db.h"

namespace strata {

struct AscendDbRunFiles {
  std::string kernel_details_csv;
  std::string operator_details_csv;
  std::string step_trace_time_csv;
  std::string communication_json;
};

// False, with *error, when the db is not an Ascend profiler db or a read failed.
bool ascend_db_run_files(SqliteDb* db, AscendDbRunFiles* out, std::string* error);

}  // namespace strata
