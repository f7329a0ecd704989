#include "core/graph/hlo_graph.h"

#include <algorithm>
#include <tuple>

namespace strata::hlo {
namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool contains_nocase(std::string_view hay, std::string_view needle_lower) {
  if (needle_lower.size() > hay.size()) return false;
  for (size_t i = 0; i + needle_lower.size() <= hay.size(); ++i) {
    size_t k = 0;
    while (k < needle_lower.size() && lower(hay[i + k]) == needle_lower[k]) ++k;
    if (k == needle_lower.size()) return true;
  }
  return false;
}

// Builds the nodes and groups of one request; edges and the focus filter come after.
class Builder {
 public:
  Builder(const HloModule& m, VisibleGraph* g)
      : m_(m),
        g_(g),
        node_(m.instruction_count(), kNone),
        group_(m.instruction_count(), -1),
        expanded_(m.instruction_count(), 0),
        shown_(m.computation_count(), 0) {}

  void build(const VisibleGraphRequest& req) {
    const uint32_t n = m_.instruction_count();
    for (uint32_t e : req.expanded)
      if (e < n) expanded_[e] = 1;
    uint32_t comp = req.computation == kNone ? m_.entry : req.computation;
    if (comp == kNone || comp >= m_.computation_count()) return;
    add_computation(comp, -1, 0);
    add_edges();
    if (req.focus < n) {
      g_->focus_node = visible_node_of(req.focus);
      if (g_->focus_node != kNone) keep_within(g_->focus_node, req.hops);
    }
  }

 private:
  void add_computation(uint32_t c, int32_t group, int depth) {
    shown_[c] = 1;
    const uint32_t first = m_.comp_first[c], end = first + m_.comp_count[c];
    for (uint32_t i = first; i < end; ++i) {
      bool open = expanded_[i] && depth < 64 && !m_.called_of(i).empty();
      // A computation shown once already (two expanded callers of one computation, or a
      // recursive call) is not shown again: its caller stays a node.
      for (uint32_t cc : m_.called_of(i)) open = open && !shown_[cc];
      if (open) {
        const int32_t gid = static_cast<int32_t>(g_->group_instr.size());
        g_->group_instr.push_back(i);
        g_->group_parent.push_back(group);
        group_[i] = gid;
        for (uint32_t cc : m_.called_of(i)) add_computation(cc, gid, depth + 1);
      } else {
        node_[i] = static_cast<uint32_t>(g_->node_instr.size());
        g_->node_instr.push_back(i);
        g_->node_group.push_back(group);
      }
    }
  }

  bool is_group(uint32_t i) const { return group_[i] >= 0; }

  // Nodes an edge out of instruction `i` leaves from: the node itself, or for an expanded
  // instruction the roots of the called computations whose result is its result (a fusion's
  // computation, a while's body, every branch of a conditional; else the first).
  void out_nodes(uint32_t i, std::vector<uint32_t>* out, int depth = 0) const {
    if (!is_group(i)) {
      if (node_[i] != kNone) out->push_back(node_[i]);
      return;
    }
    if (depth > 64) return;
    auto called = m_.called_of(i);
    bool any = false;
    for (uint32_t cc : called) {
      uint32_t r = m_.comp_root[cc];
      if (r != kNone && m_.shape[r] == m_.shape[i]) {
        out_nodes(r, out, depth + 1);
        any = true;
      }
    }
    if (!any && !called.empty() && m_.comp_root[called[0]] != kNone)
      out_nodes(m_.comp_root[called[0]], out, depth + 1);
  }

  // Nodes an edge into operand `pos` of instruction `i` arrives at: the node, or for an
  // expanded instruction the parameter(s) receiving that operand (a conditional's operand k + 1
  // is parameter 0 of branch k; its predicate goes nowhere inside).
  void in_nodes(uint32_t i, uint32_t pos, std::vector<uint32_t>* out) const {
    if (!is_group(i)) {
      if (node_[i] != kNone) out->push_back(node_[i]);
      return;
    }
    auto called = m_.called_of(i);
    const bool conditional = m_.str(m_.opcode[i]) == "conditional";
    for (size_t k = 0; k < called.size(); ++k) {
      int32_t want = static_cast<int32_t>(pos);
      if (conditional) {
        if (pos != k + 1) continue;
        want = 0;
      }
      const uint32_t cc = called[k];
      const uint32_t first = m_.comp_first[cc], end = first + m_.comp_count[cc];
      for (uint32_t p = first; p < end; ++p)
        if (m_.parameter_number[p] == want && node_[p] != kNone) out->push_back(node_[p]);
    }
  }

  void add_edges() {
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> edges;
    std::vector<uint32_t> src, dst;
    auto connect = [&](uint32_t user) {
      auto ops = m_.operands_of(user);
      for (uint32_t pos = 0; pos < ops.size(); ++pos) {
        src.clear();
        dst.clear();
        out_nodes(ops[pos], &src);
        in_nodes(user, pos, &dst);
        for (uint32_t s : src)
          for (uint32_t d : dst) edges.emplace_back(s, d, pos);
      }
    };
    for (uint32_t i : g_->node_instr) connect(i);
    for (uint32_t i : g_->group_instr) connect(i);
    std::sort(edges.begin(), edges.end());
    for (size_t k = 0; k < edges.size(); ++k) {
      auto [s, d, pos] = edges[k];
      if (k && std::get<0>(edges[k - 1]) == s && std::get<1>(edges[k - 1]) == d) continue;
      g_->edge_src.push_back(s);
      g_->edge_dst.push_back(d);
      g_->edge_operand.push_back(pos);
    }
  }

