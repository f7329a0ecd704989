#include "core/analysis/gpu_work.h"

#include <algorithm>
#include <cctype>

#include "core/analysis/intervals.h"
#include "core/formats/xplane/xplane_derived.h"
#include "core/formats/xplane/xplane_tables.h"

namespace strata {

namespace {

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  return true;
}

bool is_device_plane(std::string_view plane) { return plane.substr(0, 8) == "/device:"; }

}  // namespace

GpuWork kineto_gpu_work(std::string_view cat, std::string_view name) {
  auto is = [&](std::string_view c) {
    return cat.size() == c.size() && starts_with_nocase(cat, c);
  };
  if (is("gpu_memcpy") || is("memcpy")) return GpuWork::kMemcpy;
  if (is("kernel") || is("gpu_memset") || is("memset"))
    return name.find("nccl") != std::string_view::npos ? GpuWork::kComm : GpuWork::kCompute;
  return GpuWork::kNotGpu;
}

GpuWork ascend_npu_work(std::string_view name) {
  // HCCL's tasks on the communication streams, by their task names.
  for (std::string_view p :
       {"hcom", "hccl", "notify", "write value", "sdma", "rdma", "reduce inline", "reduce_inline"})
    if (starts_with_nocase(name, p)) return GpuWork::kComm;
  if (starts_with_nocase(name, "memcpy")) return GpuWork::kMemcpy;
  return GpuWork::kCompute;
}

bool is_ascend_hardware_process(std::string_view process_name) {
  return process_name == "Ascend Hardware";
}

GpuWork xplane_gpu_work(std::string_view name) {
  if (starts_with_nocase(name, "copy") || starts_with_nocase(name, "memcpy") ||
      starts_with_nocase(name, "memset"))
    return GpuWork::kMemcpy;
  if (name.substr(0, 4) == "nccl") return GpuWork::kComm;
  return GpuWork::kCompute;
}

GpuWorkSet find_gpu_work(const TraceStore& s) {
  GpuWorkSet w;
  w.work_of.assign(s.events.size(), GpuWork::kNotGpu);
  const XSpaceTables* x = s.xspace.get();
  w.from_categories = x == nullptr;
  // Classify per category / name once, not per event.
  std::vector<uint8_t> by_name(s.strings.size(), 0xff), by_cat(x ? 0 : s.strings.size(), 0xff);
  for (uint32_t p = 0; p < s.processes.size(); ++p) {
    bool device_plane = false;
    if (x) {
      const uint32_t plane = p < x->plane_of_process.size() ? x->plane_of_process[p] : kNone;
      device_plane =
          plane != kNone && plane < x->planes.size() && is_device_plane(x->planes[plane].name);
      if (!device_plane) continue;
    }
    const bool ascend =
        !x && s.processes[p].name && is_ascend_hardware_process(s.strings.get(s.processes[p].name));
    GpuDevice dev;
    dev.process = p;
    for (uint32_t t : s.processes[p].tracks) {
      const Track& tr = s.tracks[t];
      if (tr.kind != TrackKind::kThread) continue;
      // Device planes also hold the rows XProf derives (Steps, TensorFlow / XLA Ops, name
      // scopes): not GPU work of their own, whether the file or Strata derived them.
      if (x && ((t < x->derived_track.size() && x->derived_track[t]) || is_derived_line_id(tr.tid)))
        continue;
      GpuStream st;
      st.track = t;
      for (uint32_t e = tr.first_event; e < tr.first_event + tr.event_count; ++e) {
        if (s.events.dur[e] <= 0 && s.events.phase[e] != 'X') continue;
        GpuWork k;
        const StrId name = s.events.name[e];
        if (x || ascend) {
          uint8_t& c = by_name[name];
          if (c == 0xff)
            c = static_cast<uint8_t>(x ? xplane_gpu_work(s.strings.get(name))
                                       : ascend_npu_work(s.strings.get(name)));
          k = static_cast<GpuWork>(c);
        } else {
          // The kind is the category's, then "nccl" in the name tells compute from comm.
          const StrId cat = s.events.cat[e];
          uint8_t& c = by_cat[cat];
          if (c == 0xff) c = static_cast<uint8_t>(kineto_gpu_work(s.strings.get(cat), ""));
          k = static_cast<GpuWork>(c);
          if (k == GpuWork::kCompute) {
            uint8_t& n = by_name[name];
            if (n == 0xff) n = s.strings.get(name).find("nccl") != std::string_view::npos;
            if (n) k = GpuWork::kComm;
          }
        }
        if (k == GpuWork::kNotGpu) continue;
        w.work_of[e] = k;
        st.events.push_back(e);
      }
      if (st.events.empty()) continue;
      // A track's events are mostly stored by start already: sort only when they are not.
      auto by_start = [&](uint32_t a, uint32_t b) { return s.events.start[a] < s.events.start[b]; };
      if (!std::is_sorted(st.events.begin(), st.events.end(), by_start))
        std::stable_sort(st.events.begin(), st.events.end(), by_start);
      dev.streams.push_back(std::move(st));
    }
    if (!dev.streams.empty()) w.devices.push_back(std::move(dev));
  }
  return w;
}

