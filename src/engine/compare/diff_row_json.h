// The figures of one row of the compare reply, a table's (op_diff.h) or the call tree's
// (tree_compare.h): count, total and self time of A and B, Δ and Δ% (reply_keys_compare.h: the
// tree rows name them as the table rows do).
#pragma once
#include <cstdint>
#include <string>

#include "core/base/json_writer.h"
#include "protocol/reply_keys.h"

namespace strata {

namespace compare_json_detail {
namespace row = protocol::keys::compare_row;
namespace tree = protocol::keys::compare_tree_row;
static_assert(row::kACount == tree::kACount && row::kATotalNs == tree::kATotalNs &&
                  row::kASelfNs == tree::kASelfNs && row::kBCount == tree::kBCount &&
                  row::kBTotalNs == tree::kBTotalNs && row::kBSelfNs == tree::kBSelfNs &&
                  row::kDeltaNs == tree::kDeltaNs && row::kDeltaPct == tree::kDeltaPct,
              "a tree row's figures are written with a table row's keys");
}  // namespace compare_json_detail

// Appends `,"aCount":...,"deltaPct":...` of `r` (an OpDiffRow or a TreeDiffRow).
template <typename Row>
void append_diff_figures(std::string* o, const Row& r) {
  namespace k = protocol::keys::compare_row;
  protocol::append_key(o, k::kACount);
  json_append_int(o, static_cast<int64_t>(r.a.count));
  protocol::append_key(o, k::kATotalNs);
  json_append_int(o, r.a.total);
  protocol::append_key(o, k::kASelfNs);
  json_append_int(o, r.a.self);
  protocol::append_key(o, k::kBCount);
  json_append_int(o, static_cast<int64_t>(r.b.count));
  protocol::append_key(o, k::kBTotalNs);
  json_append_int(o, r.b.total);
  protocol::append_key(o, k::kBSelfNs);
  json_append_int(o, r.b.self);
  protocol::append_key(o, k::kDeltaNs);
  json_append_int(o, r.delta());
  protocol::append_key(o, k::kDeltaPct);
  json_append_number(o, r.delta_pct());
}

}  // namespace strata
