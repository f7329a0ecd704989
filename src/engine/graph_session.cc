#include "engine/graph_session.h"

#include <algorithm>
#include <chrono>

#include "core/base/json_writer.h"
#include "core/formats/hlo/hlo_proto_parser.h"
#include "core/formats/hlo/hlo_text_parser.h"
#include "core/formats/xplane/program_id.h"
#include "core/graph/dag_gen.h"
#include "core/graph/graph_message.h"
#include "core/graph/hlo_graph.h"
#include "core/graph/layered_layout.h"
#include "core/graph/overview.h"
#include "engine/engine.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_graph.h"
#include "protocol/reply_keys_graph_bench.h"

namespace strata {

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

hlo::HloFileKind hlo_kind(int kind) {
  return kind == 1 ? hlo::HloFileKind::kText : hlo::HloFileKind::kProto;
}

}  // namespace

uint8_t* GraphSession::buffer(size_t n) {
  buf_.resize(n);
  return buf_.data();
}

std::string_view GraphSession::buffered(size_t n) const {
  return std::string_view(reinterpret_cast<const char*>(buf_.data()), std::min(n, buf_.size()));
}

void GraphSession::keep_modules(std::vector<hlo::HloModule>* parsed, std::string_view name,
                                bool from_trace, const std::string& file_error) {
  for (auto& m : *parsed) {
    std::string note = m.note;
    modules_.push_back({std::move(m), std::string(name), from_trace, std::move(note), {}});
  }
  // Where the file stopped when no module kept says so itself (the module it broke in had
  // nothing to keep, or a compressed file ended early): the last module read carries it.
  if (!parsed->empty() && !file_error.empty()) {
    bool said = false;
    for (size_t k = modules_.size() - parsed->size(); k < modules_.size(); ++k)
      said = said || modules_[k].note == file_error;
    if (!said) {
      std::string& note = modules_.back().note;
      note += (note.empty() ? "" : "; ");
      note += "the file stops after this module: " + file_error;
    }
  }
}

int GraphSession::add(int kind, std::string_view name, bool from_trace, int64_t program_id) {
  hlo::HloImporter importer(hlo_kind(kind), program_id);
  importer.feed(buf_.data(), buf_.size());
  std::vector<uint8_t>().swap(buf_);
  const bool ok = importer.finish();
  error_ = importer.error();
  if (!ok) return -1;
  const auto added = static_cast<int>(importer.modules().size());
  keep_modules(&importer.modules(), name, from_trace, error_);
  return added;
}

void GraphSession::import_begin(int kind, std::string_view name, int64_t program_id) {
  import_ = std::make_unique<hlo::HloImporter>(hlo_kind(kind), program_id);
  import_name_ = name;
}

void GraphSession::import_commit(size_t n) {
  if (import_) import_->feed(buf_.data(), std::min(n, buf_.size()));
}

int GraphSession::import_end() {
  std::vector<uint8_t>().swap(buf_);
  if (!import_) return -1;
  const bool ok = import_->finish();
  error_ = import_->error();
  int added = -1;
  if (ok) {
    added = static_cast<int>(import_->modules().size());
    keep_modules(&import_->modules(), import_name_, false, error_);
  }
  import_.reset();
  return added;
}

void GraphSession::drop_trace_modules() {
  std::erase_if(modules_, [](const Module& x) { return x.from_trace; });
}

uint32_t GraphSession::hlo_stream_begin(uint32_t file) {
  std::vector<HloProtoSpan> spans = engine_.file_hlo_spans(file);
  const auto n = static_cast<uint32_t>(spans.size());
  stream_.begin(std::move(spans));
  return n;
}

bool GraphSession::hlo_stream_commit(size_t n) {
  return stream_.feed(buf_.data(), std::min(n, buf_.size()));
}

std::string GraphSession::hlo_stream_end(bool keep) {
  std::vector<std::string> errors;
  std::vector<graph::StreamedHlo> got = stream_.finish(&errors);
  size_t added = 0;
  if (keep)
    for (auto& h : got) {
      std::string note = h.module.note;
      modules_.push_back({std::move(h.module), std::move(h.name), true, std::move(note), {}});
      ++added;
    }
  namespace reply = protocol::keys::graph_added;
  std::string o;
  protocol::append_key(&o, reply::kAdded, '{');
  o += std::to_string(added);
  protocol::append_key(&o, reply::kErrors);
  o += '[';
  for (size_t k = 0; k < errors.size(); ++k) {
    if (k) o += ',';
    json_append_string(&o, errors[k]);
  }
  return o + "]}";
}

