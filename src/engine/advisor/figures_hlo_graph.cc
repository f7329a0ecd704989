#include "engine/advisor/figures_hlo_graph.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "core/formats/hlo/hlo_module.h"
#include "core/memory_viewer/heap_replay.h"
#include "engine/advisor/table_figures.h"
#include "engine/engine.h"
#include "engine/graph_session.h"

namespace strata {

namespace {

// The instructions each detector links, biggest first.
constexpr size_t kEvidenceRows = 5;
// XProf's HLO detectors: data movement outside a fusion matters from 10 MiB.
constexpr int64_t kBigUnfusedBytes = 10ll << 20;

// Ops that only move or reshape data, which XLA fuses into their consumer when it can.
constexpr std::string_view kMovers[] = {"reshape", "transpose", "copy",   "broadcast",
                                        "slice",   "pad",       "convert"};
// Consumers that would have read the moved data in place had the mover been fused into them.
constexpr std::string_view kConsumers[] = {"dot", "convolution", "fusion", "reduce"};

template <size_t N>
bool one_of(std::string_view s, const std::string_view (&list)[N]) {
  return std::find(std::begin(list), std::end(list), s) != std::end(list);
}

bool half_float(uint8_t t) { return t == hlo::kBF16 || t == hlo::kF16; }

// The trace's XLA ops by (program id, instruction name), for their time and links.
struct TraceOps {
  const AnalysisTable* table = nullptr;
  int program = -1, name = -1, time = -1;
  std::map<std::pair<std::string, std::string>, const AnalysisRow*> by_key;
  std::map<std::string, const AnalysisRow*> by_name;  // for modules with no program id

  explicit TraceOps(const AnalysisTable* t) : table(t) {
    if (!t) return;
    program = column_index(*t, "program_id");
    name = column_index(*t, "hlo_op_name");
    time = column_index(*t, "total_time");
    if (program < 0 || name < 0) return;
    for (const AnalysisRow& r : t->rows) {
      const std::string& p = r.cells[static_cast<size_t>(program)].text;
      const std::string& n = r.cells[static_cast<size_t>(name)].text;
      by_key.emplace(std::make_pair(p, n), &r);
      by_name.emplace(n, &r);
    }
  }
  const AnalysisRow* find(const hlo::HloModule& m, std::string_view instr) const {
    const std::string n(instr);
    if (m.program_id >= 0) {
      auto it = by_key.find({std::to_string(m.program_id), n});
      return it == by_key.end() ? nullptr : it->second;
    }
    auto it = by_name.find(n);
    return it == by_name.end() ? nullptr : it->second;
  }
};

struct Found {
  int64_t bytes = 0;
  double ns = 0;
  AdvisorEvidence evidence;
};

struct Detector {
  std::vector<Found> found;
  void add(const hlo::HloModule& m, uint32_t i, int64_t bytes, const std::string& what,
           const TraceOps& ops) {
    Found x;
    x.bytes = bytes;
    const std::string name(m.str(m.name[i]));
    x.evidence.label = m.module_name + ": " + name + " (" + what + ")";
    AnalysisLink& l = x.evidence.link;
    l.module = m.module_name;
    l.op = name;
    if (m.program_id >= 0) l.program_id = std::to_string(m.program_id);
    if (const AnalysisRow* r = ops.find(m, name)) {
      // The trace ran it: the row's link also selects its occurrences.
      l.name = r->link.name;
      l.tracks = r->link.tracks;
      x.ns = cell_number(*r, ops.time);
      x.evidence.label += ", " + format_figure(x.ns, AnalysisUnit::kNs) + " in the trace";
    }
    found.push_back(std::move(x));
  }
  void publish(AdvisorFigureSet* f, const std::string& base, const std::string& label) {
    double bytes = 0, ns = 0;
    for (const Found& x : found) bytes += static_cast<double>(x.bytes), ns += x.ns;
    AdvisorFigure* c = f->add(base + "_count", static_cast<double>(found.size()),
                              AnalysisUnit::kCount, "graph", label);
    f->add(base + "_bytes", bytes, AnalysisUnit::kBytes, "graph", label + ": their output bytes");
    f->add(base + "_ns", ns, AnalysisUnit::kNs, "hlo_stats", label + ": their time in the trace");
    std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
      return a.ns != b.ns ? a.ns > b.ns : a.bytes > b.bytes;
    });
    for (size_t k = 0; k < found.size() && k < kEvidenceRows; ++k)
      c->evidence.push_back(found[k].evidence);
  }
};

// The minor-to-major part of a layout's text: "{1,0:T(8,128)}" → "1,0".
std::string_view minor_to_major(std::string_view layout) {
  if (layout.size() < 2) return {};
  layout = layout.substr(1, layout.size() - 2);
  return layout.substr(0, layout.find(':'));
}

