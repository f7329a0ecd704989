#include "engine/compare/compare_session.h"

#include <iterator>
#include <limits>
#include <memory>

#include "core/base/json_writer.h"
#include "engine/compare/diff_row_json.h"
#include "protocol/analysis_keys.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_compare_match.h"

namespace strata {

namespace {

constexpr size_t kMatchesListed = 1000;  // matches listed in a compareMatch answer

constexpr OpDiffKey kKeys[] = {OpDiffKey::kOperator, OpDiffKey::kKernel, OpDiffKey::kXlaOp,
                               OpDiffKey::kCategory};

void append_row(std::string* o, const OpDiffRow& r) {
  namespace k = protocol::keys::compare_row;
  protocol::append_key(o, k::kName, '{');
  json_append_string(o, r.name);
  append_diff_figures(o, r);
  *o += '}';
}

void append_rows(std::string* o, std::string_view key, const std::vector<OpDiffRow>& rows) {
  protocol::append_key(o, key);
  *o += '[';
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i) *o += ',';
    append_row(o, rows[i]);
  }
  *o += ']';
}

void append_table(std::string* o, const OpDiff& d) {
  namespace k = protocol::keys::compare_table;
  protocol::append_key(o, k::kKey, '{');
  json_append_string(o, op_diff_key_name(d.key));
  append_rows(o, k::kChanged, d.changed);
  append_rows(o, k::kAdded, d.added);
  append_rows(o, k::kRemoved, d.removed);
  protocol::append_key(o, k::kUnchanged);
  json_append_int(o, static_cast<int64_t>(d.unchanged));
  *o += '}';
}

void append_side(std::string* o, std::string_view key, const Engine& e, std::string_view name,
                 char before = ',') {
  namespace k = protocol::keys::compare_side;
  protocol::append_key(o, key, before);
  protocol::append_key(o, k::kName, '{');
  json_append_string(o, name);
  protocol::append_key(o, k::kEvents);
  json_append_int(o, static_cast<int64_t>(e.store()->events.size()));
  *o += '}';
}

void append_parts(std::string* o, std::string_view key, const StepSide* s) {
  protocol::append_key(o, key);
  *o += '{';
  for (size_t p = 0; p < protocol::keys::step_parts::kCount; ++p) {
    if (p) *o += ',';
    json_append_string(o, protocol::keys::step_parts::kKeys[p]);
    *o += ':';
    json_append_int(o, s ? s->parts[p] : 0);
  }
  *o += '}';
}

void append_steps(std::string* o, const StepCompare& c) {
  namespace k = protocol::keys::compare_steps;
  protocol::append_key(o, protocol::keys::compare::kSteps);
  protocol::append_key(o, k::kAlign, '{');
  json_append_string(o, step_align_name(c.align));
  protocol::append_key(o, k::kNote);
  json_append_string(o, c.note);
  protocol::append_key(o, k::kAAlignNs);
  json_append_int(o, c.a_align);
  protocol::append_key(o, k::kBAlignNs);
  json_append_int(o, c.b_align);
  protocol::append_key(o, k::kRows);
  *o += '[';
  for (size_t i = 0; i < c.pairs.size(); ++i) {
    const StepSide* a = c.pairs[i].a >= 0 ? &c.a[c.pairs[i].a] : nullptr;
    const StepSide* b = c.pairs[i].b >= 0 ? &c.b[c.pairs[i].b] : nullptr;
    if (i) *o += ',';
    protocol::append_key(o, k::kAStep, '{');
    json_append_int(o, a ? a->number : -1);
    protocol::append_key(o, k::kBStep);
    json_append_int(o, b ? b->number : -1);
    protocol::append_key(o, k::kADurNs);
    json_append_int(o, a ? a->dur : 0);
    protocol::append_key(o, k::kBDurNs);
    json_append_int(o, b ? b->dur : 0);
    append_parts(o, k::kAParts, a);
    append_parts(o, k::kBParts, b);
    *o += '}';
  }
  *o += "]}";
}

