// What an xplane import keeps beside the event store: per plane, the names of its stat metadata
// and the shared stats of its event metadata, so the details pane can decode one XEvent re-read
// from the file (xplane_details.h); and the HloProto byte spans the graph viewer will read.
// Held by TraceStore::xspace (read-only once the load is done).
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/base/types.h"

namespace strata {

// A sorted (id → value) table: metadata ids are int64 and usually dense from 1, but nothing
// guarantees it, and lookups here are rare (one event's details), so a binary search will do.
template <class T>
struct IdTable {
  std::vector<std::pair<int64_t, T>> items;  // sorted by id, unique

  void sort_unique() {
    std::stable_sort(items.begin(), items.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    // A protobuf map keeps the last entry of a repeated key.
    std::vector<std::pair<int64_t, T>> out;
    out.reserve(items.size());
    for (auto& it : items) {
      if (!out.empty() && out.back().first == it.first)
        out.back() = std::move(it);
      else
        out.push_back(std::move(it));
    }
    items.swap(out);
  }
  const T* find(int64_t id) const {
    auto it = std::lower_bound(items.begin(), items.end(), id,
                               [](const auto& a, int64_t v) { return a.first < v; });
    return it != items.end() && it->first == id ? &it->second : nullptr;
  }
};

struct XPlaneTables {
  std::string name;  // "/device:GPU:0", "/host:CPU", ...
  int64_t id = 0;
  IdTable<StrId> stat_names;  // XStatMetadata id → name (also the text of ref_value stats)
  struct EventMeta {
    StrId name = 0;         // XEventMetadata.name (the "long name")
    StrId display = 0;      // display_name, 0 when empty
    uint32_t stats_at = 0;  // its stats field (repeated XStat, wire format) in `stats`
    uint32_t stats_len = 0;
  };
  IdTable<EventMeta> event_meta;
  // The plane's own stats (XPlane.stats: peak FLOP/s, bandwidth, clock...), in `stats` as
  // XEventMetadata.stats entries are.
  uint32_t plane_stats_at = 0, plane_stats_len = 0;
  // Event metadata stats, kept in the compact wire form and decoded on selection like the
  // event's own; a bytes value longer than kKeepBytes (a serialized HloProto) is kept as its
  // size only (private XStat field 15, see xplane_stats.h).
  static constexpr size_t kKeepBytes = 256;
  std::string stats;
};

// A serialized xla.HloProto found on the /host:metadata plane ("Hlo Proto" stat): the seam for
// the graph viewer, which re-reads these bytes from the file like an event's record.
struct HloProtoSpan {
  int64_t program_id = 0;
  std::string module;       // the XEventMetadata name, e.g. "jit_dot(5)"
  uint64_t src_offset = 0;  // in the (decompressed) file
  uint64_t src_len = 0;
};

// What the HloProtos say of the instructions kernels run (those outside fused computations),
// for the details of files that name an instruction but give neither its text nor its category
// (GPU xplanes): core/formats/xplane/xla_op_text.h. Read once at import, where the HloProtos
// pass anyway; lookups are per selected event.
// An instruction of a fusion's called computation, as XProf lists it under the fusion (its
// parameters and tuples left out); a nested fusion lists its own.
struct HloFusedOp {
  std::string name, expression, category;
  std::vector<HloFusedOp> fused;
};
struct HloOpText {
  std::string expression;         // "" when it cannot be written
  std::string category;           // "" when unknown
  std::vector<HloFusedOp> fused;  // a fusion's instructions, in the computation's order
  // Its metadata: the framework op it was lowered from ("jit(f)/jit(main)/dot_general", "" when
  // none), that op's type, and "file:line" (the device ops' provenance on GPU, as XProf's).
  std::string op_name, op_type, source;
};
struct HloOpTexts {
  // program id → instruction name → text.
  std::unordered_map<int64_t, std::unordered_map<std::string, HloOpText>> by_program;
  std::unordered_map<std::string, int64_t> program_of_module;  // HloModuleProto.name → id

  const HloOpText* find(int64_t program, std::string_view instr) const {
    auto p = by_program.find(program);
    if (p == by_program.end()) return nullptr;
    auto t = p->second.find(std::string(instr));
    return t == p->second.end() ? nullptr : &t->second;
  }
  // The program of a module named `module` ("jit_f", or XProf's "jit_f(5)"); false if none.
  bool program_of(std::string_view module, int64_t* program) const {
    auto m = program_of_module.find(std::string(module));
    if (m == program_of_module.end() && module.ends_with(')')) {
      const size_t open = module.rfind('(');
      if (open != std::string_view::npos)
        m = program_of_module.find(std::string(module.substr(0, open)));
    }
    if (m == program_of_module.end()) return false;
    *program = m->second;
    return true;
  }
};

struct XSpaceTables {
  std::vector<XPlaneTables> planes;    // in file order
  std::vector<std::string> hostnames;  // XSpace.hostnames
  std::vector<HloProtoSpan> hlo_protos;
  HloOpTexts hlo_ops;
  // Filled after TraceBuilder::finish(), in the store's final order:
  std::vector<uint32_t> plane_of_process;  // process → index in planes (kNone: none)
  std::vector<uint8_t> derived_track;      // track → 1 when Strata derived it (XLA Ops, ...)
  // Per event of a host plane that the store names by its metadata's display_name (TensorFlow
  // ops are shown by their type): that metadata's own name (the op's full "scope/name:Type",
  // which tells apart two ops of one type), by the event's record locator
  // (EventColumns::src_offset), sorted. Every other event's full name is its store name.
  std::vector<std::pair<uint64_t, StrId>> full_names;
  // What the engine's analyses computed from this store once and reuse for later queries (the
  // op metrics); opaque here, it lives and dies with the store.
  mutable std::shared_ptr<void> analysis_cache;

  // The full name of the event with this record locator, 0 when it is its store name.
  StrId full_name(uint64_t src_offset) const {
    auto it = std::lower_bound(full_names.begin(), full_names.end(), src_offset,
                               [](const auto& a, uint64_t v) { return a.first < v; });
    return it != full_names.end() && it->first == src_offset ? it->second : 0;
  }
  bool has_hlo(int64_t program_id) const {
    for (const HloProtoSpan& h : hlo_protos)
      if (h.program_id == program_id) return true;
    return false;
  }
};

}  // namespace strata
