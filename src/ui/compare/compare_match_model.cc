#include "ui/compare/compare_match_model.h"

#include <cstdio>
#include <cstdlib>

#include "core/formats/json/json_flat.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_compare_match.h"
#include "ui/compare/compare_tree_model.h"

namespace strata {

namespace {

namespace rk = protocol::keys;

}  // namespace

bool compare_match_parse(const char* json, CompareMatch* m, std::string* error) {
  *m = CompareMatch();
  std::vector<JsonLine> lines;
  if (!json_flatten(json ? json : "", &lines, error)) return false;
  m->asked = true;
  json_walk(lines, [&](const std::vector<std::string>& path, const JsonLine& l) {
    const std::string& top = path[0];
    namespace k = rk::compare_match;
    if (path.size() == 1) {
      if (top == k::kFrom) m->from_b = l.value == "b";
      if (top == k::kOccurrences) m->occurrences = json_number(l);
      if (top == k::kNearest) m->nearest = json_number(l);
      if (top == k::kNone) m->none = json_number(l);
    } else if (top == k::kMatches && path.size() == 3 && path[1] == "[0]") {
      namespace r = rk::compare_match_row;
      const std::string& f = path[2];
      if (f == r::kEvent) m->first_event = static_cast<int64_t>(json_number(l));
      if (f == r::kCounterpart) m->first_counterpart = static_cast<int64_t>(json_number(l));
      if (f == r::kOrdinal) m->first_ordinal = static_cast<int64_t>(json_number(l));
      if (f == r::kKind) m->first_kind = l.value;
    } else if (top == rk::select::kEvents && path.size() == 3) {
      const long i = compare_json_index(path[1]);
      if (i < 0) return;
      const auto n = static_cast<size_t>(i) + 1;
      if (m->events.size() < n) {
        m->events.resize(n, 0);
        m->starts.resize(n, 0);
        m->ends.resize(n, 0);
        m->names.resize(n);
        m->tracks.resize(n, 0);
        m->depths.resize(n, 0);
      }
      const auto at = static_cast<size_t>(i);
      const std::string& f = path[2];
      if (f == rk::event::kEvent) m->events[at] = static_cast<uint32_t>(json_number(l));
      if (f == rk::event::kStart) m->starts[at] = json_number(l);
      if (f == rk::event::kEnd) m->ends[at] = json_number(l);
      if (f == rk::event::kName) m->names[at] = l.value;
      if (f == rk::event::kTrack) m->tracks[at] = static_cast<uint32_t>(json_number(l));
      if (f == rk::event::kDepth) m->depths[at] = static_cast<uint32_t>(json_number(l));
    }
  });
  return true;
}

std::string compare_match_text(const CompareMatch& m) {
  if (!m.asked) return "";
  const std::string other = m.from_b ? "A" : "B";
  const double n = m.occurrences + m.nearest + m.none;
  if (n == 0) return "";
  auto place = [&] {
    const int64_t k = m.first_ordinal;
    return k >= 0 ? "#" + std::to_string(k + 1) + " from the alignment point"
                  : "#" + std::to_string(-k) + " before the alignment point";
  };
  if (n == 1) {
    namespace kind = rk::compare_match_kind;
    if (m.first_kind == kind::kOccurrence)
      return "in " + other + ": the same occurrence (" + place() + ")";
    if (m.first_kind == kind::kNearest)
      return "in " + other + ": the nearest in aligned time (the counts of the name differ)";
    return "no counterpart in " + other;
  }
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "%.0f of %.0f matched in %s (%.0f nearest, %.0f without a counterpart)",
                m.occurrences + m.nearest, n, other.c_str(), m.nearest, m.none);
  return buf;
}

}  // namespace strata