int64_t elements(const hlo::HloModule& m, uint32_t i) {
  int64_t n = 1;
  for (int64_t d : m.dims_of(i)) n *= d;
  return n;
}

// XProf's layout detector follows a copy's operand back through the ops that only re-view or
// move data (bitcast, copy, transpose), up to 5 hops, to the layout the data had at its source.
constexpr int kLayoutHops = 5;
constexpr std::string_view kLayoutChain[] = {"bitcast", "copy", "transpose"};

// The copy's source: its operand, or that operand's own source while it is a chain op; *hops
// is how many instructions back it is.
uint32_t layout_source(const hlo::HloModule& m, uint32_t copy, int* hops) {
  uint32_t a = m.operands_of(copy)[0];
  *hops = 1;
  while (*hops < kLayoutHops && one_of(m.str(m.opcode[a]), kLayoutChain) &&
         m.operands_of(a).size() == 1) {
    a = m.operands_of(a)[0];
    ++*hops;
  }
  return a;
}

}  // namespace

void hlo_graph_figures(const Engine& engine, const AnalysisTable* hlo_ops, AdvisorFigureSet* f) {
  const GraphSession* g = engine.graph_session_if_made();
  if (!g || g->module_count() == 0)
    return f->set_missing("hlo_graph",
                          "HLO modules (an xplane with HloProtos, or an HLO file opened in the "
                          "Graph tab)");
  const TraceOps ops(hlo_ops);
  Detector unfused, layout, upcast;
  for (uint32_t k = 0; k < g->module_count(); ++k) {
    const hlo::HloModule& m = *g->module(k);
    for (uint32_t i = 0; i < m.instruction_count(); ++i) {
      // Inside a fusion the value never reaches memory: only unfused instructions cost traffic.
      if (m.comp_is_fusion[m.computation[i]]) continue;
      const std::string_view op = m.str(m.opcode[i]);
      const std::string_view shape = m.str(m.shape[i]);
      const auto users = m.users_of(i);
      const auto operands = m.operands_of(i);
      if (one_of(op, kMovers)) {
        const int64_t bytes = memview::unpadded_shape_bytes(shape);
        const auto feeds = std::find_if(users.begin(), users.end(), [&](uint32_t u) {
          return one_of(m.str(m.opcode[u]), kConsumers);
        });
        if (bytes >= kBigUnfusedBytes && feeds != users.end())
          unfused.add(m, i, bytes,
                      std::string(op) + " " +
                          format_figure(static_cast<double>(bytes), AnalysisUnit::kBytes) +
                          " into " + std::string(m.str(m.name[*feeds])),
                      ops);
      }
      if (op == "copy" && operands.size() == 1) {
        int hops = 0;
        const uint32_t a = layout_source(m, i, &hops);
        const std::string_view from = m.str(m.layout[a]), to = m.str(m.layout[i]);
        if (m.dtype[a] == m.dtype[i] && elements(m, a) == elements(m, i) && !from.empty() &&
            !to.empty() && minor_to_major(from) != minor_to_major(to))
          layout.add(m, i, memview::unpadded_shape_bytes(shape),
                     "{" + std::string(minor_to_major(from)) + "} to {" +
                         std::string(minor_to_major(to)) + "}, " + std::string(shape) +
                         (hops > 1 ? ", from " + std::string(m.str(m.name[a])) + " " +
                                         std::to_string(hops) + " ops back"
                                   : std::string()),
                     ops);
      }
      if (op == "convert" && operands.size() == 1 && m.dtype[i] == hlo::kF32 &&
          half_float(m.dtype[operands[0]]) && !users.empty() &&
          std::all_of(users.begin(), users.end(),
                      [&](uint32_t u) { return m.str(m.opcode[u]) == "reduce"; }))
        upcast.add(m, i, memview::unpadded_shape_bytes(shape),
                   std::string(hlo::primitive_type_name(m.dtype[operands[0]])) +
                       " to f32 only for " + std::string(m.str(m.name[users[0]])),
                   ops);
    }
  }
  unfused.publish(f, "hlo_graph.unfused_movers",
                  "unfused reshape / transpose / copy / broadcast / slice / pad / convert of "
                  "10 MiB or more feeding a dot, convolution, fusion or reduce");
  layout.publish(f, "hlo_graph.layout_copies",
                 "copies that change the layout of their source (same type and size; "
                 "through up to 5 bitcast / copy / transpose ops)");
  upcast.publish(f, "hlo_graph.upcast_reduces",
                 "unfused bf16 / f16 to f32 converts whose only users are reduces");
}

}  // namespace strata
