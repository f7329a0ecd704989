#include "core/memory/xplane_memory.h"

#include <cmath>
#include <cstdlib>
#include <vector>

#include "core/formats/json/json_flat.h"

namespace strata {

bool XplaneMemoryBuilder::add(std::string_view record, TimeNs ts, bool allocation) {
  std::vector<JsonLine> lines;
  std::string err;
  json_flatten(record, &lines, &err);
  double allocated = std::nan(""), reserved = std::nan(""), alloc_bytes = 0, requested = 0;
  std::string allocator, addr, op, region, shape, plane;
  bool in_args = false;
  for (const JsonLine& l : lines) {
    if (l.depth == 0) {
      in_args = l.key == "args";
      if (l.key == "plane") plane = l.value;
      continue;
    }
    if (!in_args || l.depth != 1) continue;
    const double v = l.kind == 'n' ? std::strtod(l.value.c_str(), nullptr) : std::nan("");
    if (l.key == "bytes_allocated")
      allocated = v;
    else if (l.key == "bytes_reserved")
      reserved = v;
    else if (l.key == "allocation_bytes")
      alloc_bytes = std::isnan(v) ? 0 : v;
    else if (l.key == "requested_bytes")
      requested = std::isnan(v) ? 0 : v;
    else if (l.key == "allocator_name")
      allocator = l.value;
    else if (l.key == "addr")
      addr = l.value;
    else if (l.key == "tf_op_name" || (l.key == "tf_op" && op.empty()))
      op = l.value;
    else if (l.key == "region_type")
      region = l.value;
    else if (l.key == "shape")
      shape = l.value;
  }
  if (std::isnan(allocated)) {
    ++skipped_;
    return false;
  }
  const std::string device = allocator.empty() ? plane : allocator;
  auto [it, added] = series_.emplace(device, data_.series.size());
  if (added) {
    data_.series.emplace_back();
    data_.series.back().device = device;
  }
  data_.series[it->second].add(ts, allocated, reserved);
  if (!addr.empty()) {
    const auto key = std::make_pair(device, addr);
    if (allocation) {
      open_[key] = static_cast<uint32_t>(data_.allocations.size());
      data_.allocations.add(op, device, alloc_bytes > 0 ? alloc_bytes : requested, ts, kNoRelease,
                            shape, region);
    } else if (auto o = open_.find(key); o != open_.end()) {
      data_.allocations.release_ts[o->second] = ts;
      open_.erase(o);
    }
  }
  return true;
}

MemoryData XplaneMemoryBuilder::take() {
  if (skipped_)
    data_.warnings.push_back(std::to_string(skipped_) +
                             " xplane memory events without bytes_allocated were skipped");
  data_.sources.push_back("xplane");
  memory_finish(&data_);
  series_.clear();
  open_.clear();
  return std::move(data_);
}

}  // namespace strata
