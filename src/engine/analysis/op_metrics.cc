#include "engine/analysis/op_metrics.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

#include "core/formats/protobuf/wire.h"
#include "core/formats/xplane/xla_op_name.h"
#include "core/formats/xplane/xplane_layout.h"
#include "core/formats/xplane/xplane_stats.h"
#include "core/formats/xplane/xplane_tables.h"

namespace strata {

namespace {

constexpr std::string_view kXlaOps = "XLA Ops";
constexpr std::string_view kXlaModules = kXlaModulesLine;
constexpr std::string_view kSteps = "Steps";

enum class MetaStat : uint8_t {
  kOther,
  kCategory,
  kLongName,
  kTfOp,
  kSource,
  kDedup,
  kProgram,
  kFlops,
  kBytes,
  kRemat,
  kOutside,
  kHloOp,
};

MetaStat meta_stat(std::string_view n) {
  static const std::pair<std::string_view, MetaStat> kStats[] = {
      {"hlo_category", MetaStat::kCategory},
      {"long_name", MetaStat::kLongName},
      {"tf_op", MetaStat::kTfOp},
      {"source", MetaStat::kSource},
      {"source_info", MetaStat::kSource},
      {"deduplicated_name", MetaStat::kDedup},
      {"program_id", MetaStat::kProgram},
      {"flops", MetaStat::kFlops},
      {"bytes_accessed", MetaStat::kBytes},
      {"is_rematerialization", MetaStat::kRemat},
      {"rematerialization", MetaStat::kRemat},
      {"outside_compilation", MetaStat::kOutside},
      {"hlo_op", MetaStat::kHloOp},
  };
  for (const auto& [name, role] : kStats)
    if (name == n) return role;
  return MetaStat::kOther;
}

// A flops / bytes stat as a per-occurrence count, or -1 with the reason.
double count_stat(const StatValue& v, std::string_view what, std::string* why) {
  if (v.kind == StatValue::kUint) return static_cast<double>(v.bits);
  if (v.kind == StatValue::kInt) {
    if (v.as_int() >= 0) return static_cast<double>(v.as_int());
  } else if (v.kind == StatValue::kDouble) {
    const double d = v.as_number();
    if (d >= 0 && d < 1e300) return d;
  } else {
    *why = "the " + std::string(what) + " stat of this op is not a number";
    return -1;
  }
  *why = "the " + std::string(what) + " stat of this op is negative or not finite";
  return -1;
}

// Decodes the stats of one event metadata into what the analyses read.
void decode_meta(const StringTable& strings, const XPlaneTables& plane,
                 const XPlaneTables::EventMeta& em,
                 const std::unordered_map<int64_t, MetaStat>& roles, OpMeta* out) {
  std::string_view hlo_op;
  out->flops_why = "the file has no flops stat for this op";
  out->bytes_why = "the file has no bytes_accessed stat for this op";
  const auto* base = reinterpret_cast<const uint8_t*>(plane.stats.data());
  wire::Reader r(base + em.stats_at, em.stats_len);
  wire::Field f;
  while (r.next(&f) == wire::Status::kOk) {
    if (f.number != 5 || f.type != wire::kLen) continue;
    StatValue v;
    const char* why = "";
    if (!decode_stat(f.data, f.size, &v, &why)) continue;
    auto it = roles.find(v.metadata_id);
    if (it == roles.end()) continue;
    switch (it->second) {
      case MetaStat::kCategory:
        out->category = stat_text(strings, plane, v);
        break;
      case MetaStat::kLongName:
        out->long_name = stat_text(strings, plane, v);
        break;
      case MetaStat::kTfOp:
        out->tf_op = stat_text(strings, plane, v);
        break;
      case MetaStat::kSource:
        if (out->source.empty()) out->source = stat_text(strings, plane, v);
        break;
      case MetaStat::kDedup:
        out->dedup = stat_text(strings, plane, v);
        break;
      case MetaStat::kHloOp:
        hlo_op = stat_text(strings, plane, v);
        break;
      case MetaStat::kProgram:
        if (v.is_integer()) out->has_program = true, out->program = v.bits;
        break;
      case MetaStat::kFlops:
        out->flops = count_stat(v, "flops", &out->flops_why);
        break;
      case MetaStat::kBytes:
        out->bytes = count_stat(v, "bytes_accessed", &out->bytes_why);
        break;
      case MetaStat::kRemat:
        if (v.is_integer()) out->remat = v.bits != 0;
        break;
      case MetaStat::kOutside:
        if (v.is_integer()) out->outside = v.bits != 0;
        break;
      case MetaStat::kOther:
        break;
    }
  }
  // The one rule for which instruction an XLA op runs (these are the XLA Ops rows' events).
  XlaOpNaming naming;
  naming.hlo_op = hlo_op;
  naming.metadata_name = strings.get(em.name);
  naming.long_name = out->long_name;
  naming.on_xla_ops_line = true;
  out->hlo_name = xla_hlo_instruction(naming);
  if (out->hlo_name.empty()) out->hlo_name = strings.get(em.name);
}

// Earliest start and latest end of a track's events (each row is sorted by start and by end).
void track_span(const TraceStore& s, uint32_t t, TimeNs* first, TimeNs* last, bool* any) {
  const Track& tr = s.tracks[t];
  for (size_t d = 0; d + 1 < tr.rows.size(); ++d) {
    const uint32_t lo = tr.rows[d], hi = tr.rows[d + 1];
    if (lo >= hi) continue;
    const TimeNs a = s.events.start[lo], b = s.events.start[hi - 1] + s.events.dur[hi - 1];
    if (!*any || a < *first) *first = a;
    if (!*any || b > *last) *last = b;
    *any = true;
  }
}

// Program ids as small indices while the rows are built.
struct Programs {
  std::vector<std::string> text;
  std::unordered_map<std::string, uint32_t> index;
  uint32_t of(const std::string& t) {
    auto [it, added] = index.emplace(t, static_cast<uint32_t>(text.size()));
    if (added) text.push_back(t);
    return it->second;
  }
};

}  // namespace

std::string uint64_text(uint64_t v) { return std::to_string(v); }

std::string_view category_from_name(std::string_view op) {
  for (;;) {
    const size_t dot = op.rfind('.');
    if (dot == std::string_view::npos || dot + 1 == op.size()) return op;
    bool digits = true;
    for (size_t i = dot + 1; i < op.size(); ++i) digits = digits && op[i] >= '0' && op[i] <= '9';
    if (!digits || dot == 0) return op;
    op = op.substr(0, dot);
  }
}

TimeNs OpMetricsDb::total() const {
  TimeNs t = 0;
  for (const OpCore& c : cores) t += c.total();
  return t;
}
TimeNs OpMetricsDb::busy() const {
  TimeNs t = 0;
  for (const OpCore& c : cores) t += c.busy;
  return t;
}

std::vector<OpCore> op_cores(const TraceStore& s) {
  std::vector<OpCore> out;
  const XSpaceTables* x = s.xspace.get();
  if (!x) return out;
  std::vector<uint32_t> core_of_plane(x->planes.size(), kNone);
  for (uint32_t t = 0; t < s.tracks.size(); ++t) {
    const Track& tr = s.tracks[t];
    if (tr.kind != TrackKind::kThread || tr.event_count == 0) continue;
    if (s.strings.get(tr.name) != kXlaOps) continue;
    if (tr.process >= x->plane_of_process.size()) continue;
    const uint32_t plane = x->plane_of_process[tr.process];
    if (plane == kNone || !starts_with(x->planes[plane].name, "/device:")) continue;
    if (core_of_plane[plane] == kNone) {
      core_of_plane[plane] = static_cast<uint32_t>(out.size());
      OpCore c;
      c.plane = plane;
      c.name = x->planes[plane].name;
      c.tpu = plane_kind(c.name) == PlaneKind::kTpu;
      out.push_back(std::move(c));
    }
    OpCore& c = out[core_of_plane[plane]];
    c.tracks.push_back(t);
    if (t < x->derived_track.size() && x->derived_track[t]) c.derived = true;
    uint32_t modules = kNone;
    for (uint32_t m : s.processes[tr.process].tracks)
      if (s.strings.get(s.tracks[m].name) == kXlaModules) modules = m;
    c.module_tracks.push_back(modules);
  }
  // XProf's device time: from the first to the last op (with the Steps row on TPU; every
  // stream, not the derived rows, on GPU).
  std::sort(out.begin(), out.end(),
            [](const OpCore& a, const OpCore& b) { return a.plane < b.plane; });
  for (OpCore& c : out) {
    bool any = false;
    for (uint32_t p = 0; p < s.processes.size(); ++p) {
      if (p >= x->plane_of_process.size() || x->plane_of_process[p] != c.plane) continue;
      for (uint32_t t : s.processes[p].tracks) {
        const Track& tr = s.tracks[t];
        if (tr.kind != TrackKind::kThread || tr.event_count == 0) continue;
        const std::string_view name = s.strings.get(tr.name);
        const bool derived = t < x->derived_track.size() && x->derived_track[t];
        const bool spans =
            name == kXlaOps || name == kSteps || (!c.tpu && !derived && name != kXlaModules);
        if (!spans) continue;
        c.span_tracks.push_back(t);
        track_span(s, t, &c.first, &c.last, &any);
      }
    }
    for (uint32_t t : c.tracks) {
      const Track& tr = s.tracks[t];
      if (tr.rows.size() < 2) continue;
      for (uint32_t e = tr.rows[0]; e < tr.rows[1]; ++e) c.busy += s.events.dur[e];
    }
  }
  return out;
}

int parse_core_arg(const std::vector<OpCore>& cores, const std::string& text, bool is_number,
                   std::string* why) {
  if (text.empty() || text == "all") return -1;
  if (is_number) {
    const long v = std::strtol(text.c_str(), nullptr, 10);
    if (v >= 0 && static_cast<size_t>(v) < cores.size()) return static_cast<int>(v);
  } else {
    for (size_t i = 0; i < cores.size(); ++i)
      if (cores[i].name == text) return static_cast<int>(i);
  }
  *why = "no device core \"" + text + "\" with an XLA Ops row (" + std::to_string(cores.size()) +
         " cores: give an index, a plane name or \"all\")";
  return -2;
}

namespace {

// What the event loop adds to: one slot per (core, program of the covering module, event
// name), resolved once (its metadata, program and row) and then only counted; the slots fold
// into the rows at the end. An op name runs in few programs, so a core's slots are a small
// dense table per program, indexed by the name's dense number on that core.
struct Slot {
  uint32_t row = kNone;
  const OpMeta* meta = nullptr;
  uint64_t occurrences = 0;
  TimeNs time = 0, self = 0;
  uint32_t last_track = kNone;  // the last track it was counted on (tracks are walked in turn)
};

}  // namespace

OpMetricsDb build_op_metrics(const TraceStore& s, const std::vector<OpCore>& cores, int core) {
  OpMetricsDb db;
  const XSpaceTables* x = s.xspace.get();
  if (!x || cores.empty()) return db;
  if (core >= 0 && static_cast<size_t>(core) < cores.size())
    db.cores.push_back(cores[static_cast<size_t>(core)]), db.core = core;
  else
    db.cores = cores;

  Programs programs;
  // Rows by name: the name's first row, then a chain through its rows in other programs (an op
  // name is in a few programs at most). Walked once per slot, not per event.
  std::vector<uint32_t> first_row(s.strings.size(), kNone);
  std::vector<uint32_t> next_row;  // per row: the next row of its name, or kNone
  std::vector<uint32_t> row_prog;  // per row: its program index
  std::vector<TimeNs> children;
  std::vector<std::string_view> module_names;  // per program index, when known
  std::vector<Slot> slots;
  std::vector<std::pair<uint32_t, uint32_t>> slot_tracks;  // (slot, store track) as met

  for (uint32_t ci = 0; ci < db.cores.size(); ++ci) {
    const OpCore& c = db.cores[ci];
    const XPlaneTables& plane = x->planes[c.plane];
    // The plane's event metadata by shown name (display_name, else name), decoded once.
    std::unordered_map<int64_t, MetaStat> roles;
    for (const auto& [id, name] : plane.stat_names.items) {
      MetaStat r = meta_stat(s.strings.get(name));
      if (r != MetaStat::kOther) roles.emplace(id, r);
    }
    // Shown name → its metadata (indices in meta_store).
    std::vector<std::vector<uint32_t>> groups;
    std::vector<uint32_t> group_of_name(s.strings.size(), kNone);
    std::vector<uint32_t> meta_prog;
    const size_t meta_base = db.meta_store.size();
    for (const auto& [id, em] : plane.event_meta.items) {
      auto m = std::make_unique<OpMeta>();
      decode_meta(s.strings, plane, em, roles, m.get());
      meta_prog.push_back(m->has_program ? programs.of(uint64_text(m->program)) : kNone);
      const StrId shown = em.display ? em.display : em.name;
      db.meta_store.push_back(std::move(m));
      if (shown >= group_of_name.size()) continue;
      if (group_of_name[shown] == kNone) {
        group_of_name[shown] = static_cast<uint32_t>(groups.size());
        groups.emplace_back();
      }
      groups[group_of_name[shown]].push_back(static_cast<uint32_t>(db.meta_store.size() - 1));
    }
    std::unordered_map<StrId, uint32_t> module_prog;  // module event name → program index
    auto program_of_module = [&](StrId name) -> uint32_t {
      auto it = module_prog.find(name);
      if (it != module_prog.end()) return it->second;
      std::string_view module, program;
      uint32_t p = kNone;
      int64_t id = 0;
      if (split_module_name(s.strings.get(name), &module, &program)) {
        p = programs.of(std::string(program));
      } else if (x->hlo_ops.program_of(s.strings.get(name), &id)) {
        // GPU rows name the module only ("jit_f"): its HloProto gives the program.
        module = s.strings.get(name);
        p = programs.of(uint64_text(static_cast<uint64_t>(id)));
      }
      if (p != kNone) {
        if (module_names.size() <= p) module_names.resize(p + 1);
        module_names[p] = module;
      }
      module_prog.emplace(name, p);
      return p;
    };
    // This core's slots: name → dense number, then per module program (index + 1; 0: none)
    // dense number → slot.
    std::vector<uint32_t> dense_of_name(s.strings.size(), kNone);
    uint32_t dense_names = 0;
    std::vector<std::vector<uint32_t>> slot_of;
    // The slow path, once per (module program, name): the op's metadata (the one of that name
    // in the module's program when several), its program and its row.
    auto new_slot = [&](StrId name, uint32_t mod_prog, bool derived) -> uint32_t {
      const OpMeta* meta = nullptr;
      uint32_t prog = mod_prog;
      const uint32_t group = name < group_of_name.size() ? group_of_name[name] : kNone;
      if (group != kNone) {
        const std::vector<uint32_t>& candidates = groups[group];
        uint32_t pick = candidates.front();
        for (uint32_t mi : candidates)
          if (mod_prog != kNone && meta_prog[mi - meta_base] == mod_prog) pick = mi;
        meta = db.meta_store[pick].get();
        if (meta_prog[pick - meta_base] != kNone) prog = meta_prog[pick - meta_base];
      }
      uint32_t r = first_row[name];
      while (r != kNone && row_prog[r] != prog) r = next_row[r];
      if (r == kNone) {
        r = static_cast<uint32_t>(db.ops.size());
        OpRow row;
        row.program = prog == kNone ? std::string() : programs.text[prog];
        row.name = name;
        row.meta = meta;
        row.first_core = ci;
        row.derived = derived;
        db.ops.push_back(std::move(row));
        row_prog.push_back(prog);
        next_row.push_back(first_row[name]);
        first_row[name] = r;
      }
      OpRow& row = db.ops[r];
      if (row.module.empty() && prog != kNone && prog < module_names.size())
        row.module = module_names[prog];
      if (!row.meta) row.meta = meta;
      Slot slot;
      slot.row = r;
      slot.meta = meta;
      slots.push_back(slot);
      return static_cast<uint32_t>(slots.size() - 1);
    };

    for (size_t k = 0; k < c.tracks.size(); ++k) {
      const uint32_t t = c.tracks[k];
      const Track& tr = s.tracks[t];
      const bool derived = t < x->derived_track.size() && x->derived_track[t];
      // Self time: each event's time minus its children's one row down (clipped to it).
      children.assign(tr.event_count, 0);
      for (size_t d = 1; d + 1 < tr.rows.size(); ++d) {
        uint32_t p = tr.rows[d - 1];
        const uint32_t pe = tr.rows[d];
        for (uint32_t e = tr.rows[d]; e < tr.rows[d + 1]; ++e) {
          const TimeNs st = s.events.start[e];
          while (p < pe && s.events.start[p] + s.events.dur[p] <= st && !(s.events.start[p] == st))
            ++p;
          if (p >= pe || s.events.start[p] > st) continue;
          const TimeNs end = std::min(st + s.events.dur[e], s.events.start[p] + s.events.dur[p]);
          children[p - tr.first_event] += end - st;
        }
      }
      const uint32_t mt = c.module_tracks[k];
      const TimeNs* start = s.events.start.data();
      const TimeNs* dur = s.events.dur.data();
      const StrId* names = s.events.name.data();
      for (size_t d = 0; d + 1 < tr.rows.size(); ++d) {
        // The module event covering each op (XLA Modules' top row, sorted like this row).
        uint32_t m = kNone, me = kNone;
        if (mt != kNone && s.tracks[mt].rows.size() >= 2)
          m = s.tracks[mt].rows[0], me = s.tracks[mt].rows[1];
        uint32_t seen_module = kNone, seen_prog = kNone;  // the last module event and its program
        for (uint32_t e = tr.rows[d]; e < tr.rows[d + 1]; ++e) {
          const TimeNs st = start[e];
          uint32_t mod_prog = kNone;
          if (m != kNone) {
            while (m < me && start[m] + dur[m] <= st && start[m] != st) ++m;
            if (m < me && start[m] <= st) {
              if (m != seen_module) seen_module = m, seen_prog = program_of_module(names[m]);
              mod_prog = seen_prog;
            }
          }
          const size_t ti = mod_prog == kNone ? 0 : mod_prog + 1;
          if (slot_of.size() <= ti) slot_of.resize(ti + 1);
          const StrId name = names[e];
          uint32_t dn = dense_of_name[name];
          if (dn == kNone) dn = dense_of_name[name] = dense_names++;
          std::vector<uint32_t>& table = slot_of[ti];
          if (table.size() <= dn) table.resize(dense_names, kNone);
          uint32_t si = table[dn];
          if (si == kNone) si = table[dn] = new_slot(name, mod_prog, derived);
          Slot& slot = slots[si];
          ++slot.occurrences;
          slot.time += dur[e];
          slot.self += dur[e] - children[e - tr.first_event];
          if (slot.last_track != t) {
            slot.last_track = t;
            slot_tracks.emplace_back(si, t);
          }
        }
      }
    }
  }
  // Fold the slots into their rows, in the order they were met (the rows' event order).
  for (const Slot& slot : slots) {
    OpRow& row = db.ops[slot.row];
    row.occurrences += slot.occurrences;
    row.time += slot.time;
    row.self += slot.self;
    // Per occurrence: exact for the integer counts the stats carry.
    if (slot.meta && slot.meta->flops >= 0)
      row.flops += static_cast<double>(slot.occurrences) * slot.meta->flops;
    else
      row.flops_missing += slot.occurrences;
    if (slot.meta && slot.meta->bytes >= 0)
      row.bytes += static_cast<double>(slot.occurrences) * slot.meta->bytes;
    else
      row.bytes_missing += slot.occurrences;
  }
  for (const auto& [si, t] : slot_tracks) {
    std::vector<uint32_t>& tracks = db.ops[slots[si].row].tracks;
    if (std::find(tracks.begin(), tracks.end(), t) == tracks.end()) tracks.push_back(t);
  }
  // Each op's instruction in its module's HloProto, once per row.
  for (OpRow& row : db.ops) {
    if (row.program.empty()) continue;
    const auto program = static_cast<int64_t>(std::strtoull(row.program.c_str(), nullptr, 10));
    row.hlo = x->hlo_ops.find(program, row.meta ? row.meta->hlo_name : s.strings.get(row.name));
  }
  return db;
}

}  // namespace strata
