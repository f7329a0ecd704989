#include "engine/compare/timeline_align.h"

#include <limits>

#include "engine/compare/step_compare.h"
#include "engine/engine.h"

namespace strata {

namespace {

TimeNs trace_start(const TraceStore& s) { return s.has_time ? s.start_ns : 0; }

// The start of the earliest event named `name`, or false when the trace has none.
bool first_event(const TraceStore& s, std::string_view name, TimeNs* at) {
  const StrId id = s.strings.find(name);
  if (id == kNone) return false;
  TimeNs best = std::numeric_limits<TimeNs>::max();
  for (size_t e = 0; e < s.events.size(); ++e)
    if (s.events.name[e] == id && s.events.start[e] < best) best = s.events.start[e];
  if (best == std::numeric_limits<TimeNs>::max()) return false;
  *at = best;
  return true;
}

int find_step(const std::vector<StepSide>& steps, int64_t number) {
  for (size_t i = 0; i < steps.size(); ++i)
    if (steps[i].number == number) return static_cast<int>(i);
  return -1;
}

}  // namespace

const char* align_mode_name(AlignMode m) {
  switch (m) {
    case AlignMode::kStep:
      return "step";
    case AlignMode::kOrder:
      return "order";
    case AlignMode::kEvent:
      return "event";
    case AlignMode::kStart:
      break;
  }
  return "start";
}

bool align_mode_from_name(std::string_view name, AlignMode* m) {
  for (AlignMode x : {AlignMode::kStart, AlignMode::kStep, AlignMode::kOrder, AlignMode::kEvent})
    if (name == align_mode_name(x)) {
      *m = x;
      return true;
    }
  return false;
}

Alignment align_timelines(const Engine& a, const Engine& b, const StepCompare& steps,
                          const AlignRequest& request) {
  Alignment out;
  out.asked = request;
  const TraceStore& sa = *a.store();
  const TraceStore& sb = *b.store();
  out.a_align = trace_start(sa);
  out.b_align = trace_start(sb);
  std::string why;  // why what was asked fell back to the starts
  auto on_steps = [&](int ia, int ib, const char* how) {
    out.used = request.mode;
    out.a_align = steps.a[ia].start;
    out.b_align = steps.b[ib].start;
    out.a_step = steps.a[ia].number;
    out.b_step = steps.b[ib].number;
    out.note = "aligned on step " + std::to_string(out.a_step) +
               (out.a_step == out.b_step ? std::string() : " / " + std::to_string(out.b_step)) +
               " (" + how + ")";
  };
  switch (request.mode) {
    case AlignMode::kStart:
      out.note = "aligned on starts";
      break;
    case AlignMode::kStep:
      if (steps.a.empty() || steps.b.empty()) {
        why = "no common steps";
      } else if (request.step < 0) {
        if (steps.align == StepAlign::kNumber && !steps.pairs.empty())
          on_steps(steps.pairs[0].a, steps.pairs[0].b, "by number");
        else
          why = "no common step numbers";
      } else {
        const int ia = find_step(steps.a, request.step), ib = find_step(steps.b, request.step);
        if (ia >= 0 && ib >= 0)
          on_steps(ia, ib, "by number");
        else
          why = "step " + std::to_string(request.step) + " is not in " +
                (ia < 0 && ib < 0 ? "A or B"
                 : ia < 0         ? "A"
                                  : "B");
      }
      break;
    case AlignMode::kOrder: {
      const int64_t k = request.step < 0 ? 0 : request.step;
      if (steps.a.empty() || steps.b.empty())
        why = "no common steps";
      else if (k < static_cast<int64_t>(steps.a.size()) && k < static_cast<int64_t>(steps.b.size()))
        on_steps(static_cast<int>(k), static_cast<int>(k), "by order");
      else
        why = "no step at place " + std::to_string(k + 1) + " in both";
      break;
    }
    case AlignMode::kEvent: {
      TimeNs ta = 0, tb = 0;
      const bool in_a = first_event(sa, request.event, &ta);
      const bool in_b = first_event(sb, request.event, &tb);
      if (in_a && in_b) {
        out.used = AlignMode::kEvent;
        out.a_align = ta;
        out.b_align = tb;
        out.note = "aligned on the first \"" + request.event + "\"";
      } else {
        why = "\"" + request.event + "\" is not in " +
              (!in_a && !in_b ? "A or B"
               : !in_a        ? "A"
                              : "B");
      }
      break;
    }
  }
  if (!why.empty()) out.note = why + ": aligned on starts";
  out.offset_ns = (out.b_align - trace_start(sb)) - (out.a_align - trace_start(sa));
  return out;
}

}  // namespace strata
