#include "core/memory/ascend_db_memory.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <unordered_map>

namespace strata {

namespace {

class MemoryReader {
 public:
  MemoryReader(SqliteDb* db, MemoryData* out) : db_(db), out_(out) {}

  bool run() {
    SqliteStatement s = db_->select("STRING_IDS", {"id", "value"});
    while (s.step()) strings_[s.i64(0)] = std::string(s.text(1));
    const size_t series = out_->series.size(), allocations = out_->allocations.size();
    records();
    app();
    modules();
    operators();
    const bool any = out_->series.size() > series || out_->allocations.size() > allocations;
    if (any) out_->sources.push_back("ascend-db");
    if (any) chips();
    return any;
  }

 private:
  std::string str(int64_t id) const {
    auto it = strings_.find(id);
    return it == strings_.end() ? std::to_string(id) : it->second;
  }
  static std::string device(const SqliteStatement& s, int col) {
    return "NPU:" + std::to_string(s.null(col) ? 0 : s.i64(col));
  }
  static double bytes_or_nan(const SqliteStatement& s, int col) {
    return s.null(col) ? std::nan("") : s.f64(col);
  }
  MemorySeries& series(const std::string& dev, const std::string& component) {
    auto [it, added] = index_.emplace(std::make_pair(dev, component), out_->series.size());
    if (added) {
      out_->series.emplace_back();
      out_->series.back().device = dev;
      out_->series.back().component = component;
    }
    return out_->series[it->second];
  }

  void records() {
    SqliteStatement r = db_->select(
        "MEMORY_RECORD", {"timestamp", "totalAllocated", "totalReserved", "component", "deviceId"});
    while (r.step())
      series(device(r, 4), str(r.i64(3))).add(r.i64(0), bytes_or_nan(r, 1), bytes_or_nan(r, 2));
  }
  void app() {
    int64_t app_type = -1;
    for (const auto& [id, value] : strings_)
      if (value == "app") app_type = id;
    SqliteStatement m = db_->select("NPU_MEM", {"timestampNs", "hbm", "ddr", "deviceId", "type"});
    while (m.step()) {
      if (app_type >= 0 && !m.null(4) && m.i64(4) != app_type) continue;
      const double total = (m.null(1) ? 0 : m.f64(1)) + (m.null(2) ? 0 : m.f64(2));
      series(device(m, 3), "APP").add(m.i64(0), std::nan(""), total);
    }
  }
  void modules() {
    std::unordered_map<int64_t, std::string> names;
    SqliteStatement e = db_->select("ENUM_MODULE", {"id", "name"});
    while (e.step()) names[e.i64(0)] = std::string(e.text(1));
    SqliteStatement m =
        db_->select("NPU_MODULE_MEM", {"timestampNs", "totalReserved", "moduleId", "deviceId"});
    while (m.step()) {
      auto n = names.find(m.i64(2));
      const std::string module = n == names.end() ? std::to_string(m.i64(2)) : n->second;
      series(device(m, 3), module).add(m.i64(0), std::nan(""), bytes_or_nan(m, 1));
    }
  }
  void operators() {
    SqliteStatement o =
        db_->select("OP_MEMORY", {"name", "size", "allocationTime", "releaseTime", "deviceId"});
    while (o.step()) {
      if (o.null(2)) continue;
      out_->allocations.add(str(o.i64(0)), device(o, 4), o.null(1) ? 0.0 : o.f64(1), o.i64(2),
                            o.null(3) ? kNoRelease : o.i64(3));
    }
  }

  // NPU_INFO names each device's chip ("Ascend910B"), never its HBM size; nor does any other
  // file torch_npu or msprof writes (msprof's info.json has the host's memoryTotal only). A
  // chip family's models differ in HBM, so the size is not guessed from the name.
  void chips() {
    SqliteStatement c = db_->select("NPU_INFO", {"id", "name"});
    while (c.step()) {
      const std::string dev = device(c, 0);
      const bool seen = std::any_of(out_->capacities.begin(), out_->capacities.end(),
                                    [&](const MemoryCapacity& x) { return x.device == dev; });
      const std::string chip = c.null(1) ? std::string() : std::string(c.text(1));
      if (seen || chip.empty()) continue;
      out_->capacities.push_back(
          {dev, 0, "the profile names the chip (" + chip + ", NPU_INFO) but not its HBM size"});
    }
  }

  SqliteDb* db_;
  MemoryData* out_;
  std::unordered_map<int64_t, std::string> strings_;
  std::map<std::pair<std::string, std::string>, size_t> index_;
};

}  // namespace

bool ascend_db_memory(SqliteDb* db, MemoryData* out) { return MemoryReader(db, out).run(); }

}  // namespace strata