GpuBreakdown gpu_breakdown(const TraceStore& s, const GpuWorkSet& w,
                           const std::vector<uint32_t>& events) {
  GpuBreakdown b;
  std::vector<Interval> all, comp, comm, mem;
  for (uint32_t e : events) {
    const TimeNs a = s.events.start[e], z = a + std::max<TimeNs>(0, s.events.dur[e]);
    if (!b.events || a < b.first) b.first = a;
    if (!b.events || z > b.last) b.last = z;
    ++b.events;
    all.push_back({a, z});
    switch (w.work_of[e]) {
      case GpuWork::kCompute:
        comp.push_back({a, z});
        break;
      case GpuWork::kComm:
        comm.push_back({a, z});
        break;
      case GpuWork::kMemcpy:
        mem.push_back({a, z});
        break;
      case GpuWork::kNotGpu:
        break;
    }
  }
  if (!b.events) return b;
  merge_intervals(&all);
  merge_intervals(&comp);
  merge_intervals(&comm);
  merge_intervals(&mem);
  b.span = b.last - b.first;
  b.compute = total_length(comp);
  b.comm = total_length(comm);
  b.memcpy = total_length(mem);
  b.exposed_comm = total_length(subtract_intervals(comm, comp));
  b.exposed_memcpy = total_length(subtract_intervals(subtract_intervals(mem, comp), comm));
  b.busy = total_length(all);
  b.idle = b.span - b.busy;
  b.comm_overlapped = total_length(intersect_intervals(comm, comp));
  return b;
}

uint32_t launching_event(const TraceStore& s, uint32_t e) {
  const FlowColumns& f = s.flows;
  auto in = std::lower_bound(f.by_to.begin(), f.by_to.end(), e,
                             [&](uint32_t edge, uint32_t v) { return f.to[edge] < v; });
  const uint32_t process = s.tracks[s.events.track[e]].process;
  for (; in != f.by_to.end() && f.to[*in] == e; ++in) {
    const uint32_t from = f.from[*in];
    if (s.tracks[s.events.track[from]].process != process) return from;
  }
  return kNone;
}

std::vector<TimeNs> launch_starts(const TraceStore& s, const GpuStream& st) {
  std::vector<TimeNs> out(st.events.size(), -1);
  for (size_t i = 0; i < st.events.size(); ++i) {
    const uint32_t from = launching_event(s, st.events[i]);
    if (from != kNone) out[i] = s.events.start[from];
  }
  return out;
}

StreamIdle stream_idle(const TraceStore& s, const GpuStream& st,
                       const std::vector<TimeNs>& launch_start) {
  StreamIdle r;
  for (size_t i = 0; i < st.events.size(); ++i)
    if (launch_start[i] >= 0) ++r.launches_known;
  for (size_t i = 1; i < st.events.size(); ++i) {
    const uint32_t prev = st.events[i - 1], cur = st.events[i];
    const TimeNs prev_end = s.events.start[prev] + std::max<TimeNs>(0, s.events.dur[prev]);
    const TimeNs gap = s.events.start[cur] - prev_end;
    if (gap <= 0) continue;
    ++r.gaps;
    if (launch_start[i] >= 0 && launch_start[i] > prev_end)
      r.host_wait += gap;
    else if (gap < kKernelWaitNs)
      r.kernel_wait += gap;
    else
      r.other += gap;
  }
  return r;
}

}  // namespace strata
