// Engine::query_json: the panel queries of the UI (search results, selection summaries),
// JSON in and out. Kept apart from engine.cc, which loads and streams.
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <regex>

#include "core/base/json_writer.h"
#include "core/formats/json/json_flat.h"
#include "core/query/event_json.h"
#include "core/query/find.h"
#include "core/query/selection.h"
#include "engine/analysis/analysis_registry.h"
#include "engine/analysis/framework_op_xplane.h"
#include "engine/analysis/op_cells.h"
#include "engine/analysis/overview.h"
#include "engine/bundle_partial.h"
#include "engine/bundle_session.h"
#include "engine/engine.h"
#include "engine/find_reply.h"
#include "engine/lazy_tiles.h"
#include "engine/query_args.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_links.h"

namespace strata {

namespace {

std::string error_json(const std::string& message) {
  std::string o;
  protocol::append_key(&o, protocol::keys::failure::kError, '{');
  json_append_string(&o, message);
  return o + "}";
}

constexpr size_t kMaxRegexLength = 1000;

}  // namespace

bool match_names(const TraceStore& s, const std::string& text, bool regex,
                 std::vector<uint8_t>* match, std::string* error) {
  match->assign(s.strings.size(), 0);
  if (regex) {
    // std::regex parses (and destroys its compiled form) recursively, a few calls per
    // character or bracket: a bounded pattern keeps that within the worker's stack.
    if (text.size() > kMaxRegexLength) {
      *error = "the regular expression is too long (at most " + std::to_string(kMaxRegexLength) +
               " characters)";
      return false;
    }
    try {
      std::regex re(text, std::regex::ECMAScript | std::regex::icase);
      for (StrId id = 0; id < s.strings.size(); ++id) {
        std::string_view v = s.strings.get(id);
        (*match)[id] = std::regex_search(v.begin(), v.end(), re) ? 1 : 0;
      }
    } catch (const std::regex_error& e) {
      *error = std::string("invalid regular expression: ") + e.what();
      return false;
    }
  } else if (!text.empty()) {
    for (StrId id = 0; id < s.strings.size(); ++id)
      (*match)[id] = contains_ignore_case(s.strings.get(id), text);
  }
  return true;
}

std::string find_reply_json(const TraceStore& s, const FindResult& r,
                            const std::vector<uint8_t>& names, bool panel, TimeNs extent_ns,
                            const EventJsonContext& ctx) {
  namespace find = protocol::keys::find;
  std::string o;
  protocol::append_key(&o, find::kCount, '{');
  o += std::to_string(r.count);
  protocol::append_key(&o, find::kMatches);
  o += '[';
  for (size_t i = 0; i < r.events.size(); ++i) {
    if (i) o += ',';
    if (panel)
      append_event_json(&o, s, r.events[i],
                        {EventField::kEvent, EventField::kName, EventField::kStart,
                         EventField::kEnd, EventField::kTrack, EventField::kDepth},
                        ctx);
    else
      append_event_json(&o, s, r.events[i],
                        {EventField::kName, EventField::kTsNs, EventField::kDurNs, EventField::kPid,
                         EventField::kTid, EventField::kEvent},
                        ctx);
  }
  o += ']';
  if (!panel) return o + "}";
  // bins: matches per slice of [binsStart, binsEnd] (ns from the trace start), see find.h.
  protocol::append_key(&o, find::kBinsStart);
  o += '0';
  protocol::append_key(&o, find::kBinsEnd);
  o += std::to_string(extent_ns);
  protocol::append_key(&o, find::kBins);
  o += '[';
  for (size_t i = 0; i < r.bins.size(); ++i) o += (i ? "," : "") + std::to_string(r.bins[i]);
  o += ']';
  protocol::append_key(&o, find::kNameIds);
  o += '[';
  size_t n = 0;
  for (StrId id = 0; id < names.size() && n < 200000; ++id) {
    if (!names[id]) continue;
    o += (n++ ? "," : "") + std::to_string(id);
  }
  return o + "]}";
}

std::string Engine::query_json(std::string_view kind, std::string_view args_text) const {
  if (kind.substr(0, 6) == "memory") return memory_query_json(kind, args_text);
  const TraceStore& s = *store_;
  QueryArgs args;
  std::string err;
  if (!args.parse(args_text, &err)) return error_json("bad query: " + err);
  if (kind == "analysis" && bundle_) return bundle_analysis_json(args);
  if (kind == "analysis") return analysis_json(*this, args);
  const TimeNs origin = s.has_time ? s.start_ns : 0;

  if (kind == "find") {
    const std::string text = args.text("text");
    const size_t limit = static_cast<size_t>(std::clamp(args.number("limit", 1000), 0.0, 100000.0));
    std::vector<uint8_t> match;
    if (!match_names(s, text, args.flag("regex"), &match, &err)) return error_json(err);
    if (bundle_) return bundle_find_json(true);  // counted as bundle_find_begin's tiles came in
    const FindResult r = find_matching(s, match, limit, kFindBins);
    return find_reply_json(s, r, match, true, s.has_time ? s.end_ns - s.start_ns : 0,
                           {origin, &store_to_display_});
  }

  if (kind == "select" && bundle_) return bundle_select_json(args);
  if (kind == "select") return select_json(s, args, nullptr);
  return error_json("unknown query " + std::string(kind));
}

std::string Engine::select_json(const TraceStore& s, const QueryArgs& args,
                                const PartialStore* p) const {
  const TimeNs origin = s.has_time ? s.start_ns : 0;
  const std::function<uint32_t(uint32_t)> ids = p ? p->ids() : nullptr;
  const EventJsonContext ctx{origin, &store_to_display_, p ? &ids : nullptr};
  std::vector<uint32_t> events;
  uint64_t count = 0;
  const size_t limit = static_cast<size_t>(std::clamp(args.number("limit", 100000), 1.0, 1e6));
  if (args.get(protocol::keys::analysis_link::kFrameworkOp) && s.xspace) {
    // framework op mode: one xplane framework op row's own events (not its type's).
    OpAnalysisInput in;
    AnalysisTable why;
    if (op_analysis_input(*this, args, &in, &why))
      events = framework_op_row_events(s, *in.db,
                                       args.text(protocol::keys::analysis_link::kFrameworkOp));
    // The row's tracks (a table of one core): only its events there.
    std::vector<uint8_t> on(s.tracks.size(), 0);
    bool some = false;
    for (double t : args.numbers("tracks"))
      if (t >= 0 && t < static_cast<double>(display_tracks_.size()))
        on[display_tracks_[static_cast<size_t>(t)]] = 1, some = true;
    if (some) std::erase_if(events, [&](uint32_t e) { return !on[s.events.track[e]]; });
    count = events.size();
    if (events.size() > limit) events.resize(limit);
  } else if (args.get("name")) {
    // name mode: every event of this exact name, on the given display tracks (or all).
    const StrId id = s.strings.find(args.text("name"));
    std::vector<uint32_t> tracks;
    for (double t : args.numbers("tracks"))
      if (t >= 0 && t < static_cast<double>(display_tracks_.size()))
        tracks.push_back(display_tracks_[static_cast<size_t>(t)]);
    // programId: only that XLA program's runs of the op (an analysis row's link).
    const std::string program = args.text(protocol::keys::analysis_link::kProgramId);
    if (id != kNone) count = select_named(s, id, tracks, limit, &events, program);
  } else if (args.get(protocol::keys::analysis_link::kPart)) {
    // part mode: the events behind an overview part cell (a step's event and a part key).
    namespace k = protocol::keys::analysis_link;
    const double step = args.number(k::kStep, -1);
    if (step >= 0 && step < static_cast<double>(s.events.size()))
      events = overview_part_events(*this, static_cast<uint32_t>(step), args.text(k::kPart));
    count = events.size();
    if (events.size() > limit) events.resize(limit);
  } else if (args.get("events")) {
    for (double e : args.numbers("events")) {
      if (p && e >= 0 && e < 4294967295.0) e = p->local(static_cast<uint32_t>(e));
      if (e >= 0 && e < static_cast<double>(s.events.size()))
        events.push_back(static_cast<uint32_t>(e));
    }
    count = events.size();
  } else {
    std::vector<double> r = args.numbers("rows");
    std::vector<RowSpan> rows;
    for (size_t i = 0; i + 2 < r.size(); i += 3) {
      auto t = static_cast<size_t>(r[i]);
      if (t >= display_tracks_.size()) continue;
      rows.push_back(
          {display_tracks_[t], static_cast<uint32_t>(r[i + 1]), static_cast<uint32_t>(r[i + 2])});
    }
    TimeNs t0 = origin + static_cast<TimeNs>(args.number("t0", 0));
    TimeNs t1 = origin + static_cast<TimeNs>(args.number("t1", 0));
    count = select_region(s, t0, t1, rows, limit, &events);
  }
  namespace sel = protocol::keys::select;
  namespace row = protocol::keys::select_summary;
  std::string o;
  protocol::append_key(&o, sel::kCount, '{');
  o += std::to_string(count);
  protocol::append_key(&o, sel::kEvents);
  o += '[';
  for (size_t i = 0; i < events.size(); ++i) {
    if (i) o += ',';
    append_event_json(&o, s, events[i],
                      {EventField::kEvent, EventField::kStart, EventField::kEnd, EventField::kName,
                       EventField::kTsNs, EventField::kDurNs, EventField::kPid, EventField::kTid,
                       EventField::kTrack, EventField::kDepth},
                      ctx);
  }
  o += ']';
  protocol::append_key(&o, sel::kSummary);
  o += '[';
  std::vector<SummaryRow> rows = summarize(s, events);
  for (size_t i = 0; i < rows.size(); ++i) {
    const SummaryRow& r = rows[i];
    if (i) o += ',';
    protocol::append_key(&o, row::kName, '{');
    json_append_string(&o, s.strings.get(r.name));
    protocol::append_key(&o, row::kCount);
    o += std::to_string(r.count);
    protocol::append_key(&o, row::kTotalNs);
    o += std::to_string(r.total);
    protocol::append_key(&o, row::kSelfNs);
    o += std::to_string(r.self);
    protocol::append_key(&o, row::kMinNs);
    o += std::to_string(r.min);
    protocol::append_key(&o, row::kMaxNs);
    o += std::to_string(r.max);
    protocol::append_key(&o, row::kAvgNs);
    json_append_number(&o,
                       r.count ? static_cast<double>(r.total) / static_cast<double>(r.count) : 0);
    o += '}';
  }
  return o + "]}";
}

}  // namespace strata
