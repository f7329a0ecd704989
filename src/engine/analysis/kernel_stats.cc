#include "engine/analysis/kernel_stats.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "core/formats/xplane/xplane_kernel_details.h"
#include "engine/analysis/framework_op_stats.h"
#include "engine/analysis/op_cells.h"
#include "engine/engine.h"

namespace strata {

namespace {

constexpr std::string_view kTensorCorePatterns[] = {"16816",
                                                    "c1688",
                                                    "conv1x1",
                                                    "conv2d_c1_k1",
                                                    "dgrad_1x1_stride_2x2",
                                                    "direct_group",
                                                    "first_layer_wgrad_kernel",
                                                    "h1688",
                                                    "h884",
                                                    "hmma",
                                                    "i16832",
                                                    "i8816",
                                                    "s884",
                                                    "s1688",
                                                    "xmma_gemm",
                                                    "xmma_implicit_gemm",
                                                    "xmma_sparse_conv",
                                                    "xmma_sparse_gemm",
                                                    "xmma_warp_specialized_implicit_gemm"};

// One launch parameter over a group of launches: the value when every launch recorded the same.
template <typename T>
struct Uniform {
  T value{};
  uint64_t recorded = 0, invalid = 0;
  bool varies = false;
  void add(bool has, bool bad, const T& v) {
    invalid += bad;
    if (!has) return;
    if (recorded++ == 0)
      value = v;
    else if (!(v == value))
      varies = true;
  }
};

using Dims = std::array<uint32_t, 3>;

struct Group {
  StrId kernel = 0;
  uint32_t op = kNone;  // a framework op's name (StrId), kNone: launched by none
  uint64_t count = 0;
  TimeNs total = 0, min = 0, max = 0;
  Uniform<Dims> grid, block;
  Uniform<uint32_t> registers;
  Uniform<uint64_t> shared_memory;
  double occupancy_weighted = 0, occupancy_ns = 0;
  uint64_t occupancy_recorded = 0, occupancy_invalid = 0;
  std::vector<uint32_t> tracks;

