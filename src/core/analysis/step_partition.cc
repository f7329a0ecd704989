#include "core/analysis/step_partition.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "core/analysis/intervals.h"
#include "core/formats/xplane/xplane_derived.h"
#include "core/formats/xplane/xplane_tables.h"
#include "protocol/analysis_keys.h"

namespace strata {

namespace {

// The event types by increasing priority: a sweep keeps one count per slot.
constexpr StepEventType kTypesByPriority[] = {
    StepEventType::kUnknown,           StepEventType::kHostCompute,
    StepEventType::kHostCompile,       StepEventType::kHostToHost,
    StepEventType::kHostToDevice,      StepEventType::kHostPrepare,
    StepEventType::kDeviceCollectives, StepEventType::kHostWaitInput,
    StepEventType::kDeviceToDevice,    StepEventType::kDeviceToHost,
    StepEventType::kDeviceCompute,
};
constexpr size_t kTypes = std::size(kTypesByPriority);

size_t slot_of(StepEventType t) {
  for (size_t i = 0; i < kTypes; ++i)
    if (kTypesByPriority[i] == t) return i;
  return 0;
}

bool contains_nocase(std::string_view s, std::string_view lower) {
  if (lower.size() > s.size()) return false;
  for (size_t i = 0; i + lower.size() <= s.size(); ++i) {
    size_t k = 0;
    while (k < lower.size() && std::tolower(static_cast<unsigned char>(s[i + k])) ==
                                   static_cast<unsigned char>(lower[k]))
      ++k;
    if (k == lower.size()) return true;
  }
  return false;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool is_profiler_step_name(std::string_view n) {
  constexpr std::string_view kPrefix = "ProfilerStep#";
  return starts_with(n, kPrefix) && n.size() > kPrefix.size();
}

// Host events that say nothing about where a step's time goes: Kineto's Python frames (the
// training loop's frame spans every step; XProf, which sees no Python, shows that time as
// "all others") and the profiler's own span of the whole capture.
bool skipped_host_category(std::string_view cat) {
  return cat == "python_function" || cat == "Trace";
}

bool is_host_plane(const TraceStore& s, uint32_t process) {
  const XSpaceTables* x = s.xspace.get();
  if (!x) return true;
  const uint32_t plane =
      process < x->plane_of_process.size() ? x->plane_of_process[process] : kNone;
  return plane != kNone && plane < x->planes.size() &&
         starts_with(x->planes[plane].name, "/host:") && x->planes[plane].name != "/host:metadata";
}

constexpr uint8_t kSkipped = 0xff;  // a host event left out of the partition

struct Group {
  size_t first = 0, end = 0;  // [first, end) in the steps
  uint32_t track = 0;
  bool on_device = false;
};

// The steps of a group overlapping [a, z): from the first whose end passes a (steps of one
// track follow one another), while they start before z.
template <class F>
void for_steps_overlapping(const std::vector<Step>& steps, const Group& g, TimeNs a, TimeNs z,
                           F&& f) {
  auto it = std::partition_point(steps.begin() + static_cast<std::ptrdiff_t>(g.first),
                                 steps.begin() + static_cast<std::ptrdiff_t>(g.end),
                                 [&](const Step& st) { return st.end <= a; });
  for (; it != steps.begin() + static_cast<std::ptrdiff_t>(g.end) && it->start < z; ++it)
    if (it->end > a) f(static_cast<size_t>(it - steps.begin()));
}

}  // namespace

const char* step_part_key(StepPart p) {
  namespace k = protocol::keys::step_parts;
  static_assert(k::kCount == kStepParts, "one overview column per step part");
  return k::kKeys[static_cast<size_t>(p)];
}

const char* step_part_label(StepPart p) {
  static constexpr const char* kLabels[kStepParts] = {"Device compute",
                                                      "Collectives",
                                                      "Host to device",
                                                      "Device to host",
                                                      "Device to device",
                                                      "Input wait",
                                                      "Kernel launch",
                                                      "Host compute",
                                                      "Compile",
                                                      "Other",
                                                      "Idle"};
  return kLabels[static_cast<size_t>(p)];
}

StepPart step_part_of(StepEventType t) {
  switch (t) {
    case StepEventType::kDeviceCompute:
      return StepPart::kDeviceCompute;
    case StepEventType::kDeviceCollectives:
      return StepPart::kCollectives;
    case StepEventType::kHostToDevice:
      return StepPart::kHostToDevice;
    case StepEventType::kDeviceToHost:
      return StepPart::kDeviceToHost;
    case StepEventType::kDeviceToDevice:
      return StepPart::kDeviceToDevice;
    case StepEventType::kHostWaitInput:
      return StepPart::kInputWait;
    case StepEventType::kHostPrepare:
      return StepPart::kKernelLaunch;
    case StepEventType::kHostCompute:
      return StepPart::kHostCompute;
    case StepEventType::kHostCompile:
      return StepPart::kCompile;
    case StepEventType::kHostToHost:
    case StepEventType::kUnknown:
      return StepPart::kOther;
  }
  return StepPart::kOther;
}

StepEventType classify_host_event(std::string_view name, std::string_view cat,
                                  bool launched_device_work) {
  if (starts_with(name, "enumerate(DataLoader)") || starts_with(name, "IteratorGetNext"))
    return StepEventType::kHostWaitInput;
  if (contains_nocase(name, "memcpyhtod") || starts_with(name, "InfeedEnqueue"))
    return StepEventType::kHostToDevice;
  if (contains_nocase(name, "memcpyhtoh")) return StepEventType::kHostToHost;
  if (launched_device_work) return StepEventType::kHostPrepare;
  if (contains_nocase(name, "compile") && !contains_nocase(name, "compiled"))
    return StepEventType::kHostCompile;
  if (cat == "overhead") return StepEventType::kUnknown;
  return StepEventType::kHostCompute;
}

StepEventType classify_device_event(GpuWork kind, std::string_view name) {
  switch (kind) {
    case GpuWork::kComm:
      return StepEventType::kDeviceCollectives;
    case GpuWork::kMemcpy:
      if (contains_nocase(name, "memset")) return StepEventType::kDeviceCompute;
      if (contains_nocase(name, "htod")) return StepEventType::kHostToDevice;
      if (contains_nocase(name, "dtoh")) return StepEventType::kDeviceToHost;
      if (contains_nocase(name, "htoh")) return StepEventType::kHostToHost;
      return StepEventType::kDeviceToDevice;
    case GpuWork::kCompute:
      return StepEventType::kDeviceCompute;
    case GpuWork::kNotGpu:
      break;
  }
  return StepEventType::kUnknown;
}

StepParts partition_window(TimeNs begin, TimeNs end, std::vector<TypedSpan> spans,
                           StepPartEvents* events) {
  StepParts parts{};
  if (events)
    for (auto& list : *events) list.clear();
  if (end <= begin) return parts;
  struct Edge {
    TimeNs t;
    int8_t delta;
    uint8_t slot;
  };
  std::vector<Edge> edges;
  edges.reserve(spans.size() * 2);
  for (const TypedSpan& sp : spans) {
    const TimeNs a = std::max(sp.begin, begin), z = std::min(sp.end, end);
    if (z <= a) continue;
    const auto slot = static_cast<uint8_t>(slot_of(sp.type));
    edges.push_back({a, +1, slot});
    edges.push_back({z, -1, slot});
  }
  std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) { return x.t < y.t; });
  std::array<int64_t, kTypes> active{};
  // The time each type owns, as ordered disjoint intervals (only kept when events are asked).
  std::array<std::vector<Interval>, kTypes> owned;
  TimeNs at = begin;
  auto give = [&](TimeNs until) {
    if (until <= at) return;
    size_t top = kTypes;
    for (size_t i = kTypes; i-- > 0;)
      if (active[i] > 0) {
        top = i;
        break;
      }
    const StepPart p = top == kTypes ? StepPart::kIdle : step_part_of(kTypesByPriority[top]);
    parts[static_cast<size_t>(p)] += until - at;
    if (events && top != kTypes) {
      std::vector<Interval>& o = owned[top];
      if (!o.empty() && o.back().end == at)
        o.back().end = until;
      else
        o.push_back({at, until});
    }
    at = until;
  };
  for (size_t i = 0; i < edges.size();) {
    const TimeNs t = edges[i].t;
    give(t);
    for (; i < edges.size() && edges[i].t == t; ++i) active[edges[i].slot] += edges[i].delta;
  }
  give(end);
  if (!events) return parts;
  // A span's event owns time in its part when its clipped span meets a stretch its type owns
  // (the sweep's stretches lie between edges, so meeting one means covering it).
  for (const TypedSpan& sp : spans) {
    if (sp.event == kNone) continue;
    const TimeNs a = std::max(sp.begin, begin), z = std::min(sp.end, end);
    if (z <= a) continue;
    const size_t slot = slot_of(sp.type);
    const std::vector<Interval>& o = owned[slot];
    auto it =
        std::partition_point(o.begin(), o.end(), [&](const Interval& v) { return v.end <= a; });
    if (it != o.end() && it->begin < z)
      (*events)[static_cast<size_t>(step_part_of(sp.type))].push_back(sp.event);
  }
  for (auto& list : *events) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  return parts;
}

