#include "engine/analysis/memory_viewer.h"

#include <algorithm>

#include "core/base/json_writer.h"
#include "core/formats/protobuf/wire.h"
#include "core/formats/xplane/xplane_stats.h"
#include "core/memory_viewer/live_rows.h"
#include "engine/engine.h"
#include "engine/graph_session.h"
#include "engine/query_args.h"
#include "protocol/memory_viewer_keys.h"
#include "protocol/reply_keys.h"

namespace strata {

namespace {

namespace arg = protocol::keys::memory_viewer_args;
namespace key = protocol::keys::memory_viewer;
namespace item = protocol::keys::memory_viewer_item;
using protocol::append_key;

// The most samples the curve sends: a long trace is cut into equal runs of points, each sent
// as its highest heap, so the peak stays exact on any zoom the chart can show.
constexpr size_t kMaxCurveSamples = 4096;

enum Col : uint8_t {
  kName,
  kSize,
  kUnpadded,
  kPadding,
  kCount,
  kShape,
  kKind,
  kOpcode,
  kOpName,
  kAllocation,
  kOffset,
  kFrom,
  kTo,
  kCols,
};

std::vector<AnalysisColumn> columns() {
  return {
      {"name", "Buffer", AnalysisUnit::kText,
       "The instruction that defines the buffer ({i} for a tuple element); siblings of equal "
       "size are merged as name.* (N\u00d7), buffers under 16 KiB folded into one row"},
      {"size", "Size", AnalysisUnit::kBytes, "Bytes with the layout's padding"},
      {"unpadded", "Unpadded", AnalysisUnit::kBytes, "The shape's bytes with the default layout"},
      {"padding", "Padding", AnalysisUnit::kBytes, "Size minus unpadded size"},
      {"count", "Buffers", AnalysisUnit::kCount, "Buffers in the row"},
      {"shape", "Shape", AnalysisUnit::kText, "With its layout"},
      {"kind", "Allocation kind", AnalysisUnit::kText,
       "Parameter, Output and Constant allocations live throughout the program; Temporary ones "
       "for the span the heap simulator gave them"},
      {"opcode", "Opcode", AnalysisUnit::kText, ""},
      {"op_name", "Framework op", AnalysisUnit::kText, "The instruction's metadata op_name"},
      {"allocation", "Allocation", AnalysisUnit::kCount, "Index of its buffer allocation"},
      {"offset", "Offset", AnalysisUnit::kBytes, "Where it starts in its allocation"},
      {"from", "Live from", AnalysisUnit::kCount, "First program-order point it is live at"},
      {"to", "Live to", AnalysisUnit::kCount, "First point it is no longer live at"},
  };
}

// The engine's graph session when the graph viewer has made it (no module otherwise).
const GraphSession* session(const Engine& e) { return e.graph_session_if_made(); }

// The module asked for: an index, a name, else the one with the biggest buffer assignment.
int32_t chosen_module(const GraphSession& g, const QueryArgs& args) {
  const JsonLine* l = args.get(arg::kModule);
  const auto n = static_cast<uint32_t>(g.module_count());
  if (l && l->kind == 'n') {
    const double v = args.number(arg::kModule, -1);
    return v >= 0 && v < n ? static_cast<int32_t>(v) : -1;
  }
  if (l && !l->value.empty()) {
    for (uint32_t i = 0; i < n; ++i)
      if (g.module(i)->module_name == l->value) return static_cast<int32_t>(i);
    return -1;
  }
  // The biggest assignment: in a trace of many small jitted helpers, the program that matters.
  int32_t best = -1;
  size_t best_bytes = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const size_t b = g.module(i)->buffer_assignment.size();
    if (b > best_bytes) best = static_cast<int32_t>(i), best_bytes = b;
  }
  return best;
}

std::string space_label(int64_t color) {
  if (color == 0) return "HBM";
  const std::string s = hlo::memory_space_label(static_cast<int32_t>(color));
  return "colour " + std::to_string(color) + (s.empty() ? "" : " (" + s + ")");
}

void append_modules(const GraphSession& g, std::string* o) {
  append_key(o, key::kModules);
  *o += '[';
  for (uint32_t i = 0; i < g.module_count(); ++i) {
    const hlo::HloModule& m = *g.module(i);
    if (i) *o += ',';
    append_key(o, item::kIndex, '{');
    *o += std::to_string(i);
    append_key(o, item::kName);
    json_append_string(o, m.module_name);
    append_key(o, item::kSource);
    json_append_string(o, g.module_source(i));
    append_key(o, item::kOk);
    *o += m.buffer_assignment.empty() ? "false" : "true";
    append_key(o, item::kWhy);
    json_append_string(o, !m.buffer_assignment_note.empty() ? m.buffer_assignment_note
                          : m.buffer_assignment.empty()
                              ? "no buffer assignment (the file holds the module only)"
                              : "");
    *o += '}';
  }
  *o += ']';
}

std::string instruction_at(const memview::MemoryModel& mm, const memview::HeapProfile& p,
                           uint32_t point) {
  if (p.trace < 0) return "";
  const auto& ev = mm.assignment.traces[static_cast<size_t>(p.trace)].events;
  return point < ev.size() ? ev[point].instruction_name : "";
}

void append_point(std::string* o, std::string_view k, const memview::MemoryModel& mm,
                  const memview::HeapProfile& p, uint32_t point, size_t live) {
  append_key(o, k);
  append_key(o, item::kPoint, '{');
  *o += std::to_string(point);
  append_key(o, item::kBytes);
  json_append_int(o, p.padded.empty() ? p.indefinite_bytes : p.padded[point]);
  append_key(o, item::kUnpadded);
  json_append_int(o, p.unpadded.empty() ? p.indefinite_bytes : p.unpadded[point]);
  append_key(o, item::kInstruction);
  json_append_string(o, instruction_at(mm, p, point));
  append_key(o, item::kLive);
  *o += std::to_string(live) + '}';
}

void append_curve(std::string* o, const memview::HeapProfile& p) {
  const size_t n = p.padded.size();
  const size_t step = std::max<size_t>(1, (n + kMaxCurveSamples - 1) / kMaxCurveSamples);
  append_key(o, key::kPoints);
  *o += std::to_string(n);
  append_key(o, key::kStep);
  *o += std::to_string(step);
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<int64_t>& v = pass ? p.unpadded : p.padded;
    append_key(o, pass ? key::kUnpadded : key::kPadded);
    *o += '[';
    for (size_t s = 0; s < n; s += step) {
      int64_t hi = v[s];
      for (size_t i = s + 1; i < std::min(n, s + step); ++i) hi = std::max(hi, v[i]);
      if (s) *o += ',';
      *o += std::to_string(hi);
    }
    *o += ']';
  }
}