std::string GraphSession::modules_json() const {
  namespace mod = protocol::keys::graph_module;
  namespace comp = protocol::keys::graph_computation;
  using protocol::append_key;
  std::string o = "[";
  for (size_t k = 0; k < modules_.size(); ++k) {
    const auto& m = modules_[k].m;
    if (k) o += ',';
    append_key(&o, mod::kName, '{');
    json_append_string(&o, m.module_name);
    append_key(&o, mod::kSource);
    json_append_string(&o, modules_[k].source);
    append_key(&o, mod::kProgramId);
    if (modules_[k].from_trace)
      append_program_id(&o, m.program_id);  // exact: a number only up to 2^53
    else
      o += std::to_string(m.program_id);  // -1: not from a trace
    append_key(&o, mod::kFromTrace);
    o += modules_[k].from_trace ? "true" : "false";
    append_key(&o, mod::kInstructions);
    o += std::to_string(m.instruction_count());
    append_key(&o, mod::kEntry);
    o += std::to_string(m.entry == kNone ? 0 : m.entry);
    append_key(&o, mod::kNote);
    json_append_string(&o, modules_[k].note);
    append_key(&o, mod::kComputations);
    o += '[';
    for (uint32_t c = 0; c < m.computation_count(); ++c) {
      if (c) o += ',';
      append_key(&o, comp::kName, '{');
      json_append_string(&o, m.str(m.comp_name[c]));
      append_key(&o, comp::kInstructions);
      o += std::to_string(m.comp_count[c]);
      append_key(&o, comp::kFusion);
      o += std::to_string(m.comp_is_fusion[c]);
      // Too big to read whole: the op and radius it opens on (core/graph/overview.h).
      if (!m.comp_is_fusion[c]) {
        const graph::OverviewStart start = graph::overview_start(m, c);
        if (start.instr != kNone) {
          append_key(&o, comp::kStart);
          o += std::to_string(start.instr);
          append_key(&o, comp::kStartHops);
          o += std::to_string(start.hops);
        }
      }
      o += "}";
    }
    o += "]}";
  }
  return o + "]";
}

const std::vector<uint8_t>& GraphSession::layout(uint32_t module, uint32_t computation,
                                                 const uint32_t* expanded, size_t n_expanded,
                                                 int32_t focus, uint32_t hops) {
  message_.clear();
  if (!valid(module)) return message_;
  const auto& m = modules_[module].m;
  hlo::VisibleGraphRequest req;
  req.computation = computation < m.computation_count() ? computation : kNone;
  for (size_t k = 0; k < n_expanded; ++k)
    if (expanded[k] < m.instruction_count()) req.expanded.push_back(expanded[k]);
  if (focus >= 0 && static_cast<uint32_t>(focus) < m.instruction_count()) {
    req.focus = static_cast<uint32_t>(focus);
    req.hops = hops;
  }
  const double t0 = now_ms();
  const hlo::VisibleGraph vis = hlo::build_visible_graph(m, req);
  const graph::LayoutInput in = graph::hlo_layout_input(m, vis);
  const graph::GraphLayout out = graph::layered_layout(in);
  const double ms = now_ms() - t0;
  const uint32_t comp = req.computation == kNone ? m.entry : req.computation;
  message_ = graph::write_graph_message(m, module, comp, vis, in, out, ms);
  return message_;
}

std::string GraphSession::details_json(uint32_t module, uint32_t instr) const {
  if (!valid(module) || instr >= modules_[module].m.instruction_count()) return "null";
  std::string o = graph::instruction_details_json(modules_[module].m, instr);
  const std::string buffers = defined_buffers_json(module, instr);
  if (!buffers.empty() && o.size() > 2 && o.back() == '}') o.insert(o.size() - 1, buffers);
  return o;
}

int32_t GraphSession::find_instr(uint32_t module, std::string_view name) const {
  if (!valid(module)) return -1;
  const uint32_t i = modules_[module].m.find(name);
  return i == kNone ? -1 : static_cast<int32_t>(i);
}

uint32_t GraphSession::instr_computation(uint32_t module, uint32_t instr) const {
  if (!valid(module) || instr >= modules_[module].m.instruction_count()) return 0;
  return modules_[module].m.computation[instr];
}

