#include "engine/compare/step_compare.h"

#include <algorithm>
#include <unordered_map>

#include "engine/analysis/analysis_cache.h"
#include "engine/engine.h"

namespace strata {

namespace {

std::vector<StepSide> first_group_steps(const Engine& e) {
  std::vector<StepSide> out;
  const TraceStore& s = *e.store();
  const std::vector<Step>& steps = shared_steps(e);
  const std::vector<StepBreakdown>& parts = shared_step_parts(e);
  for (const StepBreakdown& b : parts) {
    if (b.group != 0 || b.step >= steps.size()) continue;
    const Step& st = steps[b.step];
    StepSide side;
    side.number = step_number(s.strings.get(s.events.name[st.event]));
    side.start = st.start;
    side.dur = st.end - st.start;
    side.parts = b.parts;
    out.push_back(side);
  }
  return out;
}

}  // namespace

const char* step_align_name(StepAlign a) {
  switch (a) {
    case StepAlign::kNumber:
      return "number";
    case StepAlign::kOrder:
      return "order";
    case StepAlign::kStart:
      break;
  }
  return "start";
}

int64_t step_number(std::string_view name) {
  size_t i = name.size();
  while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
  if (i == name.size() || name.size() - i > 18) return -1;
  int64_t n = 0;
  for (size_t k = i; k < name.size(); ++k) n = n * 10 + (name[k] - '0');
  return n;
}

StepCompare compare_steps(const Engine& a, const Engine& b) {
  StepCompare c;
  c.a = first_group_steps(a);
  c.b = first_group_steps(b);
  std::unordered_map<int64_t, int> b_by_number;
  for (size_t i = 0; i < c.b.size(); ++i)
    if (c.b[i].number >= 0) b_by_number.emplace(c.b[i].number, static_cast<int>(i));
  for (size_t i = 0; i < c.a.size(); ++i) {
    auto it = c.a[i].number >= 0 ? b_by_number.find(c.a[i].number) : b_by_number.end();
    if (it != b_by_number.end()) c.pairs.push_back({static_cast<int>(i), it->second});
  }
  if (!c.pairs.empty()) {
    c.align = StepAlign::kNumber;
    c.note = std::to_string(c.pairs.size()) + " steps matched by number";
  } else if (!c.a.empty() && !c.b.empty()) {
    c.align = StepAlign::kOrder;
    for (size_t i = 0; i < std::min(c.a.size(), c.b.size()); ++i)
      c.pairs.push_back({static_cast<int>(i), static_cast<int>(i)});
    c.note =
        "no common step numbers: " + std::to_string(c.pairs.size()) + " steps matched by order";
  } else {
    c.align = StepAlign::kStart;
    c.note = "no common steps: aligned on starts";
  }
  const TraceStore& sa = *a.store();
  const TraceStore& sb = *b.store();
  if (!c.pairs.empty()) {
    c.a_align = c.a[c.pairs[0].a].start;
    c.b_align = c.b[c.pairs[0].b].start;
  } else {
    c.a_align = sa.has_time ? sa.start_ns : 0;
    c.b_align = sb.has_time ? sb.start_ns : 0;
  }
  return c;
}

}  // namespace strata
