// Multi-selection: the events under a dragged rectangle (rows × time range), and the summary
// table of any set of events (count, total / self / average / min / max duration by name), as
// the seed trace viewer and Perfetto's slice aggregation show for a ctrl-click or drag selection.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/store/trace_store.h"

namespace strata {

struct RowSpan {
  uint32_t track;               // store track index
  uint32_t depth_lo, depth_hi;  // inclusive
};

struct SummaryRow {
  StrId name = 0;
  uint64_t count = 0;
  TimeNs total = 0, min = 0, max = 0;
  TimeNs self = 0;  // total minus the time the events' children cover (hierarchy.h self_time)
};

// Appends the events of `rows` intersecting [t0, t1] (absolute ns), at most `limit`; returns
// how many there are in all.
uint64_t select_region(const TraceStore& s, TimeNs t0, TimeNs t1, const std::vector<RowSpan>& rows,
                       size_t limit, std::vector<uint32_t>* out);
// Appends the events named `name` on `tracks` (store track indices; empty: every track), in
// the store's order, at most `limit`; returns how many there are in all. The events behind
// an analysis row, or every occurrence of one op.
// `program` (an XLA program id as decimal text; empty: any) keeps, on a track whose process
// has an "XLA Modules" row, only the events that start inside a run of that program's module
// ("name(program)" on that row), so that one op of one program is selected and not the ops
// of the same name in other programs; on tracks without that row every event of the name is
// kept (nothing there tells programs apart).
uint64_t select_named(const TraceStore& s, StrId name, const std::vector<uint32_t>& tracks,
                      size_t limit, std::vector<uint32_t>* out, std::string_view program = {});
// Summary by name, largest total first.
std::vector<SummaryRow> summarize(const TraceStore& s, const std::vector<uint32_t>& events);

}  // namespace strata
