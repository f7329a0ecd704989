// What the run statistics need from a Chrome/Kineto trace in the store, computed once per call:
// each event's role (operator, runtime call, device activity, profiler step), its nearest
// enclosing operator on the same thread, and which runtime call launched each device event.
//
// Roles follow Kineto's categories (old traces spell them "Operator", "Runtime", "Kernel",
// "Memcpy", "Memset"; newer ones "cpu_op", "cuda_runtime", "kernel", "gpu_memcpy",
// "gpu_memset"), as pytorch/kineto tb_plugin profiler/trace.py maps them to event types.
// Launches: the store's flow edges from a runtime call to a device event (Kineto's "ac2g"
// flows, or the older "async"/"launch" ones), else, when the source bytes are given, the
// "correlation" arg both records carry (what the tb_plugin pairs them by).
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/runs/run_stats.h"
#include "core/store/trace_store.h"

namespace strata::runs {

enum class Role : uint8_t { kOther, kOperator, kRuntime, kKernel, kMemory, kStep };

struct TraceModel {
  std::vector<Role> role;          // per event
  std::vector<uint32_t> op_anc;    // nearest enclosing operator on the thread, or kNone
  std::vector<uint32_t> launcher;  // device events: the runtime call that launched it, or kNone
  std::vector<uint32_t> steps;     // ProfilerStep#N events, by start
  uint64_t unpaired_device = 0;    // device events no launch could be found for
  bool has_flows = false;          // some device event was paired by a flow
};

// `record` may be null (no correlation pairing).
TraceModel build_trace_model(const TraceStore& s, const RecordLookup& record);

inline bool is_device(Role r) { return r == Role::kKernel || r == Role::kMemory; }

// The record's JSON text, or "" when the source does not hold it.
std::string_view record_text(const TraceStore& s, std::string_view source, uint32_t event);
// The raw JSON text of `"key": <value>` inside a record ("" when absent): an array or object
// with its brackets, a string with its quotes, a number as written.
std::string_view raw_arg(std::string_view record, std::string_view key);

// The step (ProfilerStep#N → "N") whose span holds `t`, or "".
std::string_view step_at(const TraceStore& s, const TraceModel& m, TimeNs t);

}  // namespace strata::runs
