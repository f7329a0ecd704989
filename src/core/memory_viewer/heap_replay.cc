#include "core/memory_viewer/heap_replay.h"

#include <algorithm>
#include <unordered_set>

namespace strata::memview {
namespace {

using hlo::BufferAllocation;
using hlo::HeapEventKind;

constexpr int64_t kPointerBytes = 8;  // a tuple's element: one pointer (XProf's measure)

// Bits of one element; 0 for types without storage.
int element_bits(uint8_t t) {
  switch (t) {
    case hlo::kPred:
    case hlo::kS8:
    case hlo::kU8:
    case hlo::kF8E5M2:
    case hlo::kF8E4M3FN:
    case hlo::kF8E4M3B11FNUZ:
    case hlo::kF8E5M2FNUZ:
    case hlo::kF8E4M3FNUZ:
    case hlo::kF8E4M3:
    case hlo::kF8E3M4:
    case hlo::kF8E8M0FNU:
      return 8;
    case hlo::kS16:
    case hlo::kU16:
    case hlo::kF16:
    case hlo::kBF16:
      return 16;
    case hlo::kS32:
    case hlo::kU32:
    case hlo::kF32:
      return 32;
    case hlo::kS64:
    case hlo::kU64:
    case hlo::kF64:
    case hlo::kC64:
    case hlo::kOpaque:
      return 64;
    case hlo::kC128:
      return 128;
    case hlo::kS4:
    case hlo::kU4:
    case hlo::kF4E2M1FN:
      return 4;
    case hlo::kS2:
    case hlo::kU2:
      return 2;
    case hlo::kS1:
    case hlo::kU1:
      return 1;
    default:
      return 0;
  }
}

// The top-level elements of a tuple's text "(a, (b, c), d)" → "a", "(b, c)", "d".
std::vector<std::string_view> tuple_elements(std::string_view s) {
  std::vector<std::string_view> out;
  if (s.size() < 2 || s.front() != '(' || s.back() != ')') return out;
  s = s.substr(1, s.size() - 2);
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    const char c = i < s.size() ? s[i] : ',';
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      std::string_view e = s.substr(start, i - start);
      while (!e.empty() && e.front() == ' ') e.remove_prefix(1);
      while (!e.empty() && e.back() == ' ') e.remove_suffix(1);
      if (!e.empty()) out.push_back(e);
      start = i + 1;
    }
  }
  return out;
}

}  // namespace

const char* allocation_kind_name(AllocationKind k) {
  switch (k) {
    case AllocationKind::kParameter:
      return "Parameter";
    case AllocationKind::kOutput:
      return "Output";
    case AllocationKind::kThreadLocal:
      return "Thread-local";
    case AllocationKind::kConstant:
      return "Constant";
    case AllocationKind::kTemporary:
      return "Temporary";
  }
  return "Temporary";
}

AllocationKind allocation_kind(const BufferAllocation& a) {
  if (a.is_entry_computation_parameter) return AllocationKind::kParameter;
  if (a.maybe_live_out) return AllocationKind::kOutput;
  if (a.is_thread_local) return AllocationKind::kThreadLocal;
  if (a.is_constant) return AllocationKind::kConstant;
  return AllocationKind::kTemporary;
}

std::string_view subshape_text(std::string_view shape, std::span<const int64_t> index) {
  for (const int64_t i : index) {
    const std::vector<std::string_view> e = tuple_elements(shape);
    if (i < 0 || static_cast<size_t>(i) >= e.size()) return {};
    shape = e[static_cast<size_t>(i)];
  }
  return shape;
}

int64_t unpadded_shape_bytes(std::string_view shape) {
  if (!shape.empty() && shape.front() == '(')
    return kPointerBytes * static_cast<int64_t>(tuple_elements(shape).size());
  hlo::ParsedShape ps;
  if (!hlo::parse_shape_text(shape, &ps)) return 0;
  const int bits = element_bits(ps.dtype);
  if (bits == 0) return 0;
  int64_t n = 1;
  for (const int64_t d : ps.dims) n *= std::max<int64_t>(d, 0);
  // Without a layout's element size, XLA stores a sub-byte element in a byte of its own.
  return n * ((bits + 7) / 8);
}

