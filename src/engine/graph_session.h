// The graph viewer's state in the engine worker: the HLO modules open (from HLO files, and the
// loaded xplane's own HloProtos), their layouts, details and searches, and the FLOPs and bytes
// of a selected op's occurrences in the trace. Kept apart from the Engine's TraceStore: opening
// an HLO file leaves the trace loaded, and a trace's modules stay until the next trace replaces
// them. engine/wasm/graph_exports.cc forwards to one instance; native tests drive it the same.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/hlo/hlo_importer.h"
#include "core/formats/hlo/hlo_module.h"
#include "core/graph/op_costs.h"
#include "core/graph/xplane_hlo_stream.h"
#include "core/memory_viewer/heap_replay.h"
#include "engine/memory_scan.h"

namespace strata {

class Engine;

class GraphSession {
 public:
  // `engine` holds the trace whose HloProtos and op occurrences are read.
  explicit GraphSession(const Engine& engine) : engine_(engine) {}

  // Scratch space where the caller writes the next bytes for add / the passes below.
  uint8_t* buffer(size_t n);

  // ---- modules ---------------------------------------------------------------------------
  // Parses the buffer whole (kind 1 text, 2 HloProto) as the modules of file `name`;
  // `from_trace` marks an xplane's modules (replaced by the next trace's). Returns the modules
  // added, or -1 (error() says why; it may also be set on success: where a text stopped).
  int add(int kind, std::string_view name, bool from_trace, int64_t program_id);
  const std::string& error() const { return error_; }
  // The same fed in chunks (gzip / zstd inflated): import_begin, the file's bytes through
  // buffer + import_commit, then import_end (as add's result).
  void import_begin(int kind, std::string_view name, int64_t program_id);
  void import_commit(size_t n);
  int import_end();
  void drop_trace_modules();
  size_t module_count() const { return modules_.size(); }
  const hlo::HloModule* module(uint32_t i) const {
    return i < modules_.size() ? &modules_[i].m : nullptr;
  }

  // A compressed xplane's HloProtos (not readable at random offsets): one pass over file
  // `file` of the trace; returns how many modules it holds. Feed the file from its start
  // through buffer + hlo_stream_commit until that returns true, then hlo_stream_end:
  // {"added": n, "errors": [...]} (the modules are kept as the trace's when `keep`).
  uint32_t hlo_stream_begin(uint32_t file);
  bool hlo_stream_commit(size_t n);
  std::string hlo_stream_end(bool keep);

  // [{name, source, programId, fromTrace, instructions, entry, note, computations:[{name,
  // instructions, fusion, start?, startHops?}]}]: note says where a file cut short stopped
  // ("" when whole); start / startHops, on computations too big to read whole, are the op and
  // radius the Graph tab opens them on (core/graph/overview.h).
  std::string modules_json() const;
  // Lays out one computation (expanded: instructions shown opened; focus >= 0 with hops: its
  // N-hop neighbourhood) as a graph message (core/graph/graph_message.h); empty when bad.
  const std::vector<uint8_t>& layout(uint32_t module, uint32_t computation,
                                     const uint32_t* expanded, size_t n_expanded, int32_t focus,
                                     uint32_t hops);
  const std::vector<uint8_t>& layout_message() const { return message_; }
  std::string details_json(uint32_t module, uint32_t instr) const;   // "null" when bad
  int32_t find_instr(uint32_t module, std::string_view name) const;  // -1 when absent
  uint32_t instr_computation(uint32_t module, uint32_t instr) const;
  // [{instr, name, opcode, computation}] for a name/opcode search, at most `limit`.
  std::string search_json(uint32_t module, std::string_view text, uint32_t limit) const;

  // scripts/bench-graph: layout ms of a generated graph of n nodes (-1 when it failed); and
  // {ms, nodes, edges, crossings} of a module's entry, collapsed or fully opened.
  static double bench_generated(uint32_t n);
  std::string bench_module_json(uint32_t module, bool expand_all) const;

  // ---- the selected op's FLOPs and bytes in the trace (core/graph/op_costs.h) -------------
  // costs_begin; then per occurrence costs_add (its record in the buffer, read from a plain
  // file), costs_add_cached (the engine kept it) or, for compressed files, costs_scan_begin +
  // per file costs_scan_file and its bytes through costs_scan_commit, then costs_scan_end;
  // costs_json last.
  void costs_begin(std::string_view name, int64_t occurrences);
  void costs_add(uint32_t event, size_t n);
  void costs_add_cached(uint32_t event);
  void costs_scan_begin(const uint32_t* events, size_t n);
  void costs_scan_file(uint32_t file);
  bool costs_scan_commit(size_t n);
  void costs_scan_end();
  std::string costs_json() const;

  // ---- the Memory Viewer's view of a module's buffer assignment (graph_session_memory.cc) --
  // Parsed on first use and kept with the module; null with *error saying why (no buffer
  // assignment, damaged, an inconsistent heap trace).
  const memview::MemoryModel* memory_model(uint32_t module, std::string* error) const;
  const memview::HeapProfile* heap_profile(uint32_t module, int64_t color,
                                           std::string* error) const;
  const std::string& module_source(uint32_t module) const;
  // ,"buffers":[text] for details_json: the buffers `instr` defines; "" without an assignment.
  std::string defined_buffers_json(uint32_t module, uint32_t instr) const;
  bool module_from_trace(uint32_t module) const {
    return valid(module) && modules_[module].from_trace;
  }

 private:
  struct MemoryCache;  // graph_session_memory.cc
  struct Module {
    hlo::HloModule m;
    std::string source;  // the file it came from
    bool from_trace = false;
    std::string note;  // what the viewer says about it: where its text stopped, no ENTRY
    mutable std::shared_ptr<MemoryCache> memory;  // the Memory Viewer's, on first use
  };
  bool valid(uint32_t module) const { return module < modules_.size(); }
  void keep_modules(std::vector<hlo::HloModule>* parsed, std::string_view name, bool from_trace,
                    const std::string& file_error);
  void add_cost_record(uint32_t event, std::string_view record);
  std::string_view buffered(size_t n) const;

  const Engine& engine_;
  std::vector<Module> modules_;
  std::vector<uint8_t> buf_;
  std::vector<uint8_t> message_;
  std::string error_;
  std::unique_ptr<hlo::HloImporter> import_;
  std::string import_name_;
  graph::XplaneHloStream stream_;  // a compressed xplane's HloProtos, one pass
  graph::OpCosts costs_;
  MemoryScan cost_scan_;  // the occurrences' records in compressed files
};

}  // namespace strata
