#include "engine/compare/event_match.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "core/store/trace_store.h"
#include "protocol/reply_keys_compare_match.h"

namespace strata {

namespace {

// One (name, track kind) of the selected events: its occurrences on each side, by start.
struct Group {
  StrId to_name = kNone;
  std::vector<std::pair<TimeNs, uint32_t>> from, to;
};

uint64_t group_key(StrId name, TrackKind kind) {
  return (static_cast<uint64_t>(name) << 8) | static_cast<uint8_t>(kind);
}

TrackKind kind_of(const TraceStore& s, uint32_t e) { return s.tracks[s.events.track[e]].kind; }

// Index of the first occurrence starting at or after `t`.
size_t first_at(const std::vector<std::pair<TimeNs, uint32_t>>& v, TimeNs t) {
  return static_cast<size_t>(std::lower_bound(v.begin(), v.end(), std::make_pair(t, uint32_t{0})) -
                             v.begin());
}

// The occurrence in `v` (not empty) whose start is nearest to `t`; the earlier on a tie.
size_t nearest(const std::vector<std::pair<TimeNs, uint32_t>>& v, TimeNs t) {
  const size_t i = first_at(v, t);
  if (i == 0) return 0;
  if (i == v.size()) return i - 1;
  return t - v[i - 1].first <= v[i].first - t ? i - 1 : i;
}

}  // namespace

const char* match_kind_name(MatchKind k) {
  switch (k) {
    case MatchKind::kOccurrence:
      return protocol::keys::compare_match_kind::kOccurrence.data();
    case MatchKind::kNearest:
      return protocol::keys::compare_match_kind::kNearest.data();
    case MatchKind::kUnmatched:
      break;
  }
  return protocol::keys::compare_match_kind::kNone.data();
}

std::vector<EventMatch> match_events(const TraceStore& from, const TraceStore& to,
                                     TimeNs from_align, TimeNs to_align,
                                     const std::vector<uint32_t>& events) {
  std::vector<EventMatch> out;
  std::unordered_map<uint64_t, uint32_t> group_of;  // group_key in `from` → groups index
  std::vector<Group> groups;
  std::vector<uint8_t> from_named(from.strings.size(), 0), to_named(to.strings.size(), 0);
  std::unordered_map<uint64_t, uint32_t> to_group_of;  // group_key in `to` → groups index
  for (uint32_t e : events) {
    if (e >= from.events.size()) continue;
    const StrId name = from.events.name[e];
    const TrackKind kind = kind_of(from, e);
    auto [it, added] =
        group_of.emplace(group_key(name, kind), static_cast<uint32_t>(groups.size()));
    if (added) {
      Group g;
      g.to_name = to.strings.find(from.strings.get(name));
      groups.push_back(std::move(g));
      from_named[name] = 1;
      if (const StrId tn = groups.back().to_name; tn != kNone) {
        to_named[tn] = 1;
        to_group_of.emplace(group_key(tn, kind), it->second);
      }
    }
    EventMatch m;
    m.event = e;
    out.push_back(m);
  }
  if (out.empty()) return out;

  // One pass over each side's events for every group.
  for (uint32_t e = 0; e < from.events.size(); ++e) {
    if (!from_named[from.events.name[e]]) continue;
    auto it = group_of.find(group_key(from.events.name[e], kind_of(from, e)));
    if (it != group_of.end()) groups[it->second].from.emplace_back(from.events.start[e], e);
  }
  for (uint32_t e = 0; e < to.events.size(); ++e) {
    if (!to_named[to.events.name[e]]) continue;
    auto it = to_group_of.find(group_key(to.events.name[e], kind_of(to, e)));
    if (it != to_group_of.end()) groups[it->second].to.emplace_back(to.events.start[e], e);
  }
  for (Group& g : groups) {
    std::sort(g.from.begin(), g.from.end());
    std::sort(g.to.begin(), g.to.end());
  }

  for (EventMatch& m : out) {
    const Group& g = groups[group_of[group_key(from.events.name[m.event], kind_of(from, m.event))]];
    const auto self = std::make_pair(from.events.start[m.event], m.event);
    const size_t p =
        static_cast<size_t>(std::lower_bound(g.from.begin(), g.from.end(), self) - g.from.begin());
    const size_t fa = first_at(g.from, from_align);
    m.ordinal = static_cast<int64_t>(p) - static_cast<int64_t>(fa);
    if (g.to.empty()) continue;  // kUnmatched
    const size_t ta = first_at(g.to, to_align);
    // The counts on the ordinal's side of the alignment point.
    const bool after = m.ordinal >= 0;
    const size_t from_count = after ? g.from.size() - fa : fa;
    const size_t to_count = after ? g.to.size() - ta : ta;
    if (from_count == to_count) {
      m.kind = MatchKind::kOccurrence;
      m.counterpart = g.to[static_cast<size_t>(static_cast<int64_t>(ta) + m.ordinal)].second;
    } else {
      m.kind = MatchKind::kNearest;
      m.counterpart = g.to[nearest(g.to, to_align + (self.first - from_align))].second;
    }
  }
  return out;
}

}  // namespace strata