AnalysisRow table_row(const hlo::HloModule& m, const memview::MemoryRow& r) {
  AnalysisRow row;
  row.cells.resize(kCols);
  row.cells[kName] = AnalysisCell::of(r.label);
  row.cells[kSize] = AnalysisCell::of(static_cast<double>(r.size));
  row.cells[kUnpadded] = AnalysisCell::of(static_cast<double>(r.unpadded));
  row.cells[kPadding] =
      AnalysisCell::of(static_cast<double>(std::max<int64_t>(0, r.size - r.unpadded)));
  row.cells[kCount] = AnalysisCell::of(static_cast<double>(r.count));
  row.cells[kShape] = r.shape.empty() ? AnalysisCell::empty("buffers of several shapes")
                                      : AnalysisCell::of(r.shape);
  row.cells[kKind] = r.small ? AnalysisCell::empty("several kinds") : AnalysisCell::of(r.kind);
  row.cells[kOpcode] = AnalysisCell::of(r.opcode);
  row.cells[kOpName] = AnalysisCell::of(r.op_name);
  row.cells[kAllocation] = r.small || r.allocation < 0
                               ? AnalysisCell::empty(r.small ? "several" : "not assigned")
                               : AnalysisCell::of(static_cast<double>(r.allocation));
  row.cells[kOffset] = r.small || r.allocation < 0
                           ? AnalysisCell::empty("several")
                           : AnalysisCell::of(static_cast<double>(r.offset));
  row.cells[kFrom] = AnalysisCell::of(static_cast<double>(r.start));
  row.cells[kTo] = AnalysisCell::of(static_cast<double>(r.end));
  if (r.instr != kNone && !r.small) {
    row.link.module = m.module_name;
    row.link.op = std::string(m.str(m.name[r.instr]));
    row.link.name = row.link.op;
    if (m.program_id >= 0) row.link.program_id = std::to_string(m.program_id);
  }
  return row;
}

