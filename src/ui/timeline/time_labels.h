// Times at deep zoom: where absolute labels would carry a dozen digits of which only the last
// change ("1.234567891 s"), the ruler (and the details pane) write offsets from a base instead,
// "+12.345 us", and show the base once. Pure text and maths (tests/core checks them).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/base/types.h"
#include "core/view/time_view.h"

namespace strata {

// Absolute labels stop being readable past this many steps from the origin (about six
// significant digits): beyond it the ruler counts from a base.
constexpr double kMaxStepsForAbsoluteLabels = 1e5;

// "+12.345 us", "-3 ns", "+0 ns": `offset_ns` from a base, with the decimals that
// `resolution_ns` (the smallest difference worth showing: a tick step, a pixel) needs.
std::string format_time_offset(double offset_ns, double resolution_ns);
// A base written in full at that resolution: "1.234567891 s" (ns relative to the trace start).
std::string format_time_base(double rel_ns, double resolution_ns);
// Whether times up to |t_abs_max| ns at `step_ns` resolution read better as offsets.
bool wants_time_base(double t_abs_max, double step_ns);
// The base the ruler counts from in view `v` with ticks every `step` ns: the start of the last
// mark (`m`) that begins inside the view, else the last tick at or before the view's start.
// *from_mark tells which.
double ruler_base(const TimeView& v, const std::vector<std::pair<double, double>>& marks,
                  double step, bool* from_mark);

// An absolute time written as decimal ns ("1695835542513910123", "1695835542513910123.5") as
// relative ns from `origin`, exactly; false when it is not such a number.
bool parse_absolute_ns(const char* text, TimeNs origin, double* rel);
// The origin (absolute ns of relative 0) as decimal text.
std::string origin_ns_text(TimeNs origin);
// Absolute ns (`origin` + `rel`) as decimal text that parse_absolute_ns reads back to the same
// `rel` bit for bit: "1695835542513910123", "1695835542513910123.25". Never through a double
// of epoch ns, which would round to 256 ns.
std::string absolute_ns_text(TimeNs origin, double rel);

// A duration at full precision, every ns the trace has (down to 0.001 ns): "12.345 us",
// "1.5 s", "999 ns", "0.25 ns". The unit its size reads best in, trailing zeros dropped.
std::string format_duration_exact(double ns);
// The same as a signed offset from a base: "+12.345 us", "-3 ns", "+0 ns".
std::string format_offset_exact(double offset_ns);

// Where the details pane's times count from: the ruler's base when it has one (deep zoom),
// else the trace start, the origin its plain labels count from.
struct TimeBase {
  bool has_base = false;
  bool from_mark = false;
  double base = 0;        // relative ns
  std::string base_text;  // as the ruler writes it ("1.234567891 s")
};
// How the pane names the base: "@ 1.234567 s", "mark @ 1.234567891 s" (as the ruler does), or
// "trace start".
std::string time_base_label(const TimeBase& b);
// An event's times as the details pane shows them: the base once, start and end as offsets
// from it, the duration exact, and the absolute start and end (decimal ns) to copy.
struct EventTimeText {
  std::string base;                // "@ 1.234567 s", "mark @ 1.234567891 s", "trace start"
  std::string start;               // "+12.345 us"
  std::string end;                 // "+12.357 us"
  std::string duration;            // "12.345 us"
  std::string start_abs, end_abs;  // "1695835542513910123"
};
EventTimeText event_time_text(const TimeBase& b, TimeNs origin, TimeNs start_abs, int64_t dur_ns);

}  // namespace strata
