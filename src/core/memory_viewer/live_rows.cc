#include "core/memory_viewer/live_rows.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

namespace strata::memview {
namespace {

// "fusion.12" → "fusion"; a name without a numeric suffix is its own base.
std::string_view sibling_base(std::string_view name) {
  const size_t brace = name.find('{');
  if (brace != std::string_view::npos) name = name.substr(0, brace);
  const size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == name.size()) return name;
  for (size_t i = dot + 1; i < name.size(); ++i)
    if (name[i] < '0' || name[i] > '9') return name;
  return name.substr(0, dot);
}

MemoryRow buffer_row(const hlo::HloModule& m, const MemoryModel& mm, uint32_t b) {
  const BufferInfo& info = mm.buffers[b];
  MemoryRow r;
  r.label = info.label;
  r.size = info.size;
  r.unpadded = info.unpadded;
  r.shape = info.shape;
  r.allocation = info.allocation;
  r.offset = info.offset;
  r.instr = info.instr;
  if (info.allocation >= 0)
    r.kind = allocation_kind_name(
        allocation_kind(mm.assignment.allocations[static_cast<size_t>(info.allocation)]));
  if (info.instr != kNone) {
    r.opcode = std::string(m.str(m.opcode[info.instr]));
    r.op_name = std::string(m.str(m.op_name[info.instr]));
  }
  return r;
}

}  // namespace

std::vector<MemoryRow> rows_at(const hlo::HloModule& m, const MemoryModel& mm, const HeapProfile& p,
                               uint32_t point) {
  std::vector<MemoryRow> rows;
  const auto points = static_cast<uint32_t>(p.padded.size());
  // Allocations live throughout: one row each (its buffer's when it holds one).
  for (const uint32_t ai : p.indefinite_allocations) {
    const hlo::BufferAllocation& al = mm.assignment.allocations[ai];
    MemoryRow r;
    uint32_t first = kNone, n = 0;
    for (const hlo::AssignedBuffer& as : al.assigned) {
      auto it = mm.buffer_by_id.find(as.logical_buffer_id);
      if (it == mm.buffer_by_id.end()) continue;
      if (first == kNone) first = it->second;
      ++n;
    }
    if (first != kNone) r = buffer_row(m, mm, first);
    if (n != 1)
      r.label = "allocation " + std::to_string(al.index) + " (" + std::to_string(n) + " buffers" +
                (first != kNone ? ", " + r.label : std::string()) + ")";
    r.size = r.unpadded = al.size;  // as XProf counts it: the allocation, unpadded unknown
    if (n == 1) r.unpadded = std::min(al.size, mm.buffers[first].unpadded);
    r.kind = allocation_kind_name(allocation_kind(al));
    r.allocation = static_cast<int32_t>(ai);
    r.count = std::max<uint32_t>(n, 1);
    r.indefinite = true;
    r.start = 0;
    r.end = points;
    rows.push_back(std::move(r));
  }
  // Heap buffers live at the point, siblings merged.
  std::map<std::tuple<std::string_view, int64_t, std::string_view>, size_t> group_row;
  for (const LiveInterval& iv : p.intervals) {
    if (iv.start > point) break;
    if (point >= iv.end) continue;
    const BufferInfo& info = mm.buffers[iv.buffer];
    MemoryRow r = buffer_row(m, mm, iv.buffer);
    r.start = iv.start;
    r.end = iv.end;
    if (info.size < kSmallBufferBytes) {
      rows.push_back(std::move(r));
      continue;
    }
    const auto key =
        std::make_tuple(sibling_base(info.label), info.size, std::string_view(info.shape));
    auto [it, fresh] = group_row.emplace(key, rows.size());
    if (fresh) {
      rows.push_back(std::move(r));
      continue;
    }
    MemoryRow& g = rows[it->second];
    g.size += r.size;
    g.unpadded += r.unpadded;
    ++g.count;
    g.label = std::string(std::get<0>(key)) + ".* (" + std::to_string(g.count) + "\u00d7)";
    g.start = std::min(g.start, r.start);
    g.end = std::max(g.end, r.end);
  }
  // Small buffers folded into one row at the end.
  MemoryRow small;
  small.small = true;
  small.count = 0;
  small.start = points;
  std::vector<MemoryRow> out;
  out.reserve(rows.size() + 1);
  for (MemoryRow& r : rows) {
    if (r.count == 1 && r.size < kSmallBufferBytes) {
      small.size += r.size;
      small.unpadded += r.unpadded;
      small.count += 1;
      small.start = std::min(small.start, r.start);
      small.end = std::max(small.end, r.end);
      continue;
    }
    out.push_back(std::move(r));
  }
  if (small.count) {
    small.label = "small buffers (< 16 KiB, " + std::to_string(small.count) + ")";
    out.push_back(std::move(small));
  }
  return out;
}

std::vector<uint32_t> rows_to_shrink(const std::vector<MemoryRow>& rows, int64_t total,
                                     int64_t budget) {
  std::vector<uint32_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return rows[a].size > rows[b].size; });
  std::vector<uint32_t> out;
  for (const uint32_t i : order) {
    if (total <= budget) break;
    if (rows[i].small) continue;
    out.push_back(i);
    total -= rows[i].size;
  }
  return out;
}

}  // namespace strata::memview