std::string GraphSession::search_json(uint32_t module, std::string_view text,
                                      uint32_t limit) const {
  std::string o = "[";
  if (valid(module)) {
    const auto& m = modules_[module].m;
    for (uint32_t i : hlo::find_instructions(m, text, limit)) {
      if (o.size() > 1) o += ',';
      namespace found = protocol::keys::graph_search;
      protocol::append_key(&o, found::kInstr, '{');
      o += std::to_string(i);
      protocol::append_key(&o, found::kName);
      json_append_string(&o, m.str(m.name[i]));
      protocol::append_key(&o, found::kOpcode);
      json_append_string(&o, m.str(m.opcode[i]));
      protocol::append_key(&o, found::kComputation);
      o += std::to_string(m.computation[i]) + "}";
    }
  }
  return o + "]";
}

double GraphSession::bench_generated(uint32_t n) {
  graph::DagShape shape;
  shape.nodes = n;
  shape.seed = 7;
  shape.back_edge_share = 0.002;
  const graph::LayoutInput in = graph::make_hlo_like_dag(shape);
  const double t0 = now_ms();
  const graph::GraphLayout out = graph::layered_layout(in);
  return out.x.size() == n ? now_ms() - t0 : -1;
}

std::string GraphSession::bench_module_json(uint32_t module, bool expand_all) const {
  if (!valid(module)) return "null";
  const auto& m = modules_[module].m;
  hlo::VisibleGraphRequest req;
  if (expand_all)
    for (uint32_t i = 0; i < m.instruction_count(); ++i)
      if (!m.called_of(i).empty()) req.expanded.push_back(i);
  const double t0 = now_ms();
  const hlo::VisibleGraph vis = hlo::build_visible_graph(m, req);
  const graph::LayoutInput in = graph::hlo_layout_input(m, vis);
  const graph::GraphLayout out = graph::layered_layout(in);
  const double ms = now_ms() - t0;
  namespace bench = protocol::keys::graph_bench;
  auto field = [](std::string_view key, const std::string& value) {
    return "\"" + std::string(key) + "\":" + value;
  };
  return "{" + field(bench::kMs, std::to_string(ms)) + "," +
         field(bench::kNodes, std::to_string(vis.node_count())) + "," +
         field(bench::kEdges, std::to_string(vis.edge_src.size())) + "," +
         field(bench::kCrossings, std::to_string(out.crossings)) + "}";
}

// An occurrence whose record could not be read is left out (`read` counts the others).
void GraphSession::add_cost_record(uint32_t event, std::string_view record) {
  if (record.empty()) return;
  graph::OpCostSample sample;
  if (graph::op_cost_sample(engine_.details_json(event, record), &sample))
    graph::add_op_cost_sample(&costs_, sample);
}

void GraphSession::costs_begin(std::string_view name, int64_t occurrences) {
  costs_ = graph::OpCosts();
  costs_.name = name;
  costs_.occurrences = occurrences;
}

void GraphSession::costs_add(uint32_t event, size_t n) {
  const TraceStore* s = engine_.store();
  if (!s || event >= s->events.size()) return;
  add_cost_record(event, buffered(n));
}

void GraphSession::costs_add_cached(uint32_t event) {
  const TraceStore* s = engine_.store();
  if (!s || event >= s->events.size()) return;
  add_cost_record(event, engine_.cached_record(event));
}

void GraphSession::costs_scan_begin(const uint32_t* events, size_t n) {
  std::vector<MemoryScan::Want> wants;
  const TraceStore* s = engine_.store();
  for (size_t k = 0; s && k < n; ++k)
    if (events[k] < s->events.size() && s->events.src_len[events[k]] > 0)
      wants.push_back({s->events.src_offset[events[k]], s->events.src_len[events[k]], events[k]});
  cost_scan_.begin(std::move(wants));
}

void GraphSession::costs_scan_file(uint32_t i) { engine_.scan_file(&cost_scan_, i); }

bool GraphSession::costs_scan_commit(size_t n) {
  return cost_scan_.feed(buf_.data(), std::min(n, buf_.size()));
}

void GraphSession::costs_scan_end() {
  for (size_t i = 0; i < cost_scan_.size(); ++i)
    if (cost_scan_.record(i).size() == cost_scan_.want(i).length)  // not cut short
      add_cost_record(cost_scan_.want(i).event, cost_scan_.record(i));
  cost_scan_.begin({});
}

std::string GraphSession::costs_json() const { return graph::op_costs_json(costs_); }

}  // namespace strata
