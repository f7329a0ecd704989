#include "core/diff/tree_diff.h"

#include <algorithm>
#include <deque>

namespace strata {

namespace {

TimeNs magnitude(TimeNs v) { return v < 0 ? -v : v; }

// One node of the diff before it is written as rows.
struct DiffNode {
  DiffStatus status = DiffStatus::kChanged;
  uint32_t a = kNone, b = kNone;  // tree nodes (kNone: the side has none; both for a group)
  std::vector<uint32_t> a_members, b_members;  // a replaced group's tree nodes
  CallFigures fa, fb;
  std::vector<uint32_t> children;  // diff nodes, ordered by |Δ| once built
  bool differs = true;             // it or anything under it
  uint64_t same_nodes = 0;         // matched nodes under it, it included, when !differs
};

class Differ {
 public:
  Differ(const CallTree& a, const CallTree& b) : ta_(a), tb_(b) {}
  std::deque<DiffNode> nodes;

  uint32_t matched(uint32_t a, uint32_t b) {
    const uint32_t id = fresh();
    nodes[id].a = a;
    nodes[id].b = b;
    nodes[id].fa = ta_.figures[a];
    nodes[id].fb = tb_.figures[b];
    // The children by name: the shared keyed join, A's first-seen order then B's own.
    KeyedJoin join;
    std::vector<uint32_t> of_a, of_b;
    for (uint32_t i = ta_.child_begin[a]; i < ta_.child_begin[a + 1]; ++i)
      put(&of_a, join.add(DiffSide::kA, ta_.name[ta_.child_ids[i]]), ta_.child_ids[i]);
    for (uint32_t i = tb_.child_begin[b]; i < tb_.child_begin[b + 1]; ++i)
      put(&of_b, join.add(DiffSide::kB, tb_.name[tb_.child_ids[i]]), tb_.child_ids[i]);
    of_a.resize(join.size(), kNone);
    of_b.resize(join.size(), kNone);
    std::vector<uint32_t> children, only_a, only_b;
    for (uint32_t k = 0; k < join.size(); ++k) {
      if (join.in_a(k) && join.in_b(k))
        children.push_back(matched(of_a[k], of_b[k]));
      else if (join.in_a(k))
        only_a.push_back(of_a[k]);
      else
        only_b.push_back(of_b[k]);
    }
    if (!only_a.empty() && !only_b.empty()) {
      children.push_back(replaced(only_a, only_b));
    } else {
      for (uint32_t n : only_a) children.push_back(one_sided(true, n));
      for (uint32_t n : only_b) children.push_back(one_sided(false, n));
    }
    bool differs = !(nodes[id].fa == nodes[id].fb);
    uint64_t same = 1;
    for (uint32_t c : children) {
      differs |= nodes[c].differs;
      same += nodes[c].same_nodes;
    }
    nodes[id].differs = differs;
    nodes[id].same_nodes = differs ? 0 : same;
    nodes[id].children = std::move(children);
    return id;
  }

  uint32_t one_sided(bool in_a, uint32_t n) {
    const CallTree& t = in_a ? ta_ : tb_;
    const uint32_t id = fresh();
    nodes[id].status = in_a ? DiffStatus::kRemoved : DiffStatus::kAdded;
    (in_a ? nodes[id].a : nodes[id].b) = n;
    (in_a ? nodes[id].fa : nodes[id].fb) = t.figures[n];
    std::vector<uint32_t> children;
    for (uint32_t i = t.child_begin[n]; i < t.child_begin[n + 1]; ++i)
      children.push_back(one_sided(in_a, t.child_ids[i]));
    nodes[id].children = std::move(children);
    return id;
  }

  uint32_t replaced(const std::vector<uint32_t>& only_a, const std::vector<uint32_t>& only_b) {
    const uint32_t id = fresh();
    std::vector<uint32_t> children;
    CallFigures fa, fb;
    for (uint32_t n : only_a) {
      children.push_back(one_sided(true, n));
      add(&fa, ta_.figures[n]);
    }
    for (uint32_t n : only_b) {
      children.push_back(one_sided(false, n));
      add(&fb, tb_.figures[n]);
    }
    DiffNode& d = nodes[id];
    d.status = DiffStatus::kReplaced;
    d.a_members = only_a;
    d.b_members = only_b;
    d.fa = fa;
    d.fb = fb;
    d.children = std::move(children);
    return id;
  }

  // The diff node's name (a group's "a1 + a2 -> b1", members largest total first).
  std::string name(const DiffNode& d, std::vector<std::string>* a_names,
                   std::vector<std::string>* b_names) const {
    if (d.status != DiffStatus::kReplaced)
      return std::string(d.a != kNone ? ta_.name[d.a] : tb_.name[d.b]);
    *a_names = member_names(ta_, d.a_members);
    *b_names = member_names(tb_, d.b_members);
    std::string s;
    for (size_t i = 0; i < a_names->size(); ++i) s += (i ? kTreeReplacedJoin : "") + (*a_names)[i];
    s += kTreeReplacedArrow;
    for (size_t i = 0; i < b_names->size(); ++i) s += (i ? kTreeReplacedJoin : "") + (*b_names)[i];
    return s;
  }

