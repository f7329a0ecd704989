#include "engine/analysis/framework_op_xplane.h"

#include <algorithm>

#include "core/formats/xplane/xplane_derived.h"
#include "core/formats/xplane/xplane_tables.h"
#include "core/query/selection.h"
#include "engine/analysis/framework_op_stats.h"
#include "engine/analysis/op_cells.h"
#include "engine/analysis/op_metrics.h"
#include "engine/engine.h"

namespace strata {

namespace {

bool is_host_plane(std::string_view name) {
  return name.starts_with("/host:") && name != "/host:metadata";
}

// XProf counts an event on the host threads as a framework op when its metadata's name parses
// as one (user TraceMes of unknown type are left out).
bool names_framework_op(std::string_view full) {
  return parse_tf_op(full).scoped || full.starts_with("Iterator:");
}

// Per process, its Framework Ops (or the file's TensorFlow Ops) row, kNone when it has none.
std::vector<uint32_t> framework_op_tracks(const TraceStore& s) {
  std::vector<uint32_t> out(s.processes.size(), kNone);
  for (uint32_t t = 0; t < s.tracks.size(); ++t) {
    const Track& tr = s.tracks[t];
    const std::string_view name = s.strings.get(tr.name);
    if (tr.kind == TrackKind::kThread && tr.process < out.size() &&
        (name == "Framework Ops" || name == "TensorFlow Ops"))
      out[tr.process] = t;
  }
  return out;
}

// Per XLA op name of the cores the file itself lays out (not derived GPU rows, whose ops name
// their framework op through the HloProto), the framework op whose run on its plane's Framework
// Ops row covers the op's first run (kNone: none does): for files whose ops carry no tf_op but
// whose planes have that row, one event per run of one framework op.
std::vector<StrId> framework_op_by_time(const TraceStore& s, const OpMetricsDb& db,
                                        const std::vector<uint32_t>& fw_track) {
  std::vector<StrId> out(s.strings.size(), kNone);
  for (const OpCore& c : db.cores) {
    if (c.derived) continue;
    for (uint32_t t : c.tracks) {
      const Track& tr = s.tracks[t];
      const uint32_t fw = fw_track[tr.process];
      if (fw == kNone || s.tracks[fw].rows.size() < 2) continue;
      const uint32_t lo = s.tracks[fw].rows[0], hi = s.tracks[fw].rows[1];
      for (size_t d = 0; d + 1 < tr.rows.size(); ++d) {
        uint32_t p = lo;
        for (uint32_t e = tr.rows[d]; e < tr.rows[d + 1]; ++e) {
          const TimeNs st = s.events.start[e];
          while (p < hi && s.events.start[p] + s.events.dur[p] <= st && s.events.start[p] != st)
            ++p;
          if (p < hi && s.events.start[p] <= st && out[s.events.name[e]] == kNone)
            out[s.events.name[e]] = s.events.name[p];
        }
      }
    }
  }
  return out;
}

void add_track(std::vector<uint32_t>* tracks, uint32_t t) {
  if (std::find(tracks->begin(), tracks->end(), t) == tracks->end()) tracks->push_back(t);
}

// A device op's framework op, as XProf's provenance: its tf_op stat when its metadata has one;
// on GPU the op_name of its instruction in the module's HloProto (an op whose instruction names
// none is a row of its own, even where the Framework Ops row spans it); else the framework op
// its runs lie in. `tf_op`: it has one (else the op is a row of its own, by its name).
struct DeviceFrameworkOp {
  FrameworkOpName name;
  bool tf_op = false;
};
DeviceFrameworkOp device_framework_op(const TraceStore& s, const OpRow& op,
                                      const std::vector<StrId>& by_time) {
  std::string_view provenance;
  if (op.meta && !op.meta->tf_op.empty())
    provenance = op.meta->tf_op;
  else if (op.derived)
    provenance = op.hlo ? std::string_view(op.hlo->op_name) : std::string_view();
  else if (by_time[op.name] != kNone)
    provenance = s.strings.get(by_time[op.name]);
  DeviceFrameworkOp d;
  d.tf_op = !provenance.empty();
  if (d.tf_op) {
    d.name = framework_op_name(provenance);
  } else {
    d.name.name = s.strings.get(op.name);
    d.name.type = kUnknownOpType;
    d.name.shown = std::string(d.name.name);
  }
  return d;
}

}  // namespace

StrId event_full_name(const TraceStore& s, uint32_t e) {
  const XSpaceTables* x = s.xspace.get();
  const StrId full = x && !x->full_names.empty() ? x->full_name(s.events.src_offset[e]) : 0;
  return full ? full : s.events.name[e];
}

FrameworkOpName framework_op_name(std::string_view full) {
  const TfOp op = parse_tf_op(full);
  FrameworkOpName n;
  n.name = op.name;
  // XProf's types: a TensorFlow or JAX op's own; "Dataset" for tf.data iterators; else the
  // op parses as none ("Unknown").
  n.type = op.scoped                       ? op.shown
           : full.starts_with("Iterator:") ? std::string("Dataset")
                                           : std::string(kUnknownOpType);
  n.shown = op.shown;
  return n;
}

std::vector<uint32_t> host_framework_op_events(const TraceStore& s) {
  std::vector<uint32_t> ops;
  const XSpaceTables* x = s.xspace.get();
  if (!x) return ops;
  // Per full name (the metadata's name: the store names an event by its display_name when it
  // has one), whether it names a framework op: 0 not known yet, 1 no, 2 yes.
  std::vector<uint8_t> is_op(s.strings.size(), 0);
  for (uint32_t proc = 0; proc < s.processes.size(); ++proc) {
    if (proc >= x->plane_of_process.size() || x->plane_of_process[proc] == kNone) continue;
    if (!is_host_plane(x->planes[x->plane_of_process[proc]].name)) continue;
    for (uint32_t t : s.processes[proc].tracks) {
      const Track& tr = s.tracks[t];
      if (tr.kind != TrackKind::kThread) continue;
      for (uint32_t e = tr.first_event; e < tr.first_event + tr.event_count; ++e) {
        const StrId full = event_full_name(s, e);
        if (full >= is_op.size()) continue;
        uint8_t& known = is_op[full];
        if (!known) known = names_framework_op(s.strings.get(full)) ? 2 : 1;
        if (known == 2) ops.push_back(e);
      }
    }
  }
  std::sort(ops.begin(), ops.end());
  return ops;
}

bool framework_op_xplane_available(const TraceStore& s, std::string* why) {
  if (!op_cores(s).empty() || !host_framework_op_events(s).empty()) return true;
  *why =
      "The profile has no framework ops: no XLA Ops row on a device plane and no TensorFlow or "
      "JAX op on the host threads.";
  return false;
}

AnalysisTable framework_op_xplane_run(const Engine& engine, const QueryArgs& args) {
  OpAnalysisInput in;
  AnalysisTable t;
  if (!op_analysis_input(engine, args, &in, &t)) return t;
  t = framework_op_xplane_table(*engine.store(), *in.db, in.to_display);
  t.extra_json = cores_json(in.cores);
  return t;
}

std::vector<uint32_t> framework_op_row_events(const TraceStore& s, const OpMetricsDb& db,
                                              std::string_view op) {
  std::vector<uint32_t> out;
  std::vector<uint8_t> is_row(s.strings.size(), 0);  // per full name: 0 not known, 1 no, 2 yes
  for (uint32_t e : host_framework_op_events(s)) {
    const StrId full = event_full_name(s, e);
    uint8_t& known = is_row[full];
    if (!known) known = framework_op_name(s.strings.get(full)).name == op ? 2 : 1;
    if (known == 2) out.push_back(e);
  }
  const std::vector<uint32_t> fw_track = framework_op_tracks(s);
  const std::vector<StrId> by_time = framework_op_by_time(s, db, fw_track);
  std::vector<uint32_t> runs;
  std::vector<TimeNs> starts;
  for (const OpRow& o : db.ops) {
    const DeviceFrameworkOp d = device_framework_op(s, o, by_time);
    if (d.name.name != op) continue;
    const StrId shown = s.strings.find(d.name.shown);
    for (uint32_t track : o.tracks) {
      runs.clear();
      select_named(s, o.name, {track}, SIZE_MAX, &runs, o.program);
      const uint32_t fw = fw_track[s.tracks[track].process];
      if (!d.tf_op || fw == kNone || shown == kNone) {
        out.insert(out.end(), runs.begin(), runs.end());
        continue;
      }
      // The table links such an op through the Framework Ops row: its events there are the
      // runs of this framework op (by the name they show) that hold one of the op's runs.
      starts.clear();
      for (uint32_t r : runs) starts.push_back(s.events.start[r]);
      std::sort(starts.begin(), starts.end());
      const Track& f = s.tracks[fw];
      for (uint32_t e = f.first_event; e < f.first_event + f.event_count; ++e) {
        if (s.events.name[e] != shown) continue;
        const TimeNs lo = s.events.start[e], hi = lo + s.events.dur[e];
        auto first = std::lower_bound(starts.begin(), starts.end(), lo);
        if (first != starts.end() && (*first < hi || *first == lo)) out.push_back(e);
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

AnalysisTable framework_op_xplane_table(const TraceStore& s, const OpMetricsDb& db,
                                        const std::vector<uint32_t>& display_of) {
  FrameworkOpRows rows;
  const bool xla = !db.ops.empty();
  // XProf's rows: a framework op by its name (TfOp name: the full name less its type), so two
  // ops of one type are two rows and an op seen under several events (or on host and device)
  // is one.
  auto row_named = [&](const FrameworkOpName& n, std::string_view link) -> size_t {
    FrameworkOpRow& r = rows.of(n.name);
    if (r.type.empty()) r.type = n.type, r.link_name = std::string(link);
    return rows.index[std::string(n.name)];
  };
  const std::vector<uint32_t> host_ops = host_framework_op_events(s);
  std::vector<uint32_t> row_of_op(host_ops.size());
  {
    std::vector<uint32_t> row_of_full(s.strings.size(), kNone);
    for (size_t i = 0; i < host_ops.size(); ++i) {
      const StrId full = event_full_name(s, host_ops[i]);
      uint32_t& r = row_of_full[full];
      if (r == kNone)
        r = static_cast<uint32_t>(row_named(framework_op_name(s.strings.get(full)),
                                            s.strings.get(s.events.name[host_ops[i]])));
      row_of_op[i] = r;
    }
  }
  add_host_framework_ops(s, host_ops, !xla, &rows, row_of_op);
  const std::vector<uint32_t> fw_track = framework_op_tracks(s);
  const std::vector<StrId> by_time = framework_op_by_time(s, db, fw_track);
  uint64_t without_tf_op = 0;
  for (const OpRow& op : db.ops) {
    const DeviceFrameworkOp d = device_framework_op(s, op, by_time);
    const bool tf_op = d.tf_op;
    const FrameworkOpName& n = d.name;
    FrameworkOpRow& r = rows.rows[row_named(n, n.shown)];
    r.device_total += op.time;
    r.device_self += op.self;
    r.device_count += op.occurrences;
    r.device_occurrences = std::max(r.device_occurrences, op.occurrences);
    for (uint32_t track : op.tracks) {
      const uint32_t fw = fw_track[s.tracks[track].process];
      add_track(&r.tracks, !tf_op || fw == kNone ? track : fw);
    }
    without_tf_op += !tf_op;
  }
  AnalysisTable t = framework_op_table(std::move(rows.rows), display_of, true);
  if (xla) {
    t.notes.push_back(
        "Device time: the XLA ops grouped by their framework op (their tf_op stat; on GPU the "
        "op_name of their instruction in the module's HloProto), as XProf's TensorFlow Stats.");
    if (std::any_of(db.cores.begin(), db.cores.end(), [](const OpCore& c) { return c.derived; }))
      t.notes.push_back(
          "On GPU an XLA op's framework op is the op_name of its instruction in the module's "
          "HloProto, as XProf's: an op whose instruction names none is a row of its own, even "
          "where the timeline's Framework Ops row (which spans the gaps between two ops of one "
          "framework op) draws it inside a framework op's run.");
    if (without_tf_op)
      t.notes.push_back(std::to_string(without_tf_op) +
                        " XLA ops name no framework op: each is a row of its own, named by the "
                        "HLO op (XProf: type Unknown).");
  } else {
    t.notes.push_back(
        "The profile has no XLA Ops rows: device time is what the host ops launched, through "
        "the runtime calls' correlation flows.");
  }
  t.notes.push_back(
      "Rows are framework ops by name, as XProf's TensorFlow Stats: a TensorFlow op's full name "
      "without its type (two ops of one type are two rows), a JAX op's full name. The timeline "
      "shows TensorFlow ops by type; a row's link selects that op's own events (by their full "
      "names), not the other ops of its type.");
  return t;
}

}  // namespace strata