  void add(const TraceStore& s, uint32_t e, const KernelLaunch* k) {
    const TimeNs d = s.events.dur[e];
    min = count == 0 ? d : std::min(min, d);
    max = count == 0 ? d : std::max(max, d);
    ++count;
    total += d;
    const uint8_t has = k ? k->has : 0;
    const bool unset_shape = has & kUnsetShape;  // an xplane's kernel_details with unset values
    grid.add(has & KernelLaunch::kGrid, unset_shape,
             k ? Dims{k->grid[0], k->grid[1], k->grid[2]} : Dims{});
    block.add(has & KernelLaunch::kBlock, unset_shape,
              k ? Dims{k->block[0], k->block[1], k->block[2]} : Dims{});
    registers.add(has & KernelLaunch::kRegisters, has & kUnsetRegisters, k ? k->registers : 0);
    shared_memory.add(has & KernelLaunch::kSharedMemory, unset_shape, k ? k->shared_memory : 0);
    occupancy_invalid += (has & kUnsetOccupancy) != 0;
    if (has & KernelLaunch::kOccupancy) {
      // Weighted by duration (a zero-length launch still counts, by one ns).
      const double w = static_cast<double>(std::max<TimeNs>(d, 1));
      occupancy_weighted += w * k->occupancy_pct;
      occupancy_ns += w;
      ++occupancy_recorded;
    }
    const uint32_t track = s.events.track[e];
    if (std::find(tracks.begin(), tracks.end(), track) == tracks.end()) tracks.push_back(track);
  }
};

std::string dims_text(const Dims& d) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%u\xC3\x97%u\xC3\x97%u", d[0], d[1], d[2]);  // 564×1×1
  return buf;
}

constexpr const char* kInvalid =
    "The file records a value no launch can have (an unset field: e.g. registers or shared "
    "memory beyond any GPU's, a zero grid, 0 % occupancy): left empty rather than shown wrong.";

template <typename T, typename Cell>
AnalysisCell uniform_cell(const Uniform<T>& u, uint64_t count, const std::string& missing,
                          Cell cell) {
  if (u.recorded == 0) return AnalysisCell::empty(u.invalid ? kInvalid : missing);
  if (u.varies)
    return AnalysisCell::empty("It differs between these launches (see the rows beneath, per op).");
  if (u.recorded < count)
    return AnalysisCell::empty("Recorded for " + std::to_string(u.recorded) + " of " +
                               std::to_string(count) + " launches only.");
  return cell(u.value);
}

// `missing`: why a launch parameter no launch recorded is empty.
AnalysisRow group_row(const TraceStore& s, const Group& g, int32_t parent, TimeNs all,
                      const std::string& missing, const std::vector<uint32_t>& display_of) {
  AnalysisRow row;
  row.parent = parent;
  const std::string kernel(s.strings.get(g.kernel));
  AnalysisCell op;
  if (parent < 0)
    op = AnalysisCell::of(std::string());
  else if (g.op == kNone)
    op = AnalysisCell::empty("No framework op launched it (no correlation flow to a cpu_op).");
  else
    op = AnalysisCell::of(std::string(s.strings.get(g.op)));
  AnalysisCell occupancy =
      g.occupancy_recorded == 0 ? AnalysisCell::empty(g.occupancy_invalid ? kInvalid : missing)
      : g.occupancy_recorded < g.count
          ? AnalysisCell::empty("Recorded for " + std::to_string(g.occupancy_recorded) + " of " +
                                std::to_string(g.count) + " launches only.")
          : AnalysisCell::of(g.occupancy_weighted / g.occupancy_ns);
  row.cells = {
      AnalysisCell::of(kernel),
      op,
      AnalysisCell::of(static_cast<double>(g.count)),
      AnalysisCell::of(static_cast<double>(g.total)),
      AnalysisCell::of(static_cast<double>(g.total) / static_cast<double>(g.count)),
      AnalysisCell::of(static_cast<double>(g.min)),
      AnalysisCell::of(static_cast<double>(g.max)),
      all > 0 ? AnalysisCell::of(100.0 * static_cast<double>(g.total) / static_cast<double>(all))
              : AnalysisCell::empty("The kernels took no time."),
      uniform_cell(g.grid, g.count, missing,
                   [](const Dims& d) { return AnalysisCell::of(dims_text(d)); }),
      uniform_cell(g.block, g.count, missing,
                   [](const Dims& d) { return AnalysisCell::of(dims_text(d)); }),
      uniform_cell(g.registers, g.count, missing,
                   [](uint32_t v) { return AnalysisCell::of(static_cast<double>(v)); }),
      uniform_cell(g.shared_memory, g.count, missing,
                   [](uint64_t v) { return AnalysisCell::of(static_cast<double>(v)); }),
      occupancy,
      AnalysisCell::of(std::string(kernel_name_uses_tensor_cores(kernel) ? "yes" : "no")),
  };
  row.link.name = kernel;
  for (uint32_t track : g.tracks)
    if (track < display_of.size() && display_of[track] != kNone)
      row.link.tracks.push_back(display_of[track]);
  if (row.link.tracks.size() != g.tracks.size()) row.link.tracks.clear();
  std::sort(row.link.tracks.begin(), row.link.tracks.end());
  return row;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

}  // namespace

bool kernel_name_uses_tensor_cores(std::string_view name) {
  for (std::string_view p : kTensorCorePatterns)
    if (name.find(p) != std::string_view::npos) return true;
  return false;
}

std::vector<uint32_t> kernel_events(const TraceStore& s) {
  std::vector<uint32_t> out;
  if (s.xspace) {
    // xplane: a GPU device plane's "Stream #..." lines hold its kernels (and memcpys, which
    // XProf lists as kernels too only when they are; names starting "Memcpy"/"Memset" are not).
    for (size_t t = 0; t < s.tracks.size(); ++t) {
      const Track& tr = s.tracks[t];
      const std::string_view plane = s.strings.get(s.processes[tr.process].name);
      const std::string_view line = s.strings.get(tr.name);
      // (several hosts: "host /device:GPU:0")
      if (plane.find("/device:GPU") == std::string_view::npos || !starts_with(line, "Stream") ||
          line.find("(Memcpy") != std::string_view::npos ||
          line.find("(Memset") != std::string_view::npos)
        continue;
      for (uint32_t e = tr.first_event; e < tr.first_event + tr.event_count; ++e) {
        const std::string_view n = s.strings.get(s.events.name[e]);
        if (!starts_with(n, "Memcpy") && !starts_with(n, "Memset") && !starts_with(n, "memcpy") &&
            !starts_with(n, "memset"))
          out.push_back(e);
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  std::vector<uint8_t> kernel_cat(s.strings.size(), 0);
  for (StrId id = 0; id < s.strings.size(); ++id)
    kernel_cat[id] = is_kernel_category(s.strings.get(id));
  for (uint32_t e = 0; e < s.events.size(); ++e)
    if (kernel_cat[s.events.cat[e]] && s.events.phase[e] == 'X') out.push_back(e);
  return out;
}

bool kernel_stats_available(const Engine& engine, std::string* why) {
  if (!kernel_events(*engine.store()).empty()) return true;
  *why =
      "The trace has no GPU kernels (PyTorch profiler kernel events, or an XPlane GPU's stream "
      "lines).";
  return false;
}

AnalysisTable kernel_stats_run(const Engine& engine, const QueryArgs&) {
  return kernel_stats_table(
      *engine.store(), store_to_display(engine.display_tracks(), engine.store()->tracks.size()));
}

AnalysisTable kernel_stats_table(const TraceStore& s, const std::vector<uint32_t>& display_of) {
  AnalysisTable t;
  t.title = "Kernel Stats";
  const std::vector<uint32_t> kernels = kernel_events(s);
  const DeviceLaunches d = device_launches(s);
  std::unordered_map<StrId, size_t> by_kernel;
  std::vector<Group> tops;
  std::vector<std::map<uint32_t, Group>> by_op;  // per top row: framework op name → group
  TimeNs all = 0;
  for (uint32_t e : kernels) {
    auto [it, added] = by_kernel.emplace(s.events.name[e], tops.size());
    if (added) {
      tops.push_back({});
      tops.back().kernel = s.events.name[e];
      by_op.emplace_back();
    }
    const KernelLaunch* k = s.kernel_launches.find(s.events.src_offset[e]);
    tops[it->second].add(s, e, k);
    const uint32_t op = d.owner[e] == kNone ? kNone : s.events.name[d.owner[e]];
    Group& g = by_op[it->second][op];
    g.kernel = s.events.name[e];
    g.op = op;
    g.add(s, e, k);
    all += s.events.dur[e];
  }
  std::vector<size_t> order(tops.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return tops[a].total > tops[b].total; });
  t.columns = {
      {"kernel", "Kernel", AnalysisUnit::kText, "The kernel's name."},
      {"op", "Framework op", AnalysisUnit::kText,
       "Rows beneath a kernel: the framework op (PyTorch cpu_op) whose runtime call launched "
       "it, through the correlation flows."},
      {"count", "Count", AnalysisUnit::kCount, "Launches."},
      {"total", "Total", AnalysisUnit::kNs, "Summed duration on the GPU."},
      {"avg", "Avg", AnalysisUnit::kNs, "Total / count."},
      {"min", "Min", AnalysisUnit::kNs, "Shortest launch."},
      {"max", "Max", AnalysisUnit::kNs, "Longest launch."},
      {"pct", "% of kernels", AnalysisUnit::kPercent, "Its total as a share of all kernels' time."},
      {"grid", "Grid", AnalysisUnit::kText, "Grid dimensions (x\xC3\x97y\xC3\x97z), as recorded."},
      {"block", "Block", AnalysisUnit::kText,
       "Block dimensions (x\xC3\x97y\xC3\x97z), as recorded."},
      {"registers", "Registers/thread", AnalysisUnit::kCount, "Registers per thread, as recorded."},
      {"shared_memory", "Shared memory", AnalysisUnit::kBytes,
       "Shared memory per block, as recorded."},
      {"occupancy", "Occupancy", AnalysisUnit::kPercent,
       "The profiler's estimate of achieved occupancy, averaged over the launches weighted by "
       "their duration."},
      {"tensor_core", "Tensor core", AnalysisUnit::kText,
       "A heuristic, not a measurement: \"yes\" when the kernel's name contains one of the "
       "patterns of tensor-core kernels (XProf's list: h884, s1688, hmma, xmma_gemm, ...)."},
  };
  const std::string missing = s.xspace ? "The kernel events have no kernel_details stat giving it."
                                       : "The trace does not record it for these launches.";
  for (size_t i : order) {
    const int32_t parent = static_cast<int32_t>(t.rows.size());
    t.rows.push_back(group_row(s, tops[i], -1, all, missing, display_of));
    std::vector<const Group*> children;
    for (const auto& [op, g] : by_op[i]) children.push_back(&g);
    if (children.size() == 1 && children[0]->op == kNone) continue;  // nothing to split by
    std::stable_sort(children.begin(), children.end(),
                     [](const Group* a, const Group* b) { return a->total > b->total; });
    for (const Group* g : children)
      t.rows.push_back(group_row(s, *g, parent, all, missing, display_of));
  }
  if (s.xspace)
    t.notes.push_back(
        "XPlane kernels: launch parameters come from each kernel's kernel_details stat (regs, "
        "static_shared + dynamic_shared, grid, block, occ_pct), as XProf's kernel stats read "
        "them; values no launch can have are left empty.");
  t.notes.push_back(
      "Rows beneath a kernel split it by the framework op that launched it; selecting one "
      "selects every launch of the kernel.");
  return t;
}

}  // namespace strata
