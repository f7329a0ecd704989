#include "engine/advisor/figures_events.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "engine/advisor/figures_ascend.h"
#include "engine/engine.h"

namespace strata {

namespace {

constexpr size_t kEvidenceRows = 3;
// msprof-analyze: a batch fetch over 10 ms and a collection over 1 ms are worth a look.
constexpr TimeNs kSlowDataloaderNs = 10'000'000;
constexpr TimeNs kSlowGcNs = 1'000'000;

bool contains_lower(std::string_view s, std::string_view lower_needle) {
  if (s.size() < lower_needle.size()) return false;
  for (size_t i = 0; i + lower_needle.size() <= s.size(); ++i) {
    size_t k = 0;
    while (k < lower_needle.size() &&
           std::tolower(static_cast<unsigned char>(s[i + k])) == lower_needle[k])
      ++k;
    if (k == lower_needle.size()) return true;
  }
  return false;
}

bool equals_lower(std::string_view s, std::string_view lower) {
  return s.size() == lower.size() && contains_lower(s, lower);
}

// Kineto's "enumerate(DataLoader)#...__next__" and the Python tracer's
// "torch/utils/data/dataloader.py(625): __next__": one batch fetched.
bool is_dataloader_fetch(std::string_view name) {
  return contains_lower(name, "dataloader") && contains_lower(name, "__next__");
}

// torch_npu's gc_detect_threshold writes "GC" events; Python's own tracing "gc" categories.
bool is_gc(std::string_view name, std::string_view cat) {
  return equals_lower(name, "gc") || equals_lower(cat, "gc") || equals_lower(name, "gc.collect");
}

// `name` is `process` or ends in " " + `process` (a file group's prefix).
bool is_named(std::string_view name, std::string_view process) {
  if (name.size() == process.size()) return name == process;
  return name.size() > process.size() && name.substr(name.size() - process.size()) == process &&
         name[name.size() - process.size() - 1] == ' ';
}

struct Spans {
  std::vector<uint32_t> events;
  TimeNs total = 0, longest = 0;
  size_t slow = 0;
};

void publish(const TraceStore& s, Spans& x, const std::string& base, TimeNs slow_ns,
             const std::string& what, AdvisorFigureSet* f) {
  f->add(base + ".count", static_cast<double>(x.events.size()), AnalysisUnit::kCount, "timeline",
         what);
  f->add(base + ".total_ns", static_cast<double>(x.total), AnalysisUnit::kNs, "timeline",
         what + ": their total time");
  AdvisorFigure* longest = f->add(base + ".max_ns", static_cast<double>(x.longest),
                                  AnalysisUnit::kNs, "timeline", "the longest of the " + what);
  f->add(base + ".slow_count", static_cast<double>(x.slow), AnalysisUnit::kCount, "timeline",
         what + " over " + format_figure(static_cast<double>(slow_ns), AnalysisUnit::kNs));
  std::stable_sort(x.events.begin(), x.events.end(),
                   [&](uint32_t a, uint32_t b) { return s.events.dur[a] > s.events.dur[b]; });
  std::vector<std::string> names;
  for (uint32_t e : x.events) {
    if (longest->evidence.size() >= kEvidenceRows) break;
    const std::string name(s.strings.get(s.events.name[e]));
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    names.push_back(name);
    AdvisorEvidence ev;
    ev.label = name + ": " + format_figure(static_cast<double>(s.events.dur[e]), AnalysisUnit::kNs);
    ev.link.name = name;
    longest->evidence.push_back(std::move(ev));
  }
}

}  // namespace

void event_figures(const Engine& engine, AdvisorFigureSet* f) {
  const TraceStore& s = *engine.store();
  // Decide per name once, not per event.
  std::vector<uint8_t> kind(s.strings.size(), 0);  // 1 dataloader fetch, 2 GC
  for (StrId id = 0; id < s.strings.size(); ++id)
    if (is_dataloader_fetch(s.strings.get(id))) kind[id] = 1;
  Spans loader, gc;
  for (uint32_t e = 0; e < s.events.size(); ++e) {
    const StrId n = s.events.name[e];
    const bool g = is_gc(s.strings.get(n), s.strings.get(s.events.cat[e]));
    if (kind[n] != 1 && !g) continue;
    Spans& x = g ? gc : loader;
    const TimeNs d = s.events.dur[e];
    x.events.push_back(e);
    x.total += d;
    x.longest = std::max(x.longest, d);
    x.slow += d > (g ? kSlowGcNs : kSlowDataloaderNs);
  }
  if (loader.events.empty())
    f->set_missing("dataloader", "DataLoader batch fetches (__next__ spans) in the trace");
  else
    publish(s, loader, "dataloader", kSlowDataloaderNs, "DataLoader batch fetches", f);
  if (gc.events.empty())
    f->set_missing("gc",
                   "garbage-collection events (torch_npu's gc_detect_threshold, or Python GC "
                   "tracing)");
  else
    publish(s, gc, "gc", kSlowGcNs, "garbage collections", f);

  // An Ascend profile: the torch_npu export's device process, or its database. Several ranks'
  // exports opened together name each process after its file ("rank0 Ascend Hardware").
  bool ascend = !s.files.empty() && s.files[0].format == "ascend-db";
  for (const Process& p : s.processes)
    ascend |= p.name && (is_named(s.strings.get(p.name), "Ascend Hardware") ||
                         is_named(s.strings.get(p.name), "CANN"));
  f->add("ascend.profile", ascend ? 1 : 0, AnalysisUnit::kCount, "timeline",
         "an Ascend profile (an Ascend Hardware or CANN process)");
  if (ascend) ascend_figures(engine, f);
}

}  // namespace strata
