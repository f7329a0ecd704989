#include "core/formats/xplane/xplane_layout.h"

#include <algorithm>

namespace strata {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

PlaneKind plane_kind(std::string_view name) {
  if (starts_with(name, "/device:TPU:")) return PlaneKind::kTpu;
  if (starts_with(name, "/device:GPU:")) return PlaneKind::kGpu;
  if (starts_with(name, "/device:CUSTOM:")) return PlaneKind::kCustom;
  if (starts_with(name, "/device:")) return PlaneKind::kDevice;
  if (starts_with(name, "/host:CPU")) return PlaneKind::kHost;
  return PlaneKind::kOther;
}

bool is_tensor_core(std::string_view name) {
  if (!starts_with(name, "/device:TPU:")) return false;
  std::string_view rest = name.substr(std::string_view("/device:TPU:").size());
  return !rest.empty() && std::all_of(rest.begin(), rest.end(), is_digit);
}

int64_t xprof_pid(PlaneKind kind, int64_t plane_id, uint32_t pool, uint32_t host_index,
                  uint32_t plane_index) {
  switch (kind) {
    case PlaneKind::kTpu:
    case PlaneKind::kGpu:
    case PlaneKind::kDevice:
      return 1 + plane_id;
    case PlaneKind::kCustom:
      return 501 + plane_id;
    case PlaneKind::kHost:
      return pool == kNone ? 701 + host_index : 702 + static_cast<int64_t>(pool);
    case PlaneKind::kOther:
      break;
  }
  return 1000 + plane_index;
}

// One deviation from XProf: its pattern wants "/<digits>", so the threads of a pool whose ids
// print negative ("py_xla_execute/-147...") stayed outside the pool; here "/-<digits>" counts.
std::string_view thread_pool_name(std::string_view line) {
  // (.*)/-?\d+(:?-.*)? : the last '/' followed by digits, then nothing, "-..." or ":-...".
  std::string_view thread;
  bool found = false;
  for (size_t slash = line.rfind('/'); slash != std::string_view::npos && !found;
       slash = slash == 0 ? std::string_view::npos : line.rfind('/', slash - 1)) {
    size_t i = slash + 1;
    if (i < line.size() && line[i] == '-') ++i;
    size_t d = i;
    while (d < line.size() && is_digit(line[d])) ++d;
    if (d == i) continue;
    std::string_view tail = line.substr(d);
    if (tail.empty() || tail[0] == '-' || starts_with(tail, ":-")) {
      thread = line.substr(0, slash);
      found = true;
    }
  }
  if (!found) return {};
  // (.*)[-_]\d+ : a trailing "_N" / "-N" numbers a thread of the pool.
  size_t d = thread.size();
  while (d > 0 && is_digit(thread[d - 1])) --d;
  if (d < thread.size() && d >= 1 && (thread[d - 1] == '-' || thread[d - 1] == '_'))
    return thread.substr(0, d - 1);
  return thread;
}

}  // namespace strata
