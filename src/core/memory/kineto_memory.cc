#include "core/memory/kineto_memory.h"

#include <cmath>
#include <cstdlib>
#include <vector>

#include "core/formats/json/json_flat.h"

namespace strata {

std::string kineto_device_name(int type, int id) {
  switch (type) {
    case 0:
      return "CPU";
    case 1:
      return "GPU " + std::to_string(id);
    case 6:
      return "HIP " + std::to_string(id);
    case 12:
      return "XPU " + std::to_string(id);
    case 20:
      return "NPU " + std::to_string(id);  // PrivateUse1 (torch_npu)
    default:
      return "Device " + std::to_string(type) + ":" + std::to_string(id);
  }
}

bool KinetoMemoryBuilder::add(std::string_view record, TimeNs ts, const std::string& op_name) {
  std::vector<JsonLine> lines;
  std::string err;
  json_flatten(record, &lines, &err);  // a damaged tail still gives the lines before it
  double alloc = std::nan(""), resv = std::nan(""), bytes = 0;
  bool has_bytes = false;
  int type = -1, id = -1;
  std::string addr;
  bool in_args = false;
  for (const JsonLine& l : lines) {
    if (l.depth == 0) {
      in_args = l.key == "args";
      continue;
    }
    if (!in_args || l.depth != 1) continue;
    const double v = json_number(l);
    if (l.key == "Total Allocated")
      alloc = v;
    else if (l.key == "Total Reserved")
      resv = v;
    else if (l.key == "Bytes")
      bytes = std::isnan(v) ? 0 : v, has_bytes = !std::isnan(v);
    else if (l.key == "Device Type")
      type = std::isnan(v) ? -1 : static_cast<int>(v);
    else if (l.key == "Device Id")
      id = std::isnan(v) ? -1 : static_cast<int>(v);
    else if (l.key == "Addr")
      addr = l.value;
  }
  const std::string device = kineto_device_name(type, id);
  if (std::isnan(alloc) && std::isnan(resv)) {
    // Older profilers (2021) record only the call's Bytes: the total in use is their running
    // sum since the profile started (memory held before it is not known).
    if (bytes == 0 && !has_bytes) {
      ++skipped_;
      return false;
    }
    alloc = running_[device] += bytes;
  }
  auto [it, added] = series_.emplace(device, data_.series.size());
  if (added) {
    data_.series.emplace_back();
    data_.series.back().device = device;
  }
  data_.series[it->second].add(ts, alloc, resv);
  if (bytes != 0) {
    auto& [with_addr, without_addr] = calls_[device];
    ++(addr.empty() ? without_addr : with_addr);
  }
  if (!addr.empty() && bytes != 0) {
    const auto key = std::make_pair(device, addr);
    if (bytes > 0) {
      open_[key] = static_cast<uint32_t>(data_.allocations.size());
      data_.allocations.add(op_name, device, bytes, ts, kNoRelease);
    } else if (auto o = open_.find(key); o != open_.end()) {
      data_.allocations.release_ts[o->second] = ts;
      open_.erase(o);
    }  // a free of a buffer allocated before the profile started: nothing to pair
  }
  return true;
}

MemoryData KinetoMemoryBuilder::take() {
  if (skipped_)
    data_.warnings.push_back(
        std::to_string(skipped_) +
        " [memory] events without Total Allocated, Total Reserved or Bytes were skipped");
  data_.sources.push_back("kineto");
  for (const auto& [device, counts] : calls_) {
    if (counts.second == 0) data_.paired_devices.push_back(device);
    if (counts.first == 0) data_.addressless_devices.push_back(device);
  }
  memory_finish(&data_);
  series_.clear();
  open_.clear();
  running_.clear();
  calls_.clear();
  return std::move(data_);
}

}  // namespace strata