void append_alignment(std::string* o, const Alignment& al) {
  namespace k = protocol::keys::compare_alignment;
  protocol::append_key(o, protocol::keys::compare::kAlignment);
  protocol::append_key(o, k::kMode, '{');
  json_append_string(o, align_mode_name(al.asked.mode));
  protocol::append_key(o, k::kStep);
  json_append_int(o, al.asked.step);
  protocol::append_key(o, k::kEvent);
  json_append_string(o, al.asked.event);
  protocol::append_key(o, k::kUsed);
  json_append_string(o, align_mode_name(al.used));
  protocol::append_key(o, k::kNote);
  json_append_string(o, al.note);
  protocol::append_key(o, k::kAAlignNs);
  json_append_int(o, al.a_align);
  protocol::append_key(o, k::kBAlignNs);
  json_append_int(o, al.b_align);
  protocol::append_key(o, k::kOffsetNs);
  json_append_int(o, al.offset_ns);
  protocol::append_key(o, k::kAStep);
  json_append_int(o, al.a_step);
  protocol::append_key(o, k::kBStep);
  json_append_int(o, al.b_step);
  *o += '}';
}

std::string trace_name(const Engine& e) {
  const TraceStore& s = *e.store();
  return s.files.empty() ? std::string() : s.files.front().name;
}

}  // namespace

CompareSession::CompareSession() { clear(); }

void CompareSession::clear() {
  b_ = std::make_unique<Engine>();
  // B is never shown while it loads: no first-part preview to swap in and out.
  b_->set_preview(std::numeric_limits<uint64_t>::max(), 0);
  has_b_ = false;
  b_name_.clear();
}

void CompareSession::load_begin(std::string_view name, uint64_t total_bytes) {
  loading_name_ = name;
  b_->load_begin(name, total_bytes);
}

bool CompareSession::load_end() {
  if (!b_->load_end()) {
    last_error_ = b_->last_error();
    return false;
  }
  if (b_->last_load_merged()) {  // a memory CSV joined the previous B: not a trace to compare
    last_error_ = loading_name_ + ": a memory CSV is not a trace to compare";
    return false;
  }
  has_b_ = true;
  b_name_ = loading_name_;
  last_error_.clear();
  return true;
}

bool CompareSession::load_sqlite(std::string_view name, ByteReader* reader) {
  loading_name_ = name;
  if (!b_->load_sqlite(name, reader)) {
    last_error_ = b_->last_error();
    return false;
  }
  has_b_ = true;
  b_name_ = loading_name_;
  last_error_.clear();
  return true;
}

void CompareSession::load_fail(std::string_view message) {
  b_->load_fail(message);
  last_error_ = b_->last_error();
}

OpDiff CompareSession::diff(const Engine& a, OpDiffKey key) const {
  if (!has_b_) {
    OpDiff d;
    d.key = key;
    return d;
  }
  return diff_ops(*a.store(), *b_->store(), key);
}

TreeDiff CompareSession::tree_diff(const Engine& a) const {
  if (!has_b_) return TreeDiff();
  return diff_framework_trees(*a.store(), *b_->store());
}

Alignment CompareSession::alignment(const Engine& a) const {
  if (!has_b_) {
    Alignment none;
    none.asked = align_;
    none.note = "no B";
    return none;
  }
  return align_timelines(a, *b_, compare_steps(a, *b_), align_);
}

bool CompareSession::b_record_range(uint32_t event, uint64_t* offset, uint32_t* length) const {
  if (!has_b_ || !b_->event_source(event, offset, length)) return false;
  uint64_t in_file = *offset;
  if (b_->file_compressed(b_->source_file(&in_file))) return false;
  *offset = in_file;
  return true;
}

std::vector<EventMatch> CompareSession::match(const Engine& a, bool from_b,
                                              const std::vector<uint32_t>& events) const {
  if (!has_b_) return {};
  const Alignment al = alignment(a);
  if (from_b) return match_events(*b_->store(), *a.store(), al.b_align, al.a_align, events);
  return match_events(*a.store(), *b_->store(), al.a_align, al.b_align, events);
}

