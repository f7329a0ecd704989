// The Memory Viewer's data of a GraphSession module: its buffer assignment parsed once, and
// one heap replay per memory colour, kept until the module is dropped.
#include <cstdio>
#include <map>

#include "core/base/json_writer.h"
#include "engine/graph_session.h"
#include "protocol/memory_viewer_keys.h"
#include "protocol/reply_keys.h"

namespace strata {

struct GraphSession::MemoryCache {
  bool tried = false;
  memview::MemoryModel model;
  std::string error;
  std::map<int64_t, memview::HeapProfile> profiles;
  std::map<int64_t, std::string> profile_errors;
};

const memview::MemoryModel* GraphSession::memory_model(uint32_t module, std::string* error) const {
  if (!valid(module)) {
    *error = "no module " + std::to_string(module);
    return nullptr;
  }
  const Module& mod = modules_[module];
  if (!mod.memory) mod.memory = std::make_shared<MemoryCache>();
  MemoryCache& c = *mod.memory;
  if (!c.tried) {
    c.tried = true;
    if (!memview::build_memory_model(mod.m, &c.model, &c.error)) c.model = memview::MemoryModel{};
  }
  if (!c.error.empty()) {
    *error = c.error;
    return nullptr;
  }
  return &c.model;
}

const memview::HeapProfile* GraphSession::heap_profile(uint32_t module, int64_t color,
                                                       std::string* error) const {
  const memview::MemoryModel* mm = memory_model(module, error);
  if (!mm) return nullptr;
  MemoryCache& c = *modules_[module].memory;
  auto bad = c.profile_errors.find(color);
  if (bad != c.profile_errors.end()) {
    *error = bad->second;
    return nullptr;
  }
  auto it = c.profiles.find(color);
  if (it != c.profiles.end()) return &it->second;
  memview::HeapProfile p;
  std::string why;
  if (!memview::replay_heap(*mm, color, &p, &why)) {
    c.profile_errors[color] = why;
    *error = why;
    return nullptr;
  }
  return &c.profiles.emplace(color, std::move(p)).first->second;
}

namespace {
std::string bytes_text(int64_t b) {
  char buf[48];
  const double v = static_cast<double>(b);
  if (v >= 1024.0 * 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.2f GiB", v / (1024.0 * 1024 * 1024));
  else if (v >= 1024.0 * 1024)
    std::snprintf(buf, sizeof buf, "%.2f MiB", v / (1024.0 * 1024));
  else if (v >= 1024.0)
    std::snprintf(buf, sizeof buf, "%.1f KiB", v / 1024.0);
  else
    std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(b));
  return buf;
}
}  // namespace

std::string GraphSession::defined_buffers_json(uint32_t module, uint32_t instr) const {
  if (!valid(module) || modules_[module].m.buffer_assignment.empty()) return "";
  std::string error;
  const memview::MemoryModel* mm = memory_model(module, &error);
  if (!mm) return "";
  std::string o;
  protocol::append_key(&o, protocol::keys::graph_node_memory::kBuffers);
  o += '[';
  bool first = true;
  for (const memview::BufferInfo& b : mm->buffers) {
    if (b.instr != instr) continue;
    std::string t = b.label + ": " + bytes_text(b.size);
    if (b.unpadded != b.size) t += " (unpadded " + bytes_text(b.unpadded) + ")";
    if (b.allocation >= 0) {
      const hlo::BufferAllocation& a =
          mm->assignment.allocations[static_cast<size_t>(b.allocation)];
      t += std::string(", ") + memview::allocation_kind_name(memview::allocation_kind(a)) +
           ", allocation " + std::to_string(a.index) + " at " + std::to_string(b.offset);
    }
    if (!first) o += ',';
    first = false;
    json_append_string(&o, t);
  }
  return o + ']';
}

const std::string& GraphSession::module_source(uint32_t module) const {
  static const std::string kEmpty;
  return valid(module) ? modules_[module].source : kEmpty;
}

}  // namespace strata