std::vector<StepBreakdown> partition_steps(const TraceStore& s, const GpuWorkSet& w,
                                           const std::vector<Step>& steps, bool with_events) {
  std::vector<StepBreakdown> out(steps.size());
  if (steps.empty()) return out;
  // Which host process launches work on which device, and which host events launched any
  // (a flow from another process into GPU work: Kineto's ac2g).
  std::vector<uint8_t> launched(s.events.size(), 0);
  std::vector<std::vector<uint32_t>> devices_of_process(s.processes.size());
  std::vector<uint8_t> gpu_process(s.processes.size(), 0);
  std::vector<uint32_t> device_of_process(s.processes.size(), kNone);
  for (size_t d = 0; d < w.devices.size(); ++d) {
    gpu_process[w.devices[d].process] = 1;
    device_of_process[w.devices[d].process] = static_cast<uint32_t>(d);
  }
  for (size_t f = 0; f < s.flows.size(); ++f) {
    const uint32_t from = s.flows.from[f], to = s.flows.to[f];
    if (w.work_of[to] == GpuWork::kNotGpu) continue;
    const uint32_t pf = s.tracks[s.events.track[from]].process;
    const uint32_t pt = s.tracks[s.events.track[to]].process;
    if (pf == pt) continue;
    launched[from] = 1;
    if (device_of_process[pt] != kNone) devices_of_process[pf].push_back(device_of_process[pt]);
  }
  for (auto& list : devices_of_process) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  // Host classification per (name, category), not per event.
  std::unordered_map<uint64_t, uint8_t> type_of_name;

  // Device classification per (kind, name): only a memcpy's name matters.
  std::vector<uint8_t> memcpy_type_of_name;
  auto device_type = [&](uint32_t e) {
    const GpuWork kind = w.work_of[e];
    if (kind != GpuWork::kMemcpy) return classify_device_event(kind, {});
    if (memcpy_type_of_name.empty()) memcpy_type_of_name.assign(s.strings.size(), 0);
    uint8_t& t = memcpy_type_of_name[s.events.name[e]];
    if (t == 0)
      t = static_cast<uint8_t>(classify_device_event(kind, s.strings.get(s.events.name[e])));
    return static_cast<StepEventType>(t);
  };

  std::vector<std::vector<TypedSpan>> spans(steps.size());
  std::vector<std::vector<Interval>> busy(steps.size());
  std::vector<Group> groups;
  for (size_t i = 0; i < steps.size();) {
    Group g;
    g.first = i;
    g.track = s.events.track[steps[i].event];
    g.on_device = steps[i].on_device;
    while (i < steps.size() && s.events.track[steps[i].event] == g.track) ++i;
    g.end = i;
    groups.push_back(g);
  }
  for (uint32_t gi = 0; gi < groups.size(); ++gi) {
    const Group& g = groups[gi];
    const uint32_t process = s.tracks[g.track].process;
    for (size_t k = g.first; k < g.end; ++k) {
      out[k].step = k;
      out[k].group = gi;
    }
    // The host threads whose events count.
    for (uint32_t p = 0; p < s.processes.size(); ++p) {
      const bool host = g.on_device ? (!gpu_process[p] && is_host_plane(s, p)) : p == process;
      if (!host) continue;
      for (uint32_t t : s.processes[p].tracks) {
        const Track& tr = s.tracks[t];
        if (tr.kind != TrackKind::kThread) continue;
        for (uint32_t e = tr.first_event; e < tr.first_event + tr.event_count; ++e) {
          if (s.events.dur[e] <= 0) continue;
          const StrId name = s.events.name[e], cat_id = s.events.cat[e];
          const uint64_t key = (static_cast<uint64_t>(name) << 32) | cat_id;
          auto [it, fresh] = type_of_name.try_emplace(key, 0);
          if (fresh) {
            const std::string_view n = s.strings.get(name), cat = s.strings.get(cat_id);
            it->second = is_profiler_step_name(n) || skipped_host_category(cat)
                             ? kSkipped
                             : static_cast<uint8_t>(classify_host_event(n, cat, false));
          }
          if (it->second == kSkipped) continue;
          const uint8_t type =
              launched[e] ? static_cast<uint8_t>(StepEventType::kHostPrepare) : it->second;
          const TimeNs a = s.events.start[e], z = a + s.events.dur[e];
          for_steps_overlapping(steps, g, a, z, [&](size_t k) {
            spans[k].push_back({a, z, static_cast<StepEventType>(type), e});
            ++out[k].host_events;
          });
        }
      }
    }
    // The device work.
    const std::vector<uint32_t>* linked = g.on_device ? nullptr : &devices_of_process[process];
    for (size_t d = 0; d < w.devices.size(); ++d) {
      const GpuDevice& dev = w.devices[d];
      const bool use =
          g.on_device ? dev.process == process
                      : linked->empty() || std::binary_search(linked->begin(), linked->end(), d);
      if (!use) continue;
      for (const GpuStream& st : dev.streams)
        for (uint32_t e : st.events) {
          const TimeNs a = s.events.start[e], z = a + std::max<TimeNs>(0, s.events.dur[e]);
          if (z <= a) continue;
          const StepEventType type = device_type(e);
          for_steps_overlapping(steps, g, a, z, [&](size_t k) {
            spans[k].push_back({a, z, type, e});
            busy[k].push_back({std::max(a, steps[k].start), std::min(z, steps[k].end)});
            out[k].device_work.push_back(e);
          });
        }
    }
  }
  for (size_t k = 0; k < steps.size(); ++k) {
    out[k].parts = partition_window(steps[k].start, steps[k].end, std::move(spans[k]),
                                    with_events ? &out[k].part_events : nullptr);
    merge_intervals(&busy[k]);
    out[k].device_busy = total_length(busy[k]);
  }
  return out;
}

}  // namespace strata