  // The node showing `instr`, or the visible node of the instruction calling its computation
  // (a collapsed fusion holding it), walking up the callers.
  uint32_t visible_node_of(uint32_t instr) const {
    for (int depth = 0; depth < 64 && instr != kNone; ++depth) {
      if (node_[instr] != kNone) return node_[instr];
      const uint32_t c = m_.computation[instr];
      uint32_t next = kNone;
      for (uint32_t caller : m_.callers_of(c))
        if (node_[caller] != kNone || next == kNone) next = caller;
      instr = next;
    }
    return kNone;
  }

  void keep_within(uint32_t focus, uint32_t hops) {
    const uint32_t nn = g_->node_count();
    std::vector<std::vector<uint32_t>> adj(nn);
    for (size_t e = 0; e < g_->edge_src.size(); ++e) {
      adj[g_->edge_src[e]].push_back(g_->edge_dst[e]);
      adj[g_->edge_dst[e]].push_back(g_->edge_src[e]);
    }
    std::vector<uint32_t> dist(nn, kNone), frontier{focus}, next;
    dist[focus] = 0;
    for (uint32_t h = 0; h < hops && !frontier.empty(); ++h) {
      next.clear();
      for (uint32_t v : frontier)
        for (uint32_t w : adj[v])
          if (dist[w] == kNone) {
            dist[w] = h + 1;
            next.push_back(w);
          }
      frontier.swap(next);
    }
    // Compact nodes, then groups that still hold something (their parents too).
    std::vector<uint32_t> remap(nn, kNone);
    VisibleGraph out;
    std::vector<uint8_t> group_used(g_->group_instr.size(), 0);
    for (uint32_t v = 0; v < nn; ++v) {
      if (dist[v] == kNone) continue;
      remap[v] = static_cast<uint32_t>(out.node_instr.size());
      out.node_instr.push_back(g_->node_instr[v]);
      out.node_group.push_back(g_->node_group[v]);
      for (int32_t gid = g_->node_group[v]; gid >= 0 && !group_used[gid];
           gid = g_->group_parent[gid])
        group_used[gid] = 1;
    }
    std::vector<int32_t> gmap(g_->group_instr.size(), -1);
    for (size_t gid = 0; gid < g_->group_instr.size(); ++gid) {
      if (!group_used[gid]) continue;
      gmap[gid] = static_cast<int32_t>(out.group_instr.size());
      out.group_instr.push_back(g_->group_instr[gid]);
      // Parents come before children (groups are made depth-first), so they are mapped.
      const int32_t parent = g_->group_parent[gid];
      out.group_parent.push_back(parent < 0 ? -1 : gmap[parent]);
    }
    for (int32_t& gid : out.node_group) gid = gid < 0 ? -1 : gmap[gid];
    for (size_t e = 0; e < g_->edge_src.size(); ++e) {
      const uint32_t s = remap[g_->edge_src[e]], d = remap[g_->edge_dst[e]];
      if (s == kNone || d == kNone) continue;
      out.edge_src.push_back(s);
      out.edge_dst.push_back(d);
      out.edge_operand.push_back(g_->edge_operand[e]);
    }
    out.focus_node = remap[focus];
    *g_ = std::move(out);
  }

  const HloModule& m_;
  VisibleGraph* g_;
  std::vector<uint32_t> node_;  // instruction → node (kNone: not a node)
  std::vector<int32_t> group_;  // instruction → the group it opens (-1: none)
  std::vector<uint8_t> expanded_, shown_;
};

}  // namespace

std::vector<uint32_t> find_instructions(const HloModule& m, std::string_view text, size_t limit) {
  std::vector<uint32_t> out;
  if (text.empty()) return out;
  std::string needle(text);
  for (char& c : needle) c = lower(c);
  for (uint32_t i = 0; i < m.instruction_count() && out.size() < limit; ++i)
    if (contains_nocase(m.str(m.name[i]), needle) || contains_nocase(m.str(m.opcode[i]), needle))
      out.push_back(i);
  return out;
}

std::vector<uint32_t> neighbourhood(const HloModule& m, uint32_t instr, uint32_t hops) {
  std::vector<uint32_t> out;
  if (instr >= m.instruction_count()) return out;
  // Instructions of one computation are contiguous: mark within its range only.
  const uint32_t c = m.computation[instr], first = m.comp_first[c];
  std::vector<uint8_t> seen(m.comp_count[c], 0);
  std::vector<uint32_t> frontier{instr}, next;
  seen[instr - first] = 1;
  out.push_back(instr);
  for (uint32_t h = 0; h < hops && !frontier.empty(); ++h) {
    next.clear();
    for (uint32_t v : frontier) {
      for (auto list : {m.operands_of(v), m.users_of(v)})
        for (uint32_t w : list)
          if (w >= first && w - first < seen.size() && !seen[w - first]) {
            seen[w - first] = 1;
            next.push_back(w);
            out.push_back(w);
          }
    }
    frontier.swap(next);
  }
  std::sort(out.begin(), out.end());
  return out;
}

uint32_t VisibleGraph::node_of(uint32_t instr) const {
  for (uint32_t k = 0; k < node_instr.size(); ++k)
    if (node_instr[k] == instr) return k;
  return kNone;
}

VisibleGraph build_visible_graph(const HloModule& m, const VisibleGraphRequest& request) {
  VisibleGraph g;
  Builder b(m, &g);
  b.build(request);
  return g;
}

}  // namespace strata::hlo