void append_device(std::string* o, const Engine& e, int64_t peak) {
  append_key(o, key::kDevice);
  std::string source;
  const int64_t bytes = e.store() ? profile_device_memory(*e.store(), &source) : 0;
  if (bytes <= 0) {
    append_key(o, item::kWhy, '{');
    json_append_string(o, "the profile does not state the device's memory (a memory_size stat)");
    *o += '}';
    return;
  }
  append_key(o, item::kBytes, '{');
  json_append_int(o, bytes);
  append_key(o, item::kShare);
  json_append_number(o, static_cast<double>(peak) / static_cast<double>(bytes));
  append_key(o, item::kSource);
  json_append_string(o, source);
  *o += '}';
}

}  // namespace

int64_t profile_device_memory(const TraceStore& s, std::string* source) {
  const XSpaceTables* x = s.xspace.get();
  if (!x) return 0;
  for (const XPlaneTables& plane : x->planes) {
    if (plane.name.rfind("/device:", 0) != 0) continue;
    const auto* base = reinterpret_cast<const uint8_t*>(plane.stats.data());
    wire::Reader r(base + plane.plane_stats_at, plane.plane_stats_len);
    wire::Field f;
    while (r.next(&f) == wire::Status::kOk) {
      if (f.number != 5 || f.type != wire::kLen) continue;
      StatValue v;
      const char* why = "";
      if (!decode_stat(f.data, f.size, &v, &why)) continue;
      const StrId* id = plane.stat_names.find(v.metadata_id);
      if (!id || s.strings.get(*id) != "memory_size") continue;
      const double d = v.as_number();
      if (d <= 0) continue;
      *source = "the memory_size stat of " + plane.name;
      return static_cast<int64_t>(d);
    }
  }
  return 0;
}

bool memory_viewer_available(const Engine& engine, std::string* why) {
  const GraphSession* g = session(engine);
  const size_t n = g ? g->module_count() : 0;
  for (uint32_t i = 0; i < n; ++i)
    if (!g->module(i)->buffer_assignment.empty()) return true;
  *why = n ? "none of the " + std::to_string(n) +
                 " HLO modules has a buffer assignment (only a compiled module's HloProto has one)"
           : "no HLO module with a buffer assignment: open an xplane with HloProtos or a "
             "*.hlo_proto.pb file";
  return false;
}

