// What ties the Memory tab's memory over time to the Memory Viewer's modules: the runs of XLA
// programs on a device's "XLA Modules" row ("jit_step(5)": module name and program id), and
// the device a memory series belongs to (an XSpace allocator "GPU_1_bfc" allocates on
// /device:GPU:1). Buffers for a program are allocated by the host before it launches, so an
// instant in the gap before a run belongs to that run (its window starts where the previous
// run on the row ended).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/memory/memory_data.h"
#include "core/store/trace_store.h"

namespace strata {

class GraphSession;

struct XlaModuleRun {
  uint32_t event = kNone;  // on the XLA Modules row
  std::string module;      // "jit_step"
  std::string program;     // decimal program id text, "" when nothing names it
  std::string plane;       // the device's process name, "/device:GPU:1"
  TimeNs start = 0, end = 0;
  TimeNs window_start = 0;  // the previous run's end on the row (the first run: the trace's start)
};

// The device plane whose memory `memory_device` is ("GPU_1_bfc" → "/device:GPU:1", a plane's
// own name as it is), "" when the name ties it to no device.
std::string memory_device_plane(std::string_view memory_device);

// The runs on the XLA Modules row of process `plane` (every plane's when empty), by start.
std::vector<XlaModuleRun> xla_module_runs(const TraceStore& s, std::string_view plane);

// The run of `runs` (one row's, by start) whose window holds t: inside the run, or in the gap
// before it (*during says which). Null when t is past the last run.
const XlaModuleRun* xla_run_at(const std::vector<XlaModuleRun>& runs, TimeNs t, bool* during);

// The top-level XLA op running at t on `plane`'s "XLA Ops" row, "" when none.
std::string xla_op_at(const TraceStore& s, std::string_view plane, TimeNs t);

// The graph session's module for a run: the one with that program id, else the first of that
// name with a buffer assignment, else the first of that name; -1 when none.
int32_t graph_module_of(const GraphSession& g, std::string_view module, std::string_view program);

// The Memory Viewer's program-order point (HBM's heap trace) for instruction `op` of graph
// module `module`: its last allocation, else its first event; -1 when the trace never names
// it or the module has no heap trace.
int64_t heap_point_of(const GraphSession& g, uint32_t module, std::string_view op);

// The highest memory `series` holds during [t0, t1] (the sample in effect at t0 counts) and
// when it is first reached: allocated bytes, reserved when it records none. False when the
// series has no value there.
bool memory_window_peak(const MemorySeries& series, TimeNs t0, TimeNs t1, double* bytes,
                        TimeNs* at);

// For the memory_live reply: ,"module":{...} (protocol memory_xla_run) when t (absolute) lies in
// a run's window on the plane of memory device `device`; nothing otherwise. `g`: the graph
// session, null before the graph viewer made one. Times in the reply are from `origin`.
void append_live_module(std::string* o, const TraceStore& s, const GraphSession* g,
                        const std::string& device, TimeNs t, TimeNs origin);
// The memory_module reply: the runs of `module` (program id text `program`, "" for any) on the
// planes of m's devices, the first and the one with the highest memory in its window.
std::string memory_module_json(const TraceStore& s, const MemoryData& m, const GraphSession* g,
                               std::string_view module, std::string_view program, TimeNs origin);

}  // namespace strata
