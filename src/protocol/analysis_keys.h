// Keys of the op analyses' `extra` values (analysis_table.h's extra_json): the cores the op
// metrics cover and the roofline's peaks. Read by the Analysis tab's core picker and the
// roofline chart through these constants.
#pragma once
#include <cstddef>
#include <string_view>

#include "protocol/reply_keys.h"

namespace strata::protocol::keys {

// op_profile / hlo_stats / roofline extra: {"cores": [...], "core": index or -1, ...}.
namespace analysis_extra {
inline constexpr std::string_view kCores = "cores";
inline constexpr std::string_view kCore = "core";
inline constexpr std::string_view kTotalNs = "totalNs";  // device time (first to last op)
inline constexpr std::string_view kBusyNs = "busyNs";    // time in top-level XLA ops
inline constexpr std::string_view kIdleNs = "idleNs";
inline constexpr std::string_view kPeaks = "peaks";
inline constexpr std::string_view kRidge = "ridge";  // FLOP/byte where the roofs meet, or null
}  // namespace analysis_extra

// One of extra.cores.
namespace analysis_core {
inline constexpr std::string_view kIndex = "index";
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kTotalNs = "totalNs";
inline constexpr std::string_view kBusyNs = "busyNs";
}  // namespace analysis_core

// extra.peaks: per-core peaks (null when unknown), where they come from, what is missing.
namespace analysis_peaks {
inline constexpr std::string_view kFlopsPerSec = "flopsPerSec";
inline constexpr std::string_view kBytesPerSec = "bytesPerSec";
inline constexpr std::string_view kSource = "source";
inline constexpr std::string_view kWhy = "why";
}  // namespace analysis_peaks

// The peaks the user typed, as args of op_profile / hlo_stats / roofline (per core).
namespace analysis_args {
inline constexpr std::string_view kPeakTflops = "peakTflops";
inline constexpr std::string_view kPeakGBps = "peakGBps";
}  // namespace analysis_args

// The overview's step-part columns, in XProf's order (the stacking order of the step chart,
// bottom first): written by core/analysis/step_partition, read by the Analysis tab's step chart.
namespace step_parts {
inline constexpr const char* kKeys[] = {"device_compute",
                                        "collectives",
                                        "host_to_device",
                                        "device_to_host",
                                        "device_to_device",
                                        "input_wait",
                                        "kernel_launch",
                                        "host_compute",
                                        "compile",
                                        "other",
                                        "idle"};
inline constexpr size_t kCount = sizeof(kKeys) / sizeof(kKeys[0]);
}  // namespace step_parts

}  // namespace strata::protocol::keys