bool build_memory_model(const hlo::HloModule& m, MemoryModel* out, std::string* error) {
  *out = MemoryModel{};
  if (!m.buffer_assignment_note.empty()) {
    *error = m.buffer_assignment_note;
    return false;
  }
  if (m.buffer_assignment.empty()) {
    *error = "the module has no buffer assignment (only a compiled module's HloProto has one)";
    return false;
  }
  std::string why;
  if (!hlo::parse_buffer_assignment(m.buffer_assignment.data(), m.buffer_assignment.size(),
                                    &out->assignment, &why)) {
    *error = "its buffer assignment is damaged (" + why + ")";
    return false;
  }
  const hlo::BufferAssignment& a = out->assignment;
  out->buffers.resize(a.logical_buffers.size());
  std::unordered_set<int64_t> colors;
  for (size_t i = 0; i < a.logical_buffers.size(); ++i) {
    const hlo::LogicalBuffer& lb = a.logical_buffers[i];
    BufferInfo& b = out->buffers[i];
    b.id = lb.id;
    b.size = lb.size;
    b.color = lb.color;
    colors.insert(lb.color);
    out->buffer_by_id.emplace(lb.id, static_cast<uint32_t>(i));
    if (lb.instruction_id >= 0) {
      auto it = m.by_proto_id.find(lb.instruction_id);
      if (it != m.by_proto_id.end()) b.instr = it->second;
    }
    if (b.instr == kNone && !lb.instruction_name.empty()) b.instr = m.find(lb.instruction_name);
    std::string_view top;
    if (b.instr != kNone) {
      b.label = std::string(m.str(m.name[b.instr]));
      top = m.str(m.shape[b.instr]);
    } else {
      b.label =
          lb.instruction_name.empty() ? "buffer " + std::to_string(lb.id) : lb.instruction_name;
    }
    if (!lb.shape_index.empty()) {
      b.label += '{';
      for (size_t k = 0; k < lb.shape_index.size(); ++k) {
        if (k) b.label += ',';
        b.label += std::to_string(lb.shape_index[k]);
      }
      b.label += '}';
    }
    b.shape = std::string(subshape_text(top, lb.shape_index));
    b.unpadded = b.shape.empty() ? lb.size : unpadded_shape_bytes(b.shape);
  }
  for (size_t k = 0; k < a.allocations.size(); ++k)
    for (const hlo::AssignedBuffer& as : a.allocations[k].assigned) {
      auto it = out->buffer_by_id.find(as.logical_buffer_id);
      if (it == out->buffer_by_id.end()) continue;
      out->buffers[it->second].allocation = static_cast<int32_t>(k);
      out->buffers[it->second].offset = as.offset;
    }
  out->colors.assign(colors.begin(), colors.end());
  std::sort(out->colors.begin(), out->colors.end());
  return true;
}

namespace {

// The trace of a colour: the one whose allocation holds that colour's temporaries, else the one
// with most events on buffers of that colour.
int32_t trace_of_color(const MemoryModel& mm, int64_t color) {
  const hlo::BufferAssignment& a = mm.assignment;
  for (size_t t = 0; t < a.traces.size(); ++t) {
    const int64_t ai = a.traces[t].buffer_allocation_index;
    if (ai == 0) continue;  // unset
    for (const BufferAllocation& al : a.allocations)
      if (al.index == ai && al.color == color && allocation_kind(al) == AllocationKind::kTemporary)
        return static_cast<int32_t>(t);
  }
  int32_t best = -1;
  size_t best_events = 0;
  for (size_t t = 0; t < a.traces.size(); ++t) {
    size_t n = 0;
    for (const hlo::HeapEvent& e : a.traces[t].events) {
      auto it = mm.buffer_by_id.find(e.buffer_id);
      if (it != mm.buffer_by_id.end() && mm.buffers[it->second].color == color) ++n;
    }
    if (n > best_events) best = static_cast<int32_t>(t), best_events = n;
  }
  return best;
}

}  // namespace

