#include "core/query/selection.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "core/formats/xplane/xla_module_name.h"
#include "core/formats/xplane/xplane_tables.h"
#include "core/query/hierarchy.h"
#include "core/query/viewport.h"

namespace strata {

uint64_t select_region(const TraceStore& s, TimeNs t0, TimeNs t1, const std::vector<RowSpan>& rows,
                       size_t limit, std::vector<uint32_t>* out) {
  uint64_t count = 0;
  const TimeNs* st = s.events.start.data();
  for (const RowSpan& r : rows) {
    for (uint32_t d = r.depth_lo; d <= r.depth_hi; ++d) {
      uint32_t first, last;
      if (!row_bounds(s, r.track, d, &first, &last)) continue;
      for (uint32_t i = first_visible_in_row(s, first, last, t0); i < last && st[i] <= t1; ++i) {
        ++count;
        if (out->size() < limit) out->push_back(i);
      }
    }
  }
  return count;
}

namespace {

// The "XLA Modules" track beside track t (same process), or kNone.
uint32_t modules_track_of(const TraceStore& s, uint32_t t) {
  const uint32_t process = s.tracks[t].process;
  if (process >= s.processes.size()) return kNone;
  for (uint32_t m : s.processes[process].tracks)
    if (m != t && s.strings.get(s.tracks[m].name) == kXlaModulesLine) return m;
  return kNone;
}

// Whether a module event is a run of `program`: "module(program)", or (GPU rows, which name
// the module only) the program of that module's HloProto.
bool module_runs_program(const TraceStore& s, StrId name, std::string_view program) {
  std::string_view module, id;
  if (split_module_name(s.strings.get(name), &module, &id)) return id == program;
  int64_t from_hlo = 0;
  return s.xspace && s.xspace->hlo_ops.program_of(s.strings.get(name), &from_hlo) &&
         std::to_string(static_cast<uint64_t>(from_hlo)) == program;
}

}  // namespace

uint64_t select_named(const TraceStore& s, StrId name, const std::vector<uint32_t>& tracks,
                      size_t limit, std::vector<uint32_t>* out, std::string_view program) {
  uint64_t count = 0;
  const StrId* names = s.events.name.data();
  auto scan = [&](uint32_t first, uint32_t end) {
    for (uint32_t i = first; i < end; ++i) {
      if (names[i] != name) continue;
      ++count;
      if (out->size() < limit) out->push_back(i);
    }
  };
  // One row of a track, keeping the events that start inside a run of the program (the
  // module row's top row is sorted by start, as this row is: one forward walk).
  auto scan_in_program = [&](uint32_t first, uint32_t end, uint32_t modules) {
    const Track& mt = s.tracks[modules];
    if (mt.rows.size() < 2) return;
    uint32_t m = mt.rows[0];
    const uint32_t me = mt.rows[1];
    const TimeNs* st = s.events.start.data();
    const TimeNs* dur = s.events.dur.data();
    uint32_t seen = kNone;
    bool seen_in = false;
    for (uint32_t i = first; i < end; ++i) {
      if (names[i] != name) continue;
      while (m < me && st[m] + dur[m] <= st[i] && st[m] != st[i]) ++m;
      if (m >= me || st[m] > st[i]) continue;
      if (m != seen) seen = m, seen_in = module_runs_program(s, names[m], program);
      if (!seen_in) continue;
      ++count;
      if (out->size() < limit) out->push_back(i);
    }
  };
  auto scan_track = [&](uint32_t t) {
    const Track& tr = s.tracks[t];
    const uint32_t modules = program.empty() ? kNone : modules_track_of(s, t);
    if (modules == kNone) {
      scan(tr.first_event, tr.first_event + tr.event_count);
      return;
    }
    for (size_t d = 0; d + 1 < tr.rows.size(); ++d)
      scan_in_program(tr.rows[d], tr.rows[d + 1], modules);
  };
  if (tracks.empty() && program.empty()) {
    scan(0, static_cast<uint32_t>(s.events.size()));
    return count;
  }
  if (tracks.empty()) {
    for (uint32_t t = 0; t < s.tracks.size(); ++t) scan_track(t);
    return count;
  }
  for (uint32_t t : tracks)
    if (t < s.tracks.size()) scan_track(t);
  return count;
}

std::vector<SummaryRow> summarize(const TraceStore& s, const std::vector<uint32_t>& events) {
  std::unordered_map<StrId, size_t> index;
  std::vector<SummaryRow> rows;
  for (uint32_t e : events) {
    if (e >= s.events.size()) continue;
    StrId n = s.events.name[e];
    TimeNs d = s.events.dur[e];
    auto [it, fresh] = index.try_emplace(n, rows.size());
    if (fresh) rows.push_back({n, 0, 0, d, d, 0});
    SummaryRow& r = rows[it->second];
    ++r.count;
    r.total += d;
    r.self += self_time(s, e);
    r.min = std::min(r.min, d);
    r.max = std::max(r.max, d);
  }
  std::sort(rows.begin(), rows.end(), [](const SummaryRow& a, const SummaryRow& b) {
    return a.total != b.total ? a.total > b.total : a.count > b.count;
  });
  return rows;
}

}  // namespace strata