AnalysisTable memory_viewer_table(const Engine& engine, const QueryArgs& args) {
  AnalysisTable t;
  t.columns = columns();
  const GraphSession* g = session(engine);
  if (!g) {
    t.errors.push_back("no HLO modules");
    return t;
  }
  std::string extra;
  append_modules(*g, &extra);
  const int32_t mi = chosen_module(*g, args);
  append_key(&extra, key::kModule);
  extra += std::to_string(mi);
  auto finish = [&]() {
    t.extra_json = '{' + extra.substr(1) + '}';
    return t;
  };
  if (mi < 0) {
    t.errors.push_back("no such module: " + args.text(arg::kModule));
    return finish();
  }
  const hlo::HloModule& m = *g->module(static_cast<uint32_t>(mi));
  append_key(&extra, key::kModuleName);
  json_append_string(&extra, m.module_name);
  append_key(&extra, key::kProgramId);
  json_append_string(&extra, m.program_id >= 0 ? std::to_string(static_cast<uint64_t>(m.program_id))
                                               : std::string());
  std::string error;
  const memview::MemoryModel* mm = g->memory_model(static_cast<uint32_t>(mi), &error);
  if (!mm) {
    t.errors.push_back("module " + m.module_name + ": " + error);
    return finish();
  }
  append_key(&extra, key::kSpaces);
  extra += '[';
  for (size_t i = 0; i < mm->colors.size(); ++i) {
    if (i) extra += ',';
    append_key(&extra, item::kColor, '{');
    extra += std::to_string(mm->colors[i]);
    append_key(&extra, item::kLabel);
    json_append_string(&extra, space_label(mm->colors[i]));
    extra += '}';
  }
  extra += ']';
  const int64_t color = static_cast<int64_t>(
      args.number(arg::kSpace, mm->colors.empty() ? 0.0 : static_cast<double>(mm->colors[0])));
  append_key(&extra, key::kSpace);
  extra += std::to_string(color);
  const memview::HeapProfile* p = g->heap_profile(static_cast<uint32_t>(mi), color, &error);
  if (!p) {
    t.errors.push_back("module " + m.module_name + ", " + space_label(color) + ": " + error);
    return finish();
  }
  for (const std::string& n : p->notes) t.notes.push_back(n);
  if (p->trace < 0)
    t.notes.push_back("no heap simulator trace for " + space_label(color) +
                      ": only the buffers live throughout are shown");
  append_curve(&extra, *p);
  const auto points = static_cast<uint32_t>(p->padded.size());
  const double asked = args.number(arg::kPoint, -1);
  const uint32_t point =
      asked >= 0 && points ? std::min(static_cast<uint32_t>(asked), points - 1) : p->peak;
  const std::vector<memview::MemoryRow> rows = memview::rows_at(m, *mm, *p, point);
  append_point(&extra, key::kPeak, *mm, *p, p->peak, memview::live_at(*p, p->peak).size());
  append_point(&extra, key::kPoint, *mm, *p, point, memview::live_at(*p, point).size());
  append_key(&extra, key::kIndefinite);
  json_append_int(&extra, p->indefinite_bytes);
  append_device(&extra, engine, p->peak_bytes);
  for (const memview::MemoryRow& r : rows) t.rows.push_back(table_row(m, r));
  const double budget = args.number(arg::kBudget, 0);
  if (budget > 0) {
    const std::vector<memview::MemoryRow> at_peak =
        point == p->peak ? rows : memview::rows_at(m, *mm, *p, p->peak);
    const auto b = static_cast<int64_t>(budget);
    append_key(&extra, key::kBudget);
    append_key(&extra, item::kBytes, '{');
    json_append_int(&extra, b);
    append_key(&extra, item::kFits);
    extra += p->peak_bytes <= b ? "true" : "false";
    append_key(&extra, item::kBytesOver);
    json_append_int(&extra, std::max<int64_t>(0, p->peak_bytes - b));
    append_key(&extra, item::kShrink);
    extra += '[';
    const std::vector<uint32_t> pick = memview::rows_to_shrink(at_peak, p->peak_bytes, b);
    for (size_t i = 0; i < pick.size(); ++i) {
      const memview::MemoryRow& r = at_peak[pick[i]];
      if (i) extra += ',';
      append_key(&extra, item::kName, '{');
      json_append_string(&extra, r.label);
      append_key(&extra, item::kBytes);
      json_append_int(&extra, r.size);
      extra += '}';
    }
    extra += "]}";
  }
  t.title = "Memory Viewer: " + m.module_name + ", " + space_label(color);
  return finish();
}

}  // namespace strata
