// The memory chart's side of the engine: gathering MemoryData from the loaded trace (memory
// counters at once; Kineto [memory] records by one extra pass over the file), Ascend memory
// CSVs opened on their own or on top of a trace, and the chart's JSON queries.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/base/json_writer.h"
#include "core/base/text.h"
#include "core/formats/json/json_flat.h"
#include "core/formats/xplane/xplane_details.h"
#include "core/memory/ascend_memory.h"
#include "core/memory/kineto_memory.h"
#include "core/memory/memory_query.h"
#include "core/memory/xplane_memory.h"
#include "core/query/hierarchy.h"
#include "engine/engine.h"
#include "engine/memory_devices.h"
#include "engine/memory_modules.h"
#include "engine/query_args.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_memory.h"
#include "protocol/worker_messages.h"

namespace strata {

namespace {

namespace keys = protocol::keys;
namespace query = protocol::memory_query;
namespace arg = protocol::memory_args;
using protocol::append_key;

bool mentions_memory(std::string_view s) { return ascii_lower(s).find("mem") != std::string::npos; }

void append_values(std::string* o, std::string_view key, const std::vector<MemoryBucket>& b,
                   int which) {
  append_key(o, key);
  *o += '[';
  for (size_t i = 0; i < b.size(); ++i) {
    if (i) *o += ',';
    const bool has = which < 2 ? b[i].has_alloc : b[i].has_resv;
    const double v = which == 0   ? b[i].alloc_min
                     : which == 1 ? b[i].alloc_max
                     : which == 2 ? b[i].resv_min
                                  : b[i].resv_max;
    if (has)
      json_append_number(o, v);
    else
      *o += "null";
  }
  *o += ']';
}

// A query's answer when it failed.
std::string failure_json(std::string_view message) {
  std::string o;
  append_key(&o, keys::failure::kError, '{');
  json_append_string(&o, message);
  return o + '}';
}

}  // namespace

void Engine::memory_reset() {
  memory_ = MemoryData();
  const TraceStore& s = *store_;
  // Chrome `C` counters whose track or series name says memory, or whose series name gives a
  // byte unit ("Allocated (MB)": the store has scaled its values to bytes): one series each.
  for (const CounterSeries& cs : s.series) {
    const Track& t = s.tracks[cs.track];
    const std::string_view track_name = s.strings.get(t.name), key = s.strings.get(cs.name);
    if (!cs.in_bytes && !mentions_memory(track_name) && !mentions_memory(key)) continue;
    MemorySeries m;
    m.device = std::string(track_name.empty() ? std::string_view(t.key) : track_name);
    m.component = key == "value" ? std::string() : std::string(key);
    const bool reserved =
        (cs.in_bytes || mentions_memory(key)) && key.find("eserv") != std::string_view::npos;
    for (uint32_t i = cs.first_sample; i < cs.first_sample + cs.sample_count; ++i)
      m.add(s.samples.ts[i], reserved ? std::nan("") : s.samples.value[i],
            reserved ? s.samples.value[i] : std::nan(""));
    memory_.series.push_back(std::move(m));
  }
  if (!memory_.series.empty()) memory_.sources.push_back("counters");
  memory_finish(&memory_);
  memory_scan_pending_ = false;
  memory_scan_ = MemoryScan();
}

uint32_t Engine::memory_scan_begin() {
  const TraceStore& s = *store_;
  std::vector<MemoryScan::Want> wants;
  // Kineto [memory] instants; xplane MemoryAllocation / MemoryDeallocation events.
  const StrId names[] = {s.strings.find("[memory]"),
                         s.xspace ? s.strings.find("MemoryAllocation") : kNone,
                         s.xspace ? s.strings.find("MemoryDeallocation") : kNone};
  for (uint32_t e = 0; e < s.events.size(); ++e) {
    const StrId n = s.events.name[e];
    if ((n == names[0] || n == names[1] || n == names[2]) && n != kNone && s.events.src_len[e] > 0)
      wants.push_back({s.events.src_offset[e], s.events.src_len[e], e});
  }
  // A Kineto file's head, for the device memory its deviceProperties state (event kNone).
  if (!s.xspace && s.device_count > 0)
    for (const SourceFile& f : s.files)
      if (f.format == "chrome-json")
        wants.push_back(
            {f.stream_base,
             static_cast<uint32_t>(f.compression == "none"
                                       ? std::min<uint64_t>(f.bytes, kDevicePropertiesHeadBytes)
                                       : kDevicePropertiesHeadBytes),
             kNone});
  memory_scan_pending_ = !wants.empty();
  memory_scan_.begin(std::move(wants));
  memory_scan_file(0);
  return static_cast<uint32_t>(memory_scan_.size());
}

void Engine::memory_scan_file(uint32_t i) { scan_file(&memory_scan_, i); }

void Engine::memory_scan_end() {
  if (!memory_scan_pending_) return;
  memory_scan_pending_ = false;
  const TraceStore& s = *store_;
  // Time order (the file's order is by thread or by plane line): alloc / free pairing needs it.
  // The files' heads (no event) give the devices' memory.
  std::vector<uint32_t> order;
  MemoryData heads;
  for (uint32_t i = 0; i < memory_scan_.size(); ++i) {
    if (memory_scan_.want(i).event != kNone) {
      order.push_back(i);
      continue;
    }
    for (MemoryCapacity& c : kineto_device_memory(memory_scan_.record(i)))
      if (std::none_of(heads.capacities.begin(), heads.capacities.end(),
                       [&](const MemoryCapacity& x) { return x.device == c.device; }))
        heads.capacities.push_back(std::move(c));
  }
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return s.events.start[memory_scan_.want(a).event] < s.events.start[memory_scan_.want(b).event];
  });
  KinetoMemoryBuilder kineto;
  XplaneMemoryBuilder xplane;
  const StrId alloc_name = s.strings.find("MemoryAllocation");
  bool any_kineto = false, any_xplane = false;
  for (uint32_t i : order) {
    const MemoryScan::Want& w = memory_scan_.want(i);
    const TimeNs ts = s.events.start[w.event];
    if (s.xspace) {
      any_xplane = true;
      xplane.add(xplane_record_json(s, w.event, memory_scan_.record(i)), ts,
                 s.events.name[w.event] == alloc_name);
    } else {
      any_kineto = true;
      const uint32_t parent = parent_of(s, w.event);
      kineto.add(
          memory_scan_.record(i), ts,
          parent == kNone ? std::string() : std::string(s.strings.get(s.events.name[parent])));
    }
  }
  if (any_kineto) memory_merge(&memory_, kineto.take());
  if (any_xplane) memory_merge(&memory_, xplane.take());
  if (!heads.capacities.empty()) memory_merge(&memory_, std::move(heads));
  memory_scan_ = MemoryScan();
}