  // Orders every node's children by |Δ|, ties by name.
  void order() {
    for (DiffNode& d : nodes) {
      std::vector<std::pair<TimeNs, std::string>> keys;
      std::vector<uint32_t> idx(d.children.size());
      for (size_t i = 0; i < d.children.size(); ++i) {
        const DiffNode& c = nodes[d.children[i]];
        std::vector<std::string> unused_a, unused_b;
        keys.emplace_back(magnitude(c.fb.total - c.fa.total), name(c, &unused_a, &unused_b));
        idx[i] = static_cast<uint32_t>(i);
      }
      std::sort(idx.begin(), idx.end(), [&](uint32_t x, uint32_t y) {
        if (keys[x].first != keys[y].first) return keys[x].first > keys[y].first;
        return keys[x].second < keys[y].second;
      });
      std::vector<uint32_t> sorted;
      for (uint32_t i : idx) sorted.push_back(d.children[i]);
      d.children = std::move(sorted);
    }
  }

 private:
  const CallTree &ta_, &tb_;

  uint32_t fresh() {
    nodes.emplace_back();
    return static_cast<uint32_t>(nodes.size() - 1);
  }
  static void put(std::vector<uint32_t>* of, uint32_t key, uint32_t node) {
    if (key >= of->size()) of->resize(key + 1, kNone);
    (*of)[key] = node;
  }
  static void add(CallFigures* f, const CallFigures& x) {
    f->count += x.count;
    f->total += x.total;
    f->self += x.self;
  }
  static std::vector<std::string> member_names(const CallTree& t,
                                               const std::vector<uint32_t>& members) {
    std::vector<uint32_t> m = members;
    std::sort(m.begin(), m.end(), [&](uint32_t x, uint32_t y) {
      if (t.figures[x].total != t.figures[y].total) return t.figures[x].total > t.figures[y].total;
      return t.name[x] < t.name[y];
    });
    std::vector<std::string> out;
    for (uint32_t n : m) out.emplace_back(t.name[n]);
    return out;
  }
};

}  // namespace

double TreeDiffRow::delta_pct() const {
  return a.total > 0 ? 100.0 * static_cast<double>(delta()) / static_cast<double>(a.total) : 0;
}

std::string TreeDiff::note() const {
  std::string s;
  auto part = [&](uint64_t n, const char* what) {
    if (!n) return;
    if (!s.empty()) s += "; ";
    s += std::to_string(n) + what;
  };
  part(a_dropped_events,
       " events of A past the call tree's depth or node limit (in their parents' self time)");
  part(b_dropped_events,
       " events of B past the call tree's depth or node limit (in their parents' self time)");
  part(rows_cut, " rows past the row limit not listed");
  return s;
}

TreeDiff diff_call_trees(const CallTree& a, const CallTree& b, uint32_t max_rows) {
  TreeDiff out;
  out.a_nodes = a.size() > 0 ? a.size() - 1 : 0;
  out.b_nodes = b.size() > 0 ? b.size() - 1 : 0;
  out.a_dropped_events = a.dropped_events;
  out.b_dropped_events = b.dropped_events;
  if (a.size() == 0 || b.size() == 0) return out;
  Differ d(a, b);
  const uint32_t root = d.matched(0, 0);
  d.order();
  // Which nodes become rows: level by level from the top, so the row limit cuts the deepest
  // levels first; a matched node with nothing different under it is counted, not listed.
  std::vector<bool> keep(d.nodes.size(), false);
  std::vector<uint32_t> level = d.nodes[root].children, next;
  size_t kept = 0;
  while (!level.empty()) {
    next.clear();
    for (uint32_t n : level) {
      const DiffNode& x = d.nodes[n];
      if (!x.differs) {
        out.unchanged += x.same_nodes;
        continue;
      }
      if (kept >= max_rows) {
        ++out.rows_cut;
      } else {
        keep[n] = true;
        ++kept;
      }
      next.insert(next.end(), x.children.begin(), x.children.end());
    }
    level.swap(next);
  }
  // Rows in pre-order. A group's members keep the call path of the group's parent.
  struct Frame {
    uint32_t node, parent_row;
    std::string call_path;
  };
  std::vector<Frame> stack;
  for (auto it = d.nodes[root].children.rbegin(); it != d.nodes[root].children.rend(); ++it)
    stack.push_back(Frame{*it, kNone, std::string()});
  while (!stack.empty()) {
    Frame f = std::move(stack.back());
    stack.pop_back();
    if (!keep[f.node]) continue;
    const DiffNode& x = d.nodes[f.node];
    TreeDiffRow r;
    r.parent = f.parent_row;
    r.depth = f.parent_row == kNone ? 0 : out.rows[f.parent_row].depth + 1;
    r.name = d.name(x, &r.a_names, &r.b_names);
    r.status = x.status;
    if (x.status == DiffStatus::kChanged && x.fa == x.fb) r.status = DiffStatus::kUnchanged;
    r.a = x.fa;
    r.b = x.fb;
    const std::string sep = f.call_path.empty() ? "" : kTreePathSeparator;
    r.path = f.call_path + sep + r.name;
    const std::string child_path = x.status == DiffStatus::kReplaced ? f.call_path : r.path;
    const uint32_t row = static_cast<uint32_t>(out.rows.size());
    out.rows.push_back(std::move(r));
    for (auto it = x.children.rbegin(); it != x.children.rend(); ++it)
      stack.push_back(Frame{*it, row, child_path});
  }
  return out;
}

}  // namespace strata
