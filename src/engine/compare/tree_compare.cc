#include "engine/compare/tree_compare.h"

#include "core/base/json_writer.h"
#include "engine/analysis/framework_op_stats.h"
#include "engine/compare/diff_row_json.h"
#include "protocol/reply_keys.h"

namespace strata {

namespace {

bool is_scope_category(std::string_view cat) { return cat == "user_annotation"; }

void append_names(std::string* o, std::string_view key, const std::vector<std::string>& names) {
  protocol::append_key(o, key);
  *o += '[';
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) *o += ',';
    json_append_string(o, names[i]);
  }
  *o += ']';
}

void append_row(std::string* o, const TreeDiffRow& r) {
  namespace k = protocol::keys::compare_tree_row;
  protocol::append_key(o, k::kName, '{');
  json_append_string(o, r.name);
  protocol::append_key(o, k::kPath);
  json_append_string(o, r.path);
  protocol::append_key(o, k::kDepth);
  json_append_int(o, r.depth);
  protocol::append_key(o, k::kParent);
  json_append_int(o, r.parent == kNone ? -1 : static_cast<int64_t>(r.parent));
  protocol::append_key(o, k::kStatus);
  json_append_string(o, diff_status_name(r.status));
  append_diff_figures(o, r);
  append_names(o, k::kANames, r.a_names);
  append_names(o, k::kBNames, r.b_names);
  *o += '}';
}

}  // namespace

KeyedEvents call_tree_events(const TraceStore& s) {
  if (s.xspace) return op_events(s, OpDiffKey::kOperator);
  KeyedEvents k;
  for (uint32_t e = 0; e < s.events.size(); ++e) {
    const char ph = s.events.phase[e];
    if (ph != 'X' && ph != 'B') continue;
    const std::string_view cat = s.strings.get(s.events.cat[e]);
    if (!is_framework_op_category(cat) && !is_scope_category(cat)) continue;
    k.events.push_back(e);
    k.names.push_back(s.strings.get(s.events.name[e]));
  }
  return k;
}

CallTree framework_call_tree(const TraceStore& s, const CallTreeLimits& limits) {
  const KeyedEvents k = call_tree_events(s);
  return build_call_tree(s, k.events, k.names, limits);
}

TreeDiff diff_framework_trees(const TraceStore& a, const TraceStore& b, uint32_t max_rows) {
  return diff_call_trees(framework_call_tree(a), framework_call_tree(b), max_rows);
}

void append_tree_json(std::string* o, const TreeDiff& d) {
  namespace k = protocol::keys::compare_tree;
  protocol::append_key(o, protocol::keys::compare::kTree);
  protocol::append_key(o, k::kRows, '{');
  *o += '[';
  for (size_t i = 0; i < d.rows.size(); ++i) {
    if (i) *o += ',';
    append_row(o, d.rows[i]);
  }
  *o += ']';
  protocol::append_key(o, k::kUnchanged);
  json_append_int(o, static_cast<int64_t>(d.unchanged));
  protocol::append_key(o, k::kANodes);
  json_append_int(o, static_cast<int64_t>(d.a_nodes));
  protocol::append_key(o, k::kBNodes);
  json_append_int(o, static_cast<int64_t>(d.b_nodes));
  protocol::append_key(o, k::kNote);
  json_append_string(o, d.note());
  *o += '}';
}

}  // namespace strata