bool Engine::csv_load_end() {
  MemoryData m;
  std::string err;
  bool ok = csv_->finish();
  if (ok)
    ok = parse_ascend_memory_csv(csv_->text(), &m, &err);
  else
    err = csv_->error();
  if (!csv_->warning().empty()) m.warnings.push_back(csv_->warning());
  csv_.reset();
  importer_.reset();
  if (!ok) {
    load_fail(err);
    return false;
  }
  memory_finish(&m);
  last_error_.clear();
  if (store_->events.size() > 0) {
    // On top of a trace: its memory gains the CSV's; the timeline stays as it is.
    memory_merge(&memory_, std::move(m));
    last_load_merged_ = true;
    loading_.reset();
    loading_name_.clear();
    return true;
  }
  // On its own (or on top of other memory CSVs): an empty timeline spanning the data.
  MemoryData keep = std::move(memory_);
  memory_merge(&keep, std::move(m));
  TimeNs lo = 0, hi = 0;
  const bool any = memory_time_span(keep, nullptr, &lo, &hi);
  loading_->files[0].format = "ascend-csv";
  loading_->files[0].bytes = loaded_bytes_;
  loading_->has_time = any;
  loading_->start_ns = lo;
  loading_->end_ns = hi;
  loading_->warnings = keep.warnings;
  Pyramid pyramid = build_pyramid(*loading_);
  install(std::move(loading_), std::move(pyramid));
  memory_ = std::move(keep);
  loading_name_.clear();
  return true;
}

