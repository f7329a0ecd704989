// C exports of the graph viewer for web/graph-worker.js (imported by the engine worker, so an
// xplane's HloProtos, whose spans the engine found, are read from the same source). Modules
// are kept here, apart from the Engine and its TraceStore: opening an HLO file leaves the trace
// loaded, and a trace's modules stay until the next xplane replaces them.
#include <emscripten/emscripten.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "core/base/json_writer.h"
#include "core/formats/detect_format.h"
#include "core/formats/hlo/hlo_module.h"
#include "core/formats/hlo/hlo_proto_parser.h"
#include "core/formats/hlo/hlo_text_parser.h"
#include "core/graph/dag_gen.h"
#include "core/graph/graph_message.h"
#include "core/graph/hlo_graph.h"
#include "core/graph/layered_layout.h"
#include "core/graph/op_costs.h"
#include "core/graph/xplane_hlo_stream.h"
#include "engine/engine.h"
#include "engine/memory_scan.h"

// engine_exports.cc: the engine and its current trace.
const strata::Engine& engine_current();

namespace {

struct Module {
  strata::hlo::HloModule m;
  std::string source;  // the file it came from
  bool from_trace = false;
};
std::vector<Module> g_modules;
std::vector<uint8_t> g_buf;  // bytes JS copies in
std::vector<uint8_t> g_message;
std::string g_text, g_error;
strata::graph::XplaneHloStream g_stream;  // a compressed xplane's HloProtos, one pass
strata::graph::OpCosts g_costs;           // the selected op's FLOPs and bytes from the trace
strata::MemoryScan g_cost_scan;           // its occurrences' records in compressed files

const char* keep(std::string s) {
  g_text = std::move(s);
  return g_text.c_str();
}
double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
bool valid(uint32_t module) { return module < g_modules.size(); }

strata::Compression compression_named(const std::string& c) {
  return c == "gzip"   ? strata::Compression::kGzip
         : c == "zstd" ? strata::Compression::kZstd
                       : strata::Compression::kNone;
}

// The HloProto spans of file `file` of the current trace, offsets within that file.
std::vector<strata::HloProtoSpan> file_hlo_spans(uint32_t file) {
  std::vector<strata::HloProtoSpan> out;
  const strata::TraceStore* s = engine_current().store();
  if (!s || !s->xspace) return out;
  for (const strata::HloProtoSpan& h : s->xspace->hlo_protos) {
    uint64_t off = h.src_offset;
    if (engine_current().source_file(&off) != file) continue;
    out.push_back(h);
    out.back().src_offset = off;
  }
  return out;
}

// An occurrence whose record could not be read is left out (`read` counts the others).
void add_cost_record(uint32_t event, std::string_view record) {
  if (record.empty()) return;
  strata::graph::OpCostSample sample;
  if (strata::graph::op_cost_sample(engine_current().details_json(event, record), &sample))
    strata::graph::add_op_cost_sample(&g_costs, sample);
}

}  // namespace

