// Where a plane and its lines go on the timeline, as XProf's trace viewer places them
// (xprof/convert/xplane_to_trace_container.cc, tsl/profiler/utils/trace_utils.h): plane kinds,
// trace-viewer pids and the section order, thread-pool names of host threads, and the ps → ns
// rounding of event times.
#pragma once
#include <cstdint>
#include <string_view>

#include "core/base/types.h"

namespace strata {

// In display order: TPU planes first, then GPUs, other devices, custom planes, hosts, the rest.
enum class PlaneKind { kTpu, kGpu, kDevice, kCustom, kHost, kOther };

inline bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

PlaneKind plane_kind(std::string_view plane_name);

// A TensorCore plane ("/device:TPU:3", not "/device:TPU:3 SparseCore 1").
bool is_tensor_core(std::string_view plane_name);

// XProf's pid for a plane's section: devices 1 + plane id, custom planes 501 + id, the host
// plane 701 (+ the host plane's index when there are several) and its thread pools 702 + the
// pool's index (`pool`, counted over all host planes; kNone for the plane's own section).
int64_t xprof_pid(PlaneKind kind, int64_t plane_id, uint32_t pool, uint32_t host_index,
                  uint32_t plane_index);
// Section sort index: the kind's rank, then the pid.
inline int64_t section_sort_index(PlaneKind kind, int64_t pid) {
  return static_cast<int64_t>(kind) * 1000000 + pid;
}

// XProf's GetThreadPoolName: "pool_name-3/1234" → "pool_name", "python" → "" (no pool).
std::string_view thread_pool_name(std::string_view line_name);

// Nearest ns of `ps` picoseconds after `base_ns`, ties up (floor((ps + 500) / 1000)): rounding
// both ends of events this way keeps nesting and order. False on int64 overflow.
// Inline: it runs twice per event.
inline bool ps_to_ns(int64_t base_ns, int64_t ps, TimeNs* out) {
  // floor((ps + 500) / 1000) without overflowing ps + 500.
  int64_t q = ps / 1000, r = ps % 1000;
  if (r < 0) r += 1000, --q;
  if (r >= 500) ++q;
  return !__builtin_add_overflow(base_ns, q, out);
}

}  // namespace strata
