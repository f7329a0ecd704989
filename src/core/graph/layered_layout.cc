#include "core/graph/layered_layout.h"

#include <algorithm>
#include <unordered_map>

#include "core/graph/flat_layout.h"

namespace strata::graph {

namespace {

// Group parents with out-of-range ids or cycles are cut to the top level.
std::vector<int32_t> checked_parents(const std::vector<int32_t>& parent) {
  const int32_t G = static_cast<int32_t>(parent.size());
  std::vector<int32_t> p(parent);
  for (int32_t& x : p)
    if (x < -1 || x >= G) x = -1;
  std::vector<uint8_t> state(G, 0);  // 0 new, 1 on the current walk, 2 known acyclic
  std::vector<int32_t> walk;
  for (int32_t g = 0; g < G; ++g) {
    walk.clear();
    int32_t at = g;
    while (at >= 0 && state[at] == 0) {
      state[at] = 1;
      walk.push_back(at);
      at = p[at];
    }
    if (at >= 0 && state[at] == 1) p[walk.back()] = -1;  // closes a cycle: cut it
    for (int32_t w : walk) state[w] = 2;
  }
  return p;
}

}  // namespace

GraphLayout layered_layout(const LayoutInput& in, const LayoutOptions& opt) {
  const uint32_t n = static_cast<uint32_t>(std::min(in.width.size(), in.height.size()));
  const int32_t G = static_cast<int32_t>(in.group_parent.size());
  const std::vector<int32_t> parent = checked_parents(in.group_parent);
  // Item i < n is node i, item n + g is group g; a container is a group or -1 (the top).
  auto container = [&](uint32_t item) -> int32_t {
    if (item < n) {
      const int32_t g = item < in.node_group.size() ? in.node_group[item] : -1;
      return g >= 0 && g < G ? g : -1;
    }
    return parent[item - n];
  };
  std::vector<int32_t> depth(G, -1);  // top = 0, a group one more than its parent
  for (int32_t g = 0; g < G; ++g) {
    int32_t d = 0;
    for (int32_t a = g; a >= 0; a = parent[a]) ++d;
    depth[g] = d;
  }
  auto cdepth = [&](int32_t c) { return c < 0 ? 0 : depth[c]; };
  const uint32_t C = static_cast<uint32_t>(G) + 1;  // container slot: group g → g, top → G
  auto slot = [&](int32_t c) {
    return c < 0 ? static_cast<uint32_t>(G) : static_cast<uint32_t>(c);
  };

  // Children of every container, and each item's index among them.
  std::vector<std::vector<uint32_t>> children(C);
  std::vector<uint32_t> local(n + G, 0);
  for (uint32_t item = 0; item < n + static_cast<uint32_t>(G); ++item) {
    auto& list = children[slot(container(item))];
    local[item] = static_cast<uint32_t>(list.size());
    list.push_back(item);
  }

  // Each edge lifted to the container where its ends part, where it is one flat edge. With
  // ports (opt.group_ports), the parts inside the groups it leaves and enters are flat edges
  // too: from its source (or the group holding it) to a port pinned to the group's bottom
  // layer, and from a port pinned to the top layer to its target, so the edge crosses the
  // border there and runs between the members like any edge, instead of cutting across them.
  // One port per member and direction, shared by the edges through it. Per edge, a chain of
  // links in path order: the exits (innermost first), the meeting edge, the entries.
  const size_t m = std::min(in.edge_src.size(), in.edge_dst.size());
  std::vector<FlatGraph> flat(C);
  std::vector<std::unordered_map<uint64_t, uint32_t>> flat_index(C), port_index(C);
  auto flat_edge = [&](uint32_t s, uint32_t a, uint32_t b) {
    const uint64_t key = (static_cast<uint64_t>(a) << 32) | b;
    auto [it, added] = flat_index[s].try_emplace(key, static_cast<uint32_t>(flat[s].src.size()));
    if (added) {
      flat[s].src.push_back(a);
      flat[s].dst.push_back(b);
    }
    return it->second;
  };
  auto port = [&](uint32_t s, uint32_t member, uint8_t pin) {
    const uint64_t key = static_cast<uint64_t>(member) << 1 | (pin == kPinBottom);
    auto [it, added] = port_index[s].try_emplace(key, static_cast<uint32_t>(flat[s].pin.size()));
    if (added) flat[s].pin.push_back(pin);  // filled to the children's count before layout
    return static_cast<uint32_t>(children[s].size()) + it->second;
  };
  struct Link {
    uint32_t slot, edge;
    uint8_t kind;  // kExit, kMeet, kEnter
  };
  constexpr uint8_t kExit = 0, kMeet = 1, kEnter = 2;
  std::vector<uint32_t> chain_offset(m + 1, 0);
  std::vector<Link> chain, entries;
  for (size_t e = 0; e < m; ++e) {
    chain_offset[e + 1] = chain_offset[e];
    uint32_t u = in.edge_src[e], v = in.edge_dst[e];
    if (u >= n || v >= n || u == v) continue;
    entries.clear();
    while (container(u) != container(v)) {
      if (cdepth(container(u)) >= cdepth(container(v))) {
        const uint32_t g = slot(container(u));
        if (opt.group_ports)
          chain.push_back({g, flat_edge(g, local[u], port(g, local[u], kPinBottom)), kExit});
        u = n + g;
      } else {
        const uint32_t g = slot(container(v));
        if (opt.group_ports)
          entries.push_back({g, flat_edge(g, port(g, local[v], kPinTop), local[v]), kEnter});
        v = n + g;
      }
    }
    const uint32_t s = slot(container(u));
    chain.push_back({s, flat_edge(s, local[u], local[v]), kMeet});
    chain.insert(chain.end(), entries.rbegin(), entries.rend());
    chain_offset[e + 1] = static_cast<uint32_t>(chain.size());
  }

  // Deepest groups first, so a group's size is known before its parent is laid out.
  std::vector<uint32_t> slots(C);
  for (uint32_t s = 0; s < C; ++s) slots[s] = s;
  auto slot_depth = [&](uint32_t s) { return s == static_cast<uint32_t>(G) ? 0 : depth[s]; };
  std::stable_sort(slots.begin(), slots.end(),
                   [&](uint32_t a, uint32_t b) { return slot_depth(a) > slot_depth(b); });
  std::vector<FlatLayout> laid(C);
  std::vector<float> group_w(G, 0), group_h(G, 0);
  GraphLayout out;
  for (uint32_t s : slots) {
    FlatGraph& fg = flat[s];
    for (uint32_t item : children[s]) {
      fg.width.push_back(item < n ? in.width[item] : group_w[item - n]);
      fg.height.push_back(item < n ? in.height[item] : group_h[item - n]);
    }
    if (!fg.pin.empty()) {  // ports: after the children, no size
      std::vector<uint8_t> ports = std::move(fg.pin);
      fg.pin.assign(children[s].size(), 0);
      fg.pin.insert(fg.pin.end(), ports.begin(), ports.end());
      fg.width.resize(fg.pin.size(), 0);
      fg.height.resize(fg.pin.size(), 0);
    }
    laid[s] = flat_layout(fg, opt);
    out.crossings += laid[s].crossings;
    out.dummies += laid[s].dummies;
    if (s < static_cast<uint32_t>(G)) {
      group_w[s] = std::max(laid[s].width, 40.f) + 2 * opt.group_pad;
      group_h[s] = laid[s].height + 2 * opt.group_pad + opt.group_label;
    }
  }

  // Origins top-down: a group's members are placed inside its box in the parent.
  std::vector<float> origin_x(C, 0), origin_y(C, 0);
  out.group_box.assign(4 * static_cast<size_t>(G), 0);
  for (auto it = slots.rbegin(); it != slots.rend(); ++it) {
    const uint32_t s = *it;
    if (s == static_cast<uint32_t>(G)) continue;
    const uint32_t ps = slot(parent[s]);
    const uint32_t li = local[n + s];
    const float x0 = origin_x[ps] + laid[ps].x[li] - group_w[s] / 2;
    const float y0 = origin_y[ps] + laid[ps].y[li] - group_h[s] / 2;
    out.group_box[4 * s] = x0;
    out.group_box[4 * s + 1] = y0;
    out.group_box[4 * s + 2] = x0 + group_w[s];
    out.group_box[4 * s + 3] = y0 + group_h[s];
    origin_x[s] = x0 + opt.group_pad;
    origin_y[s] = y0 + opt.group_pad + opt.group_label;
  }
  out.x.resize(n);
  out.y.resize(n);
  out.layer.resize(n);
  for (uint32_t v = 0; v < n; ++v) {
    const uint32_t s = slot(container(v));
    out.x[v] = origin_x[s] + laid[s].x[local[v]];
    out.y[v] = origin_y[s] + laid[s].y[local[v]];
    out.layer[v] = laid[s].layer[local[v]];
  }
  out.width = laid[G].width;
  out.height = laid[G].height;

  out.edge_reversed.assign(m, 0);
  out.edge_point_offset.assign(m + 1, 0);
  auto push = [&](float x, float y) {
    out.edge_xy.push_back(x);
    out.edge_xy.push_back(y);
  };
  for (size_t e = 0; e < m; ++e) {
    out.edge_point_offset[e + 1] = out.edge_point_offset[e];
    const uint32_t c0 = chain_offset[e], c1 = chain_offset[e + 1];
    if (c0 == c1) continue;
    const Link* meet = nullptr;
    for (uint32_t c = c0; c < c1; ++c)
      if (chain[c].kind == kMeet) meet = &chain[c];
    const bool up = laid[meet->slot].reversed[meet->edge];
    out.edge_reversed[e] = up;
    const uint32_t u = in.edge_src[e], v = in.edge_dst[e];
    const float sign = up ? -1.f : 1.f;
    push(out.x[u], out.y[u] + sign * in.height[u] / 2);
    for (uint32_t c = c0; c < c1; ++c) {
      const Link& l = chain[c];
      // An edge turned upward (it closes a cycle) keeps to its meeting level: the ports face
      // the other way.
      if (up && l.kind != kMeet) continue;
      const FlatLayout& fl = laid[l.slot];
      const float ox = origin_x[l.slot], oy = origin_y[l.slot];
      const size_t box = 4 * static_cast<size_t>(l.slot);  // a group's, for exits and entries
      if (l.kind == kEnter) {                              // the group's top border, then its port
        const uint32_t p = flat[l.slot].src[l.edge];
        push(ox + fl.x[p], out.group_box[box + 1]);
        push(ox + fl.x[p], oy + fl.y[p]);
      }
      for (uint32_t k = fl.point_offset[l.edge]; k < fl.point_offset[l.edge + 1]; ++k)
        push(ox + fl.points[2 * k], oy + fl.points[2 * k + 1]);
      if (l.kind == kExit) {  // the port, then the group's bottom border
        const uint32_t p = flat[l.slot].dst[l.edge];
        push(ox + fl.x[p], oy + fl.y[p]);
        push(ox + fl.x[p], out.group_box[box + 3]);
      }
    }
    push(out.x[v], out.y[v] - sign * in.height[v] / 2);
    out.edge_point_offset[e + 1] = static_cast<uint32_t>(out.edge_xy.size() / 2);
  }
  return out;
}

}  // namespace strata::graph