bool replay_heap(const MemoryModel& mm, int64_t color, HeapProfile* out, std::string* error) {
  *out = HeapProfile{};
  out->color = color;
  out->trace = trace_of_color(mm, color);
  std::vector<uint8_t> seen_buffer(mm.buffers.size(), 0);
  std::unordered_set<int32_t> seen_allocation;
  if (out->trace >= 0) {
    const hlo::HeapSimulatorTrace& t = mm.assignment.traces[static_cast<size_t>(out->trace)];
    std::unordered_map<uint32_t, int32_t> refs;           // canonical buffer → sharers alive
    std::unordered_map<uint32_t, uint32_t> canonical_of;  // sharing buffer → canonical
    std::unordered_map<uint32_t, uint32_t> open;          // canonical → start of its interval
    int64_t heap = 0, unpadded = 0;
    auto lookup = [&](int64_t id, uint32_t* b) {
      auto it = mm.buffer_by_id.find(id);
      if (it == mm.buffer_by_id.end()) {
        *error = "the heap simulator trace names logical buffer " + std::to_string(id) +
                 ", which the assignment does not list";
        return false;
      }
      *b = it->second;
      return true;
    };
    auto add = [&](uint32_t b, uint32_t at) {
      heap += mm.buffers[b].size;
      unpadded += mm.buffers[b].unpadded;
      open[b] = at;
    };
    out->padded.reserve(t.events.size());
    out->unpadded.reserve(t.events.size());
    for (size_t i = 0; i < t.events.size(); ++i) {
      const hlo::HeapEvent& e = t.events[i];
      const auto at = static_cast<uint32_t>(i);
      uint32_t b;
      if (!lookup(e.buffer_id, &b)) return false;
      seen_buffer[b] = 1;
      if (mm.buffers[b].allocation >= 0) seen_allocation.insert(mm.buffers[b].allocation);
      if (e.kind == HeapEventKind::kAlloc) {
        refs[b] = 1;
        add(b, at);
      } else if (e.kind == HeapEventKind::kFree) {
        auto c = canonical_of.find(b);
        const uint32_t canon = c == canonical_of.end() ? b : c->second;
        if (--refs[canon] < 0) {
          *error = "logical buffer " + std::to_string(mm.buffers[canon].id) +
                   " is freed more times than it was allocated (event " + std::to_string(i) + ")";
          return false;
        }
        if (refs[canon] == 0) {
          heap -= mm.buffers[canon].size;
          unpadded -= mm.buffers[canon].unpadded;
          if (heap < 0) {
            *error = "the heap goes below zero at event " + std::to_string(i);
            return false;
          }
          out->intervals.push_back({canon, open[canon], at});
          open.erase(canon);
        }
      } else {
        uint32_t canon;
        if (!lookup(e.share_with_canonical_id, &canon)) return false;
        canonical_of[b] = canon;
        // Sharing a buffer that was already freed brings its memory back.
        if (++refs[canon] == 1) add(canon, at);
      }
      out->padded.push_back(heap);
      out->unpadded.push_back(unpadded);
    }
    const auto end = static_cast<uint32_t>(t.events.size());
    for (const auto& [b, start] : open) out->intervals.push_back({b, start, end});
    std::sort(out->intervals.begin(), out->intervals.end(),
              [](const LiveInterval& x, const LiveInterval& y) {
                return x.start != y.start ? x.start < y.start : x.buffer < y.buffer;
              });
    if (seen_allocation.size() > 1)
      out->notes.push_back("the heap simulator trace spans " +
                           std::to_string(seen_allocation.size()) + " allocations");
  }
  // Buffers the trace never mentions live for the whole program (parameters, outputs,
  // constants): their allocations count once each, at every point.
  const hlo::BufferAssignment& a = mm.assignment;
  for (size_t i = 0; i < mm.buffers.size(); ++i) {
    const BufferInfo& b = mm.buffers[i];
    if (seen_buffer[i] || b.color != color || b.allocation < 0) continue;
    const BufferAllocation& al = a.allocations[static_cast<size_t>(b.allocation)];
    if (al.is_thread_local) continue;
    if (!seen_allocation.insert(b.allocation).second) continue;
    out->indefinite_bytes += al.size;
    out->indefinite_allocations.push_back(static_cast<uint32_t>(b.allocation));
  }
  std::sort(out->indefinite_allocations.begin(), out->indefinite_allocations.end());
  for (int64_t& v : out->padded) v += out->indefinite_bytes;
  for (int64_t& v : out->unpadded) v += out->indefinite_bytes;
  out->peak_bytes = out->peak_unpadded = out->indefinite_bytes;
  for (size_t i = 0; i < out->padded.size(); ++i)
    if (out->padded[i] > out->padded[out->peak] || i == 0) {
      out->peak = static_cast<uint32_t>(i);
      out->peak_bytes = out->padded[i];
      out->peak_unpadded = out->unpadded[i];
    }
  return true;
}

std::vector<uint32_t> live_at(const HeapProfile& p, uint32_t point) {
  std::vector<uint32_t> out;
  for (const LiveInterval& iv : p.intervals) {
    if (iv.start > point) break;
    if (point < iv.end) out.push_back(iv.buffer);
  }
  return out;
}

}  // namespace strata::memview