std::string Engine::memory_query_json(std::string_view kind, std::string_view args_text) const {
  QueryArgs args;
  std::string err;
  if (!json_flatten(args_text.empty() ? "{}" : args_text, &args.lines, &err))
    return failure_json("bad query");
  const TraceStore& s = *store_;
  const TimeNs origin = s.has_time ? s.start_ns : 0;
  const MemoryData& m = memory_;
  auto rel = [&](TimeNs t) { return static_cast<double>(t - origin); };
  const std::string device = args.text(arg::kDevice);
  std::string o;

  if (kind == query::kSummary) {
    namespace summary = keys::memory_summary;
    namespace dev = keys::memory_device;
    namespace series = keys::memory_device_series;
    append_key(&o, summary::kPending, '{');
    o += memory_scan_pending_ ? "true" : "false";
    append_key(&o, summary::kSources);
    o += '[';
    for (size_t i = 0; i < m.sources.size(); ++i) {
      if (i) o += ',';
      json_append_string(&o, m.sources[i]);
    }
    o += ']';
    append_key(&o, summary::kWarnings);
    o += '[';
    for (size_t i = 0; i < m.warnings.size(); ++i) {
      if (i) o += ',';
      json_append_string(&o, m.warnings[i]);
    }
    o += ']';
    append_key(&o, summary::kDevices);
    o += '[';
    const std::vector<std::string> devices = memory_devices(m);
    for (size_t d = 0; d < devices.size(); ++d) {
      if (d) o += ',';
      const uint32_t primary = memory_primary_series(m, devices[d]);
      MemoryPeak peak;
      bool peak_reserved = false;
      if (primary != kNone) {
        peak = series_peak(m.series[primary], false);
        if (!peak.valid) peak = series_peak(m.series[primary], true), peak_reserved = peak.valid;
      }
      uint64_t samples = 0, allocs = 0, unreleased = 0;
      for (const MemorySeries& sr : m.series)
        if (sr.device == devices[d]) samples += sr.size();
      for (size_t i = 0; i < m.allocations.size(); ++i)
        if (m.allocations.device[i] == devices[d])
          ++allocs, unreleased += m.allocations.release_ts[i] == kNoRelease;
      auto listed = [&](const std::vector<std::string>& v) {
        return std::find(v.begin(), v.end(), devices[d]) != v.end();
      };
      append_key(&o, dev::kName, '{');
      json_append_string(&o, devices[d]);
      append_key(&o, dev::kPairsAllocations);
      o += listed(m.paired_devices) ? "true" : "false";
      append_key(&o, dev::kNoAddr);
      o += listed(m.addressless_devices) ? "true" : "false";
      append_key(&o, dev::kPeakBytes);
      json_append_number(&o, peak.valid ? peak.bytes : 0);
      append_key(&o, dev::kPeakNs);
      json_append_int(&o, peak.valid ? peak.ts : 0);
      append_key(&o, dev::kPeakRelNs);
      json_append_number(&o, peak.valid ? rel(peak.ts) : 0);
      append_key(&o, dev::kPeakIsReserved);
      o += peak_reserved ? "true" : "false";
      // The device's memory as the profile states it, and the peak's share of it.
      for (const MemoryCapacity& c : m.capacities) {
        if (c.device != devices[d]) continue;
        if (!(c.bytes > 0)) {
          append_key(&o, dev::kCapacityWhy);
          json_append_string(&o, c.source);
          continue;
        }
        append_key(&o, dev::kCapacityBytes);
        json_append_number(&o, c.bytes);
        append_key(&o, dev::kCapacitySource);
        json_append_string(&o, c.source);
        append_key(&o, dev::kPeakShare);
        json_append_number(&o, peak.valid ? peak.bytes / c.bytes : 0);
      }
      // The device's data range, for "fit" (an Ascend CSV on top of a trace may use another clock).
      TimeNs lo = 0, hi = 0;
      const bool any = memory_time_span(m, &devices[d], &lo, &hi);
      append_key(&o, dev::kStartRelNs);
      json_append_number(&o, any ? rel(lo) : 0);
      append_key(&o, dev::kEndRelNs);
      json_append_number(&o, any ? rel(hi) : 0);
      append_key(&o, dev::kSamples);
      o += std::to_string(samples);
      append_key(&o, dev::kAllocations);
      o += std::to_string(allocs);
      append_key(&o, dev::kUnreleased);
      o += std::to_string(unreleased);
      append_key(&o, dev::kPrimary);
      json_append_string(&o, primary == kNone ? std::string() : m.series[primary].component);
      append_key(&o, dev::kSeries);
      o += '[';
      bool first = true;
      for (const MemorySeries& sr : m.series) {
        if (sr.device != devices[d]) continue;
        if (!first) o += ',';
        first = false;
        const MemoryPeak pa = series_peak(sr, false), pr = series_peak(sr, true);
        append_key(&o, series::kComponent, '{');
        json_append_string(&o, sr.component);
        append_key(&o, series::kSamples);
        o += std::to_string(sr.size());
        // A peak's time follows it, when there is one.
        auto peak_of = [&](std::string_view key, std::string_view key_t, const MemoryPeak& p) {
          append_key(&o, key);
          if (!p.valid) {
            o += "null";
            return;
          }
          json_append_number(&o, p.bytes);
          append_key(&o, key_t);
          json_append_number(&o, rel(p.ts));
        };
        peak_of(series::kPeakAllocated, series::kPeakAllocatedRelNs, pa);
        peak_of(series::kPeakReserved, series::kPeakReservedRelNs, pr);
        o += '}';
      }
      o += "]}";
    }
    return o + "]}";
  }

  if (kind == query::kRange) {
    const bool by_component = args.text(arg::kGroup) == "component";
    const double t0 = args.number(arg::kT0, 0), t1 = args.number(arg::kT1, 1);
    const auto px = static_cast<uint32_t>(std::clamp(args.number(arg::kPx, 1000), 1.0, 8192.0));
    const uint32_t primary = memory_primary_series(m, device);
    namespace range = keys::memory_range;
    namespace line = keys::memory_range_series;
    append_key(&o, range::kDevice, '{');
    json_append_string(&o, device);
    append_key(&o, range::kT0);
    json_append_number(&o, t0);
    append_key(&o, range::kT1);
    json_append_number(&o, t1);
    append_key(&o, range::kSeries);
    o += '[';
    bool first = true;
    for (uint32_t i = 0; i < m.series.size(); ++i) {
      const MemorySeries& sr = m.series[i];
      if (sr.device != device || (!by_component && i != primary)) continue;
      if (!first) o += ',';
      first = false;
      const std::vector<MemoryBucket> b = memory_buckets(sr, static_cast<double>(origin) + t0,
                                                         static_cast<double>(origin) + t1, px);
      append_key(&o, line::kComponent, '{');
      json_append_string(&o, sr.component);
      append_values(&o, line::kAmin, b, 0);
      append_values(&o, line::kAmax, b, 1);
      append_values(&o, line::kRmin, b, 2);
      append_values(&o, line::kRmax, b, 3);
      o += '}';
    }
    return o + "]}";
  }

  auto alloc_json = [&](uint32_t i) {
    namespace alloc = keys::memory_alloc;
    const MemoryAllocations& a = m.allocations;
    append_key(&o, alloc::kName, '{');
    json_append_string(&o, a.name[i]);
    append_key(&o, alloc::kBytes);
    json_append_number(&o, a.bytes[i]);
    append_key(&o, alloc::kAllocNs);
    json_append_number(&o, rel(a.alloc_ts[i]));
    append_key(&o, alloc::kReleaseNs);
    if (a.release_ts[i] == kNoRelease)
      o += "null";
    else
      json_append_number(&o, rel(a.release_ts[i]));
    append_key(&o, alloc::kShape);
    json_append_string(&o, a.shape[i]);
    append_key(&o, alloc::kRegion);
    json_append_string(&o, a.region[i]);
    o += '}';
  };

  if (kind == query::kLive) {
    const double t = args.number(arg::kT, 0);
    const std::string by = args.text(arg::kBy, "operator");
    const auto limit =
        static_cast<size_t>(std::clamp(args.number(arg::kLimit, 200), 0.0, 100000.0));
    const TimeNs at = origin + static_cast<TimeNs>(std::llround(t));
    const std::vector<uint32_t> live = memory_live_at(m, device, at);
    // Memory the rows cannot name (held before the trace began) is a group of its own, so the
    // groups add up to what the chart shows at t.
    const double before = memory_untracked_at(m, device, at, live);
    double total = before;
    for (uint32_t i : live) total += m.allocations.bytes[i];
    namespace live_keys = keys::memory_live;
    namespace group = keys::memory_group;
    append_key(&o, live_keys::kT, '{');
    json_append_number(&o, t);
    append_key(&o, live_keys::kCount);
    o += std::to_string(live.size());
    append_key(&o, live_keys::kBytes);
    json_append_number(&o, total);
    append_key(&o, live_keys::kBeforeTraceBytes);
    json_append_number(&o, before);
    append_key(&o, live_keys::kTop);
    o += '[';
    for (size_t k = 0; k < live.size() && k < limit; ++k) {
      if (k) o += ',';
      alloc_json(live[k]);
    }
    o += ']';
    append_key(&o, live_keys::kGroups);
    o += '[';
    std::vector<MemoryGroup> groups = memory_breakdown(m, live,
                                                       by == "shape"    ? MemoryGroupBy::kShape
                                                       : by == "region" ? MemoryGroupBy::kRegion
                                                                        : MemoryGroupBy::kOperator);
    // The rows' bytes cannot be 0, so a group without buffers is the before-the-trace one.
    if (before > 0) {
      const MemoryGroup g{"(allocated before the trace began)", before, 0};
      groups.insert(std::upper_bound(groups.begin(), groups.end(), g,
                                     [](const MemoryGroup& x, const MemoryGroup& y) {
                                       return x.bytes > y.bytes;
                                     }),
                    g);
    }
    for (size_t k = 0; k < groups.size() && k < limit; ++k) {
      if (k) o += ',';
      append_key(&o, group::kKey, '{');
      json_append_string(&o, groups[k].key);
      if (groups[k].count == 0) append_key(&o, group::kBeforeTrace), o += "true";
      append_key(&o, group::kBytes);
      json_append_number(&o, groups[k].bytes);
      append_key(&o, group::kCount);
      o += std::to_string(groups[k].count);
      append_key(&o, group::kShare);
      json_append_number(&o, total > 0 ? groups[k].bytes / total : 0);
      o += '}';
    }
    o += ']';
    append_live_module(&o, s, graph_session_if_made(), device, at, origin);
    return o + '}';
  }

  if (kind == query::kAllocs) {
    const auto limit = static_cast<size_t>(std::clamp(args.number(arg::kLimit, 20000), 0.0, 1e6));
    uint64_t count = 0;
    append_key(&o, keys::memory_allocs::kRows, '{');
    o += '[';
    for (uint32_t i = 0; i < m.allocations.size(); ++i) {
      if (m.allocations.device[i] != device) continue;
      if (count++ >= limit) continue;
      if (count > 1) o += ',';
      alloc_json(i);
    }
    o += ']';
    append_key(&o, keys::memory_allocs::kCount);
    return o + std::to_string(count) + '}';
  }
  if (kind == query::kModule)
    return memory_module_json(s, m, graph_session_if_made(), args.text(arg::kModule),
                              args.text(arg::kProgramId), origin);
  return failure_json("unknown memory query");
}

}  // namespace strata
