// The Compare tab's linked selection (engine/compare/event_match.h, CompareSession::match_json),
// compareMatch's answer: {from: "a" | "b" (the side whose events were matched), occurrences,
// nearest, none (how many got each kind of match), matches: [{event, counterpart (the other side's
// event, -1: none), kind: "occurrence" | "nearest" | "none", ordinal (from the alignment point: 0
// the first at or after it, -1 the last before)}] (the first 1000), and the other side's `select`
// reply of the counterparts (count, events, summary: REPLY_KEYS.select) in the same object}
#pragma once
#include <string_view>

namespace strata::protocol::keys {

namespace compare_match {
inline constexpr std::string_view kFrom = "from";
inline constexpr std::string_view kOccurrences = "occurrences";
inline constexpr std::string_view kNearest = "nearest";
inline constexpr std::string_view kNone = "none";
inline constexpr std::string_view kMatches = "matches";
}  // namespace compare_match

namespace compare_match_row {
inline constexpr std::string_view kEvent = "event";
inline constexpr std::string_view kCounterpart = "counterpart";
inline constexpr std::string_view kKind = "kind";
inline constexpr std::string_view kOrdinal = "ordinal";
}  // namespace compare_match_row

// A match row's kind (event_match.h MatchKind).
namespace compare_match_kind {
inline constexpr std::string_view kOccurrence = "occurrence";
inline constexpr std::string_view kNearest = "nearest";
inline constexpr std::string_view kNone = "none";
}  // namespace compare_match_kind

}  // namespace strata::protocol::keys

namespace strata::protocol {

inline constexpr std::string_view kCompareMatchKeys[] = {
    keys::compare_match::kFrom, keys::compare_match::kOccurrences, keys::compare_match::kNearest,
    keys::compare_match::kNone, keys::compare_match::kMatches};
inline constexpr std::string_view kCompareMatchRowKeys[] = {
    keys::compare_match_row::kEvent, keys::compare_match_row::kCounterpart,
    keys::compare_match_row::kKind, keys::compare_match_row::kOrdinal};

}  // namespace strata::protocol