extern "C" {

// 1 when the first bytes are plain HLO text (engine_detect_format answers for every kind).
EMSCRIPTEN_KEEPALIVE int graph_sniff_text(const char* p, uint32_t n) {
  const strata::DetectedFormat f =
      strata::detect_format({}, reinterpret_cast<const uint8_t*>(p), n);
  return f.kind == strata::FileKind::kHloText && f.compression == strata::Compression::kNone;
}

EMSCRIPTEN_KEEPALIVE uint8_t* graph_buffer(uint32_t n) {
  g_buf.resize(n);
  return g_buf.data();
}

// Parses the buffer (kind 1 text, 2 HloProto) as modules of file `name`; from_trace marks an
// xplane's modules (replaced by the next trace's). Returns modules added, or -1 (graph_error).
EMSCRIPTEN_KEEPALIVE int graph_add(int kind, const char* name, int from_trace, double program_id) {
  std::vector<strata::hlo::HloModule> parsed;
  g_error.clear();
  bool ok;
  if (kind == 1) {
    ok = strata::hlo::parse_hlo_text(
        std::string_view(reinterpret_cast<const char*>(g_buf.data()), g_buf.size()), &parsed,
        &g_error);
    if (!ok && !parsed.empty()) ok = true;  // keep what parsed; g_error says where it stopped
  } else {
    parsed.emplace_back();
    ok = strata::hlo::parse_hlo_proto(g_buf.data(), g_buf.size(), &parsed.back(), &g_error);
    if (ok) parsed.back().program_id = static_cast<int64_t>(program_id);
  }
  g_buf.clear();
  g_buf.shrink_to_fit();
  if (!ok) return -1;
  for (auto& m : parsed) g_modules.push_back({std::move(m), name, from_trace != 0});
  return static_cast<int>(parsed.size());
}
EMSCRIPTEN_KEEPALIVE const char* graph_error() { return g_error.c_str(); }

// Drops the modules of the previous trace (a new trace was loaded).
EMSCRIPTEN_KEEPALIVE void graph_drop_trace_modules() {
  std::erase_if(g_modules, [](const Module& x) { return x.from_trace; });
}

// A compressed xplane's HloProtos (their spans cannot be read at random offsets): starts one
// pass over file `file` of the current trace; returns how many modules it holds. Then feed the
// file from its start through graph_buffer + graph_hlo_stream_commit until that returns 1,
// and end with graph_hlo_stream_end.
EMSCRIPTEN_KEEPALIVE uint32_t graph_hlo_stream_begin(uint32_t file) {
  std::vector<strata::HloProtoSpan> spans = file_hlo_spans(file);
  const auto n = static_cast<uint32_t>(spans.size());
  g_stream.begin(std::move(spans));
  return n;
}
EMSCRIPTEN_KEEPALIVE int graph_hlo_stream_commit(uint32_t n) {
  return g_stream.feed(g_buf.data(), std::min<size_t>(n, g_buf.size())) ? 1 : 0;
}
// Adds the modules parsed (as the trace's, like graph_add's) when `keep`; returns
// {"added": n, "errors": [...]}.
EMSCRIPTEN_KEEPALIVE const char* graph_hlo_stream_end(int keep_modules) {
  std::vector<std::string> errors;
  std::vector<strata::graph::StreamedHlo> got = g_stream.finish(&errors);
  size_t added = 0;
  for (auto& h : got)
    if (keep_modules) g_modules.push_back({std::move(h.module), std::move(h.name), true}), ++added;
  std::string o = "{\"added\":" + std::to_string(added) + ",\"errors\":[";
  for (size_t k = 0; k < errors.size(); ++k) {
    if (k) o += ',';
    strata::json_append_string(&o, errors[k]);
  }
  return keep(o + "]}");
}

// [{name, source, programId, fromTrace, instructions, entry, computations:[{name, instructions,
// fusion}]}]
EMSCRIPTEN_KEEPALIVE const char* graph_modules_json() {
  std::string o = "[";
  for (size_t k = 0; k < g_modules.size(); ++k) {
    const auto& m = g_modules[k].m;
    if (k) o += ',';
    o += "{\"name\":";
    strata::json_append_string(&o, m.module_name);
    o += ",\"source\":";
    strata::json_append_string(&o, g_modules[k].source);
    o += ",\"programId\":" + std::to_string(m.program_id);
    o += ",\"fromTrace\":";
    o += g_modules[k].from_trace ? "true" : "false";
    o += ",\"instructions\":" + std::to_string(m.instruction_count());
    o += ",\"entry\":" + std::to_string(m.entry == strata::kNone ? 0 : m.entry);
    o += ",\"computations\":[";
    for (uint32_t c = 0; c < m.computation_count(); ++c) {
      if (c) o += ',';
      o += "{\"name\":";
      strata::json_append_string(&o, m.str(m.comp_name[c]));
      o += ",\"instructions\":" + std::to_string(m.comp_count[c]);
      o += ",\"fusion\":" + std::to_string(m.comp_is_fusion[c]) + "}";
    }
    o += "]}";
  }
  o += "]";
  return keep(std::move(o));
}

// Lays out one computation (expanded: instruction indices shown opened; focus/hops: the N-hop
// neighbourhood, focus = -1 for none). Returns the message size (graph_message), 0 when bad.
EMSCRIPTEN_KEEPALIVE uint32_t graph_layout(uint32_t module, uint32_t computation,
                                           const uint32_t* expanded, uint32_t n_expanded,
                                           int32_t focus, uint32_t hops) {
  g_message.clear();
  if (!valid(module)) return 0;
  const auto& m = g_modules[module].m;
  strata::hlo::VisibleGraphRequest req;
  req.computation = computation < m.computation_count() ? computation : strata::kNone;
  for (uint32_t k = 0; k < n_expanded; ++k)
    if (expanded[k] < m.instruction_count()) req.expanded.push_back(expanded[k]);
  if (focus >= 0 && static_cast<uint32_t>(focus) < m.instruction_count()) {
    req.focus = static_cast<uint32_t>(focus);
    req.hops = hops;
  }
  const double t0 = now_ms();
  const strata::hlo::VisibleGraph vis = strata::hlo::build_visible_graph(m, req);
  const strata::graph::LayoutInput in = strata::graph::hlo_layout_input(m, vis);
  const strata::graph::GraphLayout out = strata::graph::layered_layout(in);
  const double ms = now_ms() - t0;
  const uint32_t comp = req.computation == strata::kNone ? m.entry : req.computation;
  g_message = strata::graph::write_graph_message(m, module, comp, vis, in, out, ms);
  return static_cast<uint32_t>(g_message.size());
}
EMSCRIPTEN_KEEPALIVE const uint8_t* graph_message() { return g_message.data(); }

EMSCRIPTEN_KEEPALIVE const char* graph_details(uint32_t module, uint32_t instr) {
  if (!valid(module) || instr >= g_modules[module].m.instruction_count()) return keep("null");
  return keep(strata::graph::instruction_details_json(g_modules[module].m, instr));
}

// Instruction index of `name` in the module, or -1.
EMSCRIPTEN_KEEPALIVE int32_t graph_find_instr(uint32_t module, const char* name) {
  if (!valid(module)) return -1;
  const uint32_t i = g_modules[module].m.find(name);
  return i == strata::kNone ? -1 : static_cast<int32_t>(i);
}
EMSCRIPTEN_KEEPALIVE uint32_t graph_instr_computation(uint32_t module, uint32_t instr) {
  if (!valid(module) || instr >= g_modules[module].m.instruction_count()) return 0;
  return g_modules[module].m.computation[instr];
}

// [{instr, name, opcode, computation}] for a name/opcode search, at most `limit`.
EMSCRIPTEN_KEEPALIVE const char* graph_search(uint32_t module, const char* text, uint32_t limit) {
  std::string o = "[";
  if (valid(module)) {
    const auto& m = g_modules[module].m;
    for (uint32_t i : strata::hlo::find_instructions(m, text, limit)) {
      if (o.size() > 1) o += ',';
      o += "{\"instr\":" + std::to_string(i) + ",\"name\":";
      strata::json_append_string(&o, m.str(m.name[i]));
      o += ",\"opcode\":";
      strata::json_append_string(&o, m.str(m.opcode[i]));
      o += ",\"computation\":" + std::to_string(m.computation[i]) + "}";
    }
  }
  o += "]";
  return keep(std::move(o));
}

// scripts/bench-graph in the browser: layout ms of a generated graph of n nodes.
EMSCRIPTEN_KEEPALIVE double graph_bench_generated(uint32_t n) {
  strata::graph::DagShape shape;
  shape.nodes = n;
  shape.seed = 7;
  shape.back_edge_share = 0.002;
  const strata::graph::LayoutInput in = strata::graph::make_hlo_like_dag(shape);
  const double t0 = now_ms();
  const strata::graph::GraphLayout out = strata::graph::layered_layout(in);
  return out.x.size() == n ? now_ms() - t0 : -1;
}

// The same on a loaded module's entry computation, collapsed or with every fusion and call
// opened (nested groups): [ms, nodes] in g_text as JSON.
EMSCRIPTEN_KEEPALIVE const char* graph_bench_module(uint32_t module, int expand_all) {
  if (!valid(module)) return keep("null");
  const auto& m = g_modules[module].m;
  strata::hlo::VisibleGraphRequest req;
  if (expand_all)
    for (uint32_t i = 0; i < m.instruction_count(); ++i)
      if (!m.called_of(i).empty()) req.expanded.push_back(i);
  const double t0 = now_ms();
  const strata::hlo::VisibleGraph vis = strata::hlo::build_visible_graph(m, req);
  const strata::graph::LayoutInput in = strata::graph::hlo_layout_input(m, vis);
  const strata::graph::GraphLayout out = strata::graph::layered_layout(in);
  const double ms = now_ms() - t0;
  return keep("{\"ms\":" + std::to_string(ms) + ",\"nodes\":" + std::to_string(vis.node_count()) +
              ",\"edges\":" + std::to_string(vis.edge_src.size()) +
              ",\"crossings\":" + std::to_string(out.crossings) + "}");
}

// ---- FLOPs and bytes of the selected node's occurrences in the trace (op_costs.h) ---------
// graph-worker.js: graph_costs_begin, then each occurrence's record: graph_costs_add (bytes in
// graph_buffer, read from a plain file), graph_costs_add_cached (the engine kept it), or, for
// compressed files, graph_costs_scan_begin + per file graph_costs_scan_file and the file's
// bytes through graph_costs_scan_commit, then graph_costs_scan_end; graph_costs_json last.
EMSCRIPTEN_KEEPALIVE void graph_costs_begin(const char* name, double occurrences) {
  g_costs = strata::graph::OpCosts();
  g_costs.name = name;
  g_costs.occurrences = static_cast<int64_t>(occurrences);
}
EMSCRIPTEN_KEEPALIVE void graph_costs_add(uint32_t event, uint32_t n) {
  const strata::TraceStore* s = engine_current().store();
  if (!s || event >= s->events.size()) return;
  add_cost_record(event, std::string_view(reinterpret_cast<const char*>(g_buf.data()),
                                          std::min<size_t>(n, g_buf.size())));
}
EMSCRIPTEN_KEEPALIVE void graph_costs_add_cached(uint32_t event) {
  const strata::TraceStore* s = engine_current().store();
  if (!s || event >= s->events.size()) return;
  add_cost_record(event, engine_current().cached_record(event));
}
// Occurrences in compressed files: one pass per file collects all their records.
EMSCRIPTEN_KEEPALIVE void graph_costs_scan_begin(const uint32_t* events, uint32_t n) {
  std::vector<strata::MemoryScan::Want> wants;
  const strata::TraceStore* s = engine_current().store();
  for (uint32_t k = 0; s && k < n; ++k)
    if (events[k] < s->events.size() && s->events.src_len[events[k]] > 0)
      wants.push_back({s->events.src_offset[events[k]], s->events.src_len[events[k]], events[k]});
  g_cost_scan.begin(std::move(wants));
}
EMSCRIPTEN_KEEPALIVE void graph_costs_scan_file(uint32_t i) {
  const std::vector<strata::SourceFile>& files = engine_current().store()->files;
  const uint64_t base = i < files.size() ? files[i].stream_base : 0;
  const uint64_t end = i + 1 < files.size() ? files[i + 1].stream_base : UINT64_MAX;
  g_cost_scan.begin_file(compression_named(i < files.size() ? files[i].compression : "none"), base,
                         end);
}
EMSCRIPTEN_KEEPALIVE int graph_costs_scan_commit(uint32_t n) {
  return g_cost_scan.feed(g_buf.data(), std::min<size_t>(n, g_buf.size())) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE void graph_costs_scan_end() {
  for (size_t i = 0; i < g_cost_scan.size(); ++i)
    if (g_cost_scan.record(i).size() == g_cost_scan.want(i).length)  // not cut short
      add_cost_record(g_cost_scan.want(i).event, g_cost_scan.record(i));
  g_cost_scan.begin({});
}
EMSCRIPTEN_KEEPALIVE const char* graph_costs_json() {
  return keep(strata::graph::op_costs_json(g_costs));
}

}  // extern "C"
