// The linked selection's answer (REPLY_KEYS.compareMatch, CompareSession::match_json) read into
// what the Compare tab keeps: which side was clicked, how many of its events found a
// counterpart of each kind, the first event's match, and the counterparts as the other side's
// selection (event, start, end: relative ns of that side). No ImGui: native tests read the
// engine's answer through it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace strata {

struct CompareMatch {
  bool asked = false;   // a match was answered since the last B / A
  bool from_b = false;  // B's events were matched (the counterparts are A's)
  double occurrences = 0, nearest = 0, none = 0;
  // The first matched event: its kind ("occurrence", "nearest", "none") and ordinal.
  int64_t first_event = -1, first_counterpart = -1, first_ordinal = 0;
  std::string first_kind;
  // The counterparts, as the other side's selection.
  std::vector<uint32_t> events;
  std::vector<double> starts, ends;
  std::vector<std::string> names;
  std::vector<uint32_t> tracks, depths;  // their rows (display track, depth), to scroll to
};

// False, with *error saying why, on an answer that is not JSON.
bool compare_match_parse(const char* json, CompareMatch* m, std::string* error);
// What the tab says of it: "B: the same occurrence (#3 from the alignment)", "no counterpart
// in B", "3 of 5 matched in B (1 nearest, 2 none)".
std::string compare_match_text(const CompareMatch& m);

}  // namespace strata