std::string CompareSession::match_json(const Engine& a, bool from_b,
                                       const std::vector<uint32_t>& events) const {
  namespace k = protocol::keys::compare_match;
  namespace r = protocol::keys::compare_match_row;
  const std::vector<EventMatch> matches = match(a, from_b, events);
  size_t counts[3] = {0, 0, 0};  // by MatchKind
  std::vector<uint32_t> counterparts;
  std::vector<uint8_t> taken;  // one counterpart can be the nearest of several events
  const Engine& to = from_b ? a : *b_;
  if (has_b_) taken.assign(to.store()->events.size(), 0);
  std::string o;
  protocol::append_key(&o, k::kFrom, '{');
  json_append_string(&o, from_b ? "b" : "a");
  protocol::append_key(&o, k::kMatches);
  o += '[';
  for (size_t i = 0; i < matches.size(); ++i) {
    const EventMatch& m = matches[i];
    ++counts[static_cast<size_t>(m.kind)];
    if (m.counterpart >= 0 && !taken[static_cast<size_t>(m.counterpart)]) {
      taken[static_cast<size_t>(m.counterpart)] = 1;
      counterparts.push_back(static_cast<uint32_t>(m.counterpart));
    }
    if (i >= kMatchesListed) continue;
    if (i) o += ',';
    protocol::append_key(&o, r::kEvent, '{');
    json_append_int(&o, m.event);
    protocol::append_key(&o, r::kCounterpart);
    json_append_int(&o, m.counterpart);
    protocol::append_key(&o, r::kKind);
    json_append_string(&o, match_kind_name(m.kind));
    protocol::append_key(&o, r::kOrdinal);
    json_append_int(&o, m.ordinal);
    o += '}';
  }
  o += ']';
  protocol::append_key(&o, k::kOccurrences);
  json_append_int(&o, static_cast<int64_t>(counts[static_cast<size_t>(MatchKind::kOccurrence)]));
  protocol::append_key(&o, k::kNearest);
  json_append_int(&o, static_cast<int64_t>(counts[static_cast<size_t>(MatchKind::kNearest)]));
  protocol::append_key(&o, k::kNone);
  json_append_int(&o, static_cast<int64_t>(counts[static_cast<size_t>(MatchKind::kUnmatched)]));
  // The counterparts as the other side's select reply, so the UI reads them as any selection.
  std::string args = "{\"events\":[";
  for (size_t i = 0; i < counterparts.size(); ++i)
    args += (i ? "," : "") + std::to_string(counterparts[i]);
  args += "]}";
  const std::string sel = has_b_ ? to.query_json("select", args) : std::string("{}");
  if (sel.size() > 2) {
    o += ',';
    o.append(sel, 1, std::string::npos);  // its keys after the match's
  } else {
    o += '}';
  }
  return o;
}

std::string CompareSession::result_json(const Engine& a) const {
  namespace k = protocol::keys::compare;
  std::string o;
  append_side(&o, k::kA, a, trace_name(a), '{');
  if (has_b_) {
    append_side(&o, k::kB, *b_, b_name_);
  } else {
    protocol::append_key(&o, k::kB);
    o += "null";
  }
  protocol::append_key(&o, k::kTables);
  o += '{';
  for (size_t i = 0; i < std::size(kKeys); ++i) {
    if (i) o += ',';
    json_append_string(&o, op_diff_key_name(kKeys[i]));
    o += ':';
    append_table(&o, diff(a, kKeys[i]));
  }
  o += '}';
  if (has_b_) {
    const StepCompare steps = compare_steps(a, *b_);
    append_steps(&o, steps);
    append_tree_json(&o, tree_diff(a));
    append_alignment(&o, align_timelines(a, *b_, steps, align_));
  } else {
    protocol::append_key(&o, k::kSteps);
    o += "null";
    protocol::append_key(&o, k::kTree);
    o += "null";
    protocol::append_key(&o, k::kAlignment);
    o += "null";
  }
  protocol::append_key(&o, k::kErrors);
  o += '[';
  if (!last_error_.empty()) json_append_string(&o, last_error_);
  o += "]}";
  return o;
}

}  // namespace strata
