// The Memory tab's labels: times to the microsecond, the chart's round Y ticks, and the view's
// state as JSON for the script API (strata.memoryView()).
#include <cmath>
#include <cstdio>

#include "core/base/json_writer.h"
#include "protocol/reply_keys.h"
#include "ui/labels.h"
#include "ui/memory/memory_view.h"

namespace strata {

std::string memory_capacity_label(const MemoryView::Device& d) {
  if (!(d.capacity > 0) || !std::isfinite(d.peak_share)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%% of ", 100.0 * d.peak_share);
  return buf + byte_label(d.capacity, ByteUnits::kBinary) + " device memory";
}

std::string memory_capacity_note(const MemoryView::Device& d) {
  if (!memory_capacity_label(d).empty()) return "";
  std::string o = kMemoryNoCapacity;
  if (!d.capacity_why.empty()) o += ": " + d.capacity_why;
  return o;
}

std::string memory_time_label(double ns) {
  if (!std::isfinite(ns)) return "?";
  const double a = std::fabs(ns);
  char buf[48];
  if (a >= 1e9) {
    std::snprintf(buf, sizeof buf, "%.6f s", ns / 1e9);
  } else if (a >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.3f ms", ns / 1e6);
  } else {
    // Whole microseconds as such; a source that records nanoseconds keeps them.
    const bool whole = std::fabs(ns / 1e3 - std::round(ns / 1e3)) < 1e-9;
    std::snprintf(buf, sizeof buf, whole ? "%.0f us" : "%.3f us", ns / 1e3);
  }
  return buf;
}

void memory_y_ticks(double ymax, std::vector<double>* at, std::vector<std::string>* labels) {
  at->clear();
  labels->clear();
  if (!(ymax > 0)) return;
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int k = 0;
  double unit = 1;
  while (k < 4 && ymax / unit >= 1024) unit *= 1024, ++k;
  // About kMemoryYTicks intervals, each 1, 2, 2.5 or 5 × 10^n of the unit.
  const double raw = ymax / unit / kMemoryYTicks;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  const double m = raw / p;
  const double nice = m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10;
  const double step = nice * p;
  for (int i = 0; i * step * unit <= ymax * (1 + 1e-9) && i < 100; ++i) {
    at->push_back(i * step * unit);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g %s", i * step, kUnits[k]);
    labels->push_back(i == 0 ? "0" : buf);
  }
}

namespace {

// A run as the replies gave it (protocol memory_xla_run keys), null when there is none.
void append_run(std::string* o, const MemoryView::XlaRun& r) {
  namespace run = protocol::keys::memory_xla_run;
  using protocol::append_key;
  if (!r.valid) {
    *o += "null";
    return;
  }
  append_key(o, run::kDevice, '{');
  json_append_string(o, r.device);
  append_key(o, run::kModule);
  json_append_string(o, r.module);
  append_key(o, run::kProgramId);
  json_append_string(o, r.program);
  append_key(o, run::kPlane);
  json_append_string(o, r.plane);
  append_key(o, run::kStartRelNs);
  json_append_number(o, r.start);
  append_key(o, run::kEndRelNs);
  json_append_number(o, r.end);
  append_key(o, run::kDuring);
  *o += r.during ? "true" : "false";
  append_key(o, run::kGraphModule);
  *o += std::to_string(r.graph_module);
  append_key(o, run::kBufferAssignment);
  *o += r.buffer_assignment ? "true" : "false";
  append_key(o, run::kWhy);
  json_append_string(o, r.why);
  append_key(o, run::kOp);
  json_append_string(o, r.op);
  append_key(o, run::kPoint);
  *o += std::to_string(r.point);
  append_key(o, run::kPeakBytes);
  json_append_number(o, r.peak_bytes);
  append_key(o, run::kPeakRelNs);
  json_append_number(o, r.peak_t);
  *o += '}';
}

}  // namespace

std::string memory_view_json(const MemoryView& m) {
  std::string o = "{\"ready\":";
  o += m.summary_ready ? "true" : "false";
  o += ",\"device\":";
  json_append_string(&o, m.devices.empty() ? std::string() : m.devices[m.device].name);
  o += ",\"yTicks\":[";
  for (size_t i = 0; i < m.y_ticks.size(); ++i) {
    o += i ? ",{\"bytes\":" : "{\"bytes\":";
    json_append_number(&o, m.y_ticks[i]);
    o += ",\"label\":";
    json_append_string(&o, m.y_labels[i]);
    o += '}';
  }
  o += "],\"peakLabel\":";
  json_append_string(&o, m.peak_label);
  o += ",\"capacityLabel\":";
  json_append_string(
      &o, m.devices.empty() ? std::string() : memory_capacity_label(m.devices[m.device]));
  o += ",\"capacityNote\":";
  json_append_string(&o,
                     m.devices.empty() ? std::string() : memory_capacity_note(m.devices[m.device]));
  o += ",\"capacityShown\":";
  json_append_string(&o, m.capacity_shown);
  o += ",\"hoverText\":";
  json_append_string(&o, m.hover_text);
  o += ",\"liveT\":";
  if (std::isnan(m.live_t))
    o += "null";
  else
    json_append_number(&o, m.live_t);
  o += ",\"liveLabel\":";
  json_append_string(&o, m.live_label);
  o += ",\"liveGroups\":[";
  for (size_t i = 0; i < m.live_groups.size(); ++i) {
    const MemoryView::Group& g = m.live_groups[i];
    // The groups as the engine's memory_live reply gave them.
    namespace group = protocol::keys::memory_group;
    if (i) o += ',';
    protocol::append_key(&o, group::kKey, '{');
    json_append_string(&o, g.key);
    protocol::append_key(&o, group::kBytes);
    json_append_number(&o, g.bytes);
    protocol::append_key(&o, group::kCount);
    o += std::to_string(g.count);
    if (g.before_trace) protocol::append_key(&o, group::kBeforeTrace), o += "true";
    o += '}';
  }
  o += "],\"allocations\":" + std::to_string(m.allocs.size()) + ",\"allocationsNote\":";
  json_append_string(&o, m.allocs_note);
  auto box = [&](const char* key, float x, float y, float w, float h) {
    o += std::string(",\"") + key + "\":{\"x\":";
    json_append_number(&o, x);
    o += ",\"y\":";
    json_append_number(&o, y);
    o += ",\"w\":";
    json_append_number(&o, w);
    o += ",\"h\":";
    json_append_number(&o, h);
    o += '}';
  };
  box("plot", m.plot_x, m.plot_y, m.plot_w, m.plot_h);
  box("hoverBox", m.hover_x, m.hover_y, m.hover_w, m.hover_h);
  // The XLA run at the live instant and its button; the Memory Viewer's module shown.
  o += ",\"xlaRun\":";
  append_run(&o, m.live_run);
  box("viewerButton", m.viewer_button[0], m.viewer_button[1], m.viewer_button[2],
      m.viewer_button[3]);
  o += ",\"focus\":{\"module\":";
  json_append_string(&o, m.focus_module);
  protocol::append_key(&o, protocol::keys::memory_module::kProgramId);
  json_append_string(&o, m.focus_program);
  o += ",\"runs\":" + std::to_string(m.focus_runs) + ",\"why\":";
  json_append_string(&o, m.focus_why);
  o += ",\"run\":";
  append_run(&o, m.focus_run);
  o += std::string(",\"pending\":") + (m.focus_pending || m.focus_answered ? "true" : "false");
  o += "},\"view\":[";
  json_append_number(&o, m.shown_t0);
  o += ',';
  json_append_number(&o, m.shown_t1);
  return o + "]}";
}

}  // namespace strata
