#include "ui/analysis/memory_viewer_chart_model.h"

#include <algorithm>
#include <cstdlib>

#include "core/formats/json/json_flat.h"
#include "protocol/memory_viewer_keys.h"
#include "protocol/reply_keys.h"

namespace strata {

namespace {

constexpr double kMinVisiblePoints = 4;  // the deepest zoom shows this many points

double num(const JsonLine& l) { return l.kind == 'n' ? std::strtod(l.value.c_str(), nullptr) : 0; }

void read_mark(const JsonLine& l, MemoryViewerMark* m) {
  namespace it = protocol::keys::memory_viewer_item;
  if (l.key == it::kPoint) m->point = static_cast<uint32_t>(num(l));
  if (l.key == it::kBytes) m->bytes = num(l);
  if (l.key == it::kUnpadded) m->unpadded = num(l);
  if (l.key == it::kInstruction) m->instruction = l.value;
  if (l.key == it::kLive) m->live = static_cast<uint32_t>(num(l));
}

}  // namespace

bool read_memory_viewer_extra(const char* json, MemoryViewerData* out) {
  *out = MemoryViewerData{};
  std::vector<JsonLine> lines;
  std::string error;
  if (!json_flatten(json ? json : "", &lines, &error)) return false;
  namespace k = protocol::keys::memory_viewer;
  namespace it = protocol::keys::memory_viewer_item;
  json_walk(lines, [&](const std::vector<std::string>& path, const JsonLine& l) {
    if (path[0] != protocol::keys::analysis::kExtra || l.depth < 1) return;
    const std::string& top = path[1];
    if (l.depth == 1) {
      if (l.key == k::kModules) out->read = true;
      if (l.key == k::kModule) out->module = static_cast<int>(num(l));
      if (l.key == k::kModuleName) out->module_name = l.value;
      if (l.key == k::kProgramId) out->program_id = l.value;
      if (l.key == k::kSpace) out->space = static_cast<int64_t>(num(l));
      if (l.key == k::kPoints) out->points = static_cast<uint32_t>(num(l));
      if (l.key == k::kStep) out->step = std::max<uint32_t>(1, static_cast<uint32_t>(num(l)));
      if (l.key == k::kIndefinite) out->indefinite = num(l);
      if (l.key == k::kBudget) out->has_budget = true;
      return;
    }
    if (l.depth == 2) {
      if (top == k::kPadded) out->padded.push_back(num(l));
      if (top == k::kUnpadded) out->unpadded.push_back(num(l));
      if (top == k::kModules && l.kind == 'o') out->modules.emplace_back();
      if (top == k::kSpaces && l.kind == 'o') out->spaces.emplace_back();
      if (top == k::kPeak) read_mark(l, &out->peak);
      if (top == k::kPoint) read_mark(l, &out->point);
      if (top == k::kDevice) {
        if (l.key == it::kBytes) out->device_bytes = num(l);
        if (l.key == it::kShare) out->device_share = num(l);
        if (l.key == it::kSource) out->device_source = l.value;
        if (l.key == it::kWhy) out->device_why = l.value;
      }
      if (top == k::kBudget) {
        if (l.key == it::kBytes) out->budget_bytes = num(l);
        if (l.key == it::kFits) out->fits = l.value == "true";
        if (l.key == it::kBytesOver) out->bytes_over = num(l);
      }
      return;
    }
    if (l.depth == 3 && top == k::kModules && !out->modules.empty()) {
      MemoryViewerModule& m = out->modules.back();
      if (l.key == it::kIndex) m.index = static_cast<int>(num(l));
      if (l.key == it::kName) m.name = l.value;
      if (l.key == it::kSource) m.source = l.value;
      if (l.key == it::kOk) m.ok = l.value == "true";
      if (l.key == it::kWhy) m.why = l.value;
    }
    if (l.depth == 3 && top == k::kSpaces && !out->spaces.empty()) {
      if (l.key == it::kColor) out->spaces.back().color = static_cast<int64_t>(num(l));
      if (l.key == it::kLabel) out->spaces.back().label = l.value;
    }
    if (l.depth == 3 && top == k::kBudget && path[2] == it::kShrink && l.kind == 'o')
      out->shrink.emplace_back();
    if (l.depth == 4 && top == k::kBudget && !out->shrink.empty()) {
      if (l.key == it::kName) out->shrink.back().first = l.value;
      if (l.key == it::kBytes) out->shrink.back().second = num(l);
    }
  });
  return out->read;
}

MemoryViewerRange memory_viewer_full_range(const MemoryViewerData& d) {
  return {0, std::max<double>(1, d.points)};
}

namespace {
MemoryViewerRange clamp(const MemoryViewerData& d, MemoryViewerRange r) {
  const MemoryViewerRange full = memory_viewer_full_range(d);
  const double span = std::clamp(r.hi - r.lo, std::min(kMinVisiblePoints, full.hi), full.hi);
  double lo = std::clamp(r.lo, 0.0, full.hi - span);
  return {lo, lo + span};
}
}  // namespace

MemoryViewerRange memory_viewer_zoom(const MemoryViewerData& d, MemoryViewerRange r, double at,
                                     double factor) {
  const double lo = at - (at - r.lo) * factor, hi = at + (r.hi - at) * factor;
  return clamp(d, {lo, hi});
}

MemoryViewerRange memory_viewer_pan(const MemoryViewerData& d, MemoryViewerRange r, double delta) {
  return clamp(d, {r.lo + delta, r.hi + delta});
}

}  // namespace strata
