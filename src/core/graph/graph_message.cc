#include "core/graph/graph_message.h"

#include <algorithm>
#include <cstring>

#include "core/base/byte_reader.h"
#include "core/base/json_writer.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_graph.h"

namespace strata::graph {

namespace {

constexpr uint32_t kMagic = 0x48505247;  // "GRPH"
constexpr uint32_t kVersion = 2;         // 2: the node's source line
// UI font metrics (13 px text): about 7 px per character, 15 px per line.
constexpr float kCharW = 7.5f, kLineH = 15.f, kPadX = 16.f, kPadY = 10.f;
constexpr size_t kMaxChars = 44;  // longer lines are cut (with an ellipsis) in the box

struct Writer {
  std::vector<uint8_t> b;
  template <typename T>
  void put(T v) {
    const size_t at = b.size();
    b.resize(at + sizeof(T));
    std::memcpy(b.data() + at, &v, sizeof(T));
  }
  template <typename T>
  void put_all(const std::vector<T>& v) {
    const size_t at = b.size();
    b.resize(at + v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(b.data() + at, v.data(), v.size() * sizeof(T));
  }
  void str(std::string_view s) {
    put<uint32_t>(static_cast<uint32_t>(s.size()));
    b.insert(b.end(), s.begin(), s.end());
  }
};

}  // namespace

NodeText node_text(const hlo::HloModule& m, uint32_t instr) {
  NodeText t;
  t.name = m.str(m.name[instr]);
  t.opcode = m.str(m.opcode[instr]);
  t.shape = m.str(m.shape[instr]);
  // The shape text ends with its layout; the fourth line repeats only the layout and names the
  // memory space, since S(n) alone means little (S(1) = VMEM on TPU).
  t.layout = std::string(m.str(m.layout[instr]));
  const std::string space = hlo::memory_space_label(m.memory_space[instr]);
  if (!space.empty()) t.layout += (t.layout.empty() ? "" : "  ") + space;
  return t;
}

std::string node_source(const hlo::HloModule& m, uint32_t instr) {
  std::string s(m.str(m.source_file[instr]));
  if (s.empty()) return s;
  if (m.source_line[instr] > 0) s += ":" + std::to_string(m.source_line[instr]);
  const std::string_view fn = m.str(m.source_function[instr]);
  if (!fn.empty()) {
    s += " (";
    s += fn;
    s += ")";
  }
  return s;
}

LayoutInput hlo_layout_input(const hlo::HloModule& m, const hlo::VisibleGraph& vis) {
  LayoutInput in;
  const uint32_t n = vis.node_count();
  in.width.resize(n);
  in.height.resize(n);
  for (uint32_t k = 0; k < n; ++k) {
    const NodeText t = node_text(m, vis.node_instr[k]);
    const size_t chars = std::min(
        kMaxChars,
        std::max({t.name.size(), t.opcode.size(), t.shape.size(), t.layout.size(), size_t{8}}));
    const int lines = t.layout.empty() ? 3 : 4;
    in.width[k] = kPadX + kCharW * static_cast<float>(chars);
    in.height[k] = kPadY + kLineH * static_cast<float>(lines);
  }
  in.edge_src = vis.edge_src;
  in.edge_dst = vis.edge_dst;
  in.node_group = vis.node_group;
  in.group_parent = vis.group_parent;
  return in;
}

std::vector<uint8_t> write_graph_message(const hlo::HloModule& m, uint32_t module_index,
                                         uint32_t computation, const hlo::VisibleGraph& vis,
                                         const LayoutInput& in, const GraphLayout& out,
                                         double layout_ms) {
  Writer w;
  const uint32_t n = vis.node_count(), e = static_cast<uint32_t>(vis.edge_src.size());
  const uint32_t g = static_cast<uint32_t>(vis.group_instr.size());
  const uint32_t points = static_cast<uint32_t>(out.edge_xy.size() / 2);
  w.put(kMagic);
  w.put(kVersion);
  w.put(module_index);
  w.put(computation);
  w.put(n);
  w.put(e);
  w.put(g);
  w.put(points);
  w.put(out.width);
  w.put(out.height);
  w.put(layout_ms);
  w.put<int64_t>(out.crossings);
  w.put<uint32_t>(vis.focus_node == kNone ? UINT32_MAX : vis.focus_node);
  w.put_all(out.x);
  w.put_all(out.y);
  w.put_all(in.width);
  w.put_all(in.height);
  w.put_all(vis.node_instr);
  std::vector<int32_t> group(vis.node_group);
  group.resize(n, -1);
  w.put_all(group);
  w.put_all(vis.edge_src);
  w.put_all(vis.edge_dst);
  w.put_all(out.edge_reversed);
  w.put_all(out.edge_point_offset);
  w.put_all(out.edge_xy);
  w.put_all(out.group_box);
  w.put_all(vis.group_instr);
  w.put_all(vis.group_parent);
  for (uint32_t k = 0; k < n; ++k) {
    const NodeText t = node_text(m, vis.node_instr[k]);
    w.str(t.name);
    w.str(t.opcode);
    w.str(t.shape);
    w.str(t.layout);
    w.str(node_source(m, vis.node_instr[k]));
  }
  for (uint32_t k = 0; k < g; ++k) {
    const uint32_t i = vis.group_instr[k];
    std::string label(m.str(m.name[i]));
    label += "  (";
    label += m.str(m.opcode[i]);
    if (m.fusion_kind[i]) {
      label += ", ";
      label += m.str(m.fusion_kind[i]);
    }
    label += ")";
    w.str(label);
  }
  return std::move(w.b);
}

bool read_graph_message(const uint8_t* data, size_t size, GraphData* out) {
  ByteReader r{data, size};
  GraphData d;
  if (r.get<uint32_t>() != kMagic || r.get<uint32_t>() != kVersion) return false;
  d.module = r.get<uint32_t>();
  d.computation = r.get<uint32_t>();
  const uint32_t n = r.get<uint32_t>(), e = r.get<uint32_t>(), g = r.get<uint32_t>();
  const uint32_t points = r.get<uint32_t>();
  d.width = r.get<float>();
  d.height = r.get<float>();
  d.layout_ms = r.get<double>();
  d.crossings = r.get<int64_t>();
  d.focus_node = r.get<uint32_t>();
  r.get_all(d.x, n);
  r.get_all(d.y, n);
  r.get_all(d.w, n);
  r.get_all(d.h, n);
  r.get_all(d.instr, n);
  r.get_all(d.group, n);
  r.get_all(d.edge_src, e);
  r.get_all(d.edge_dst, e);
  r.get_all(d.edge_reversed, e);
  r.get_all(d.edge_point_offset, static_cast<size_t>(e) + 1);
  r.get_all(d.edge_xy, 2 * static_cast<size_t>(points));
  r.get_all(d.group_box, 4 * static_cast<size_t>(g));
  r.get_all(d.group_instr, g);
  r.get_all(d.group_parent, g);
  if (!r.ok) return false;
  d.name.resize(n);
  d.opcode.resize(n);
  d.shape.resize(n);
  d.layout.resize(n);
  d.source.resize(n);
  for (uint32_t k = 0; k < n && r.ok; ++k) {
    d.name[k] = r.str();
    d.opcode[k] = r.str();
    d.shape[k] = r.str();
    d.layout[k] = r.str();
    d.source[k] = r.str();
  }
  d.group_label.resize(g);
  for (uint32_t k = 0; k < g && r.ok; ++k) d.group_label[k] = r.str();
  if (!r.ok || r.at != size) return false;
  for (uint32_t k = 0; k < e; ++k)
    if (d.edge_src[k] >= n || d.edge_dst[k] >= n) return false;
  for (uint32_t k = 0; k < e; ++k)
    if (d.edge_point_offset[k] > d.edge_point_offset[k + 1]) return false;
  if (d.edge_point_offset[e] != points || (d.focus_node != UINT32_MAX && d.focus_node >= n))
    return false;
  for (int32_t x : d.group)
    if (x < -1 || x >= static_cast<int32_t>(g)) return false;
  for (int32_t x : d.group_parent)
    if (x < -1 || x >= static_cast<int32_t>(g)) return false;
  *out = std::move(d);
  return true;
}

std::string instruction_details_json(const hlo::HloModule& m, uint32_t i) {
  namespace node = protocol::keys::graph_node;
  namespace operand = protocol::keys::graph_operand;
  std::string o;
  protocol::append_key(&o, node::kName, '{');
  auto field = [&](std::string_view key, std::string_view v) {
    protocol::append_key(&o, key);
    json_append_string(&o, v);
  };
  json_append_string(&o, m.str(m.name[i]));
  field(node::kOpcode, m.str(m.opcode[i]));
  field(node::kShape, m.str(m.shape[i]));
  field(node::kLayout, m.str(m.layout[i]));
  field(node::kMemorySpace, hlo::memory_space_label(m.memory_space[i]));
  field(node::kFusionKind, m.fusion_kind[i] ? m.str(m.fusion_kind[i]) : "");
  field(node::kComputation, m.str(m.comp_name[m.computation[i]]));
  protocol::append_key(&o, node::kOperands);
  o += '[';
  bool first = true;
  for (uint32_t op : m.operands_of(i)) {
    if (!first) o += ',';
    first = false;
    protocol::append_key(&o, operand::kName, '{');
    json_append_string(&o, m.str(m.name[op]));
    protocol::append_key(&o, operand::kShape);
    json_append_string(&o, m.str(m.shape[op]));
    o += '}';
  }
  o += ']';
  protocol::append_key(&o, node::kUsers);
  o += '[';
  first = true;
  for (uint32_t u : m.users_of(i)) {
    if (!first) o += ',';
    first = false;
    json_append_string(&o, m.str(m.name[u]));
  }
  o += ']';
  protocol::append_key(&o, node::kCalled);
  o += '[';
  first = true;
  for (uint32_t c : m.called_of(i)) {
    if (!first) o += ',';
    first = false;
    json_append_string(&o, m.str(m.comp_name[c]));
  }
  o += ']';
  field(node::kOpName, m.str(m.op_name[i]));
  field(node::kOpType, m.str(m.op_type[i]));
  std::string source(m.str(m.source_file[i]));
  if (!source.empty() && m.source_line[i] > 0) source += ":" + std::to_string(m.source_line[i]);
  field(node::kSource, source);
  // XLA's stack frame index: the function of the innermost frame, and the calls that led to it
  // (innermost first), each "function (file:line)".
  field(node::kSourceFunction, m.str(m.source_function[i]));
  const std::vector<uint32_t> chain = m.stack_of(i);
  if (!chain.empty()) {
    protocol::append_key(&o, node::kStack);
    o += '[';
    for (size_t k = 0; k < chain.size(); ++k) {
      if (k) o += ',';
      json_append_string(
          &o, std::string(m.frame_function(chain[k])) + " (" + m.frame_source(chain[k]) + ")");
    }
    o += ']';
  }
  field(node::kCustomCallTarget, m.custom_call_target[i] ? m.str(m.custom_call_target[i]) : "");
  field(node::kAttrs, m.attrs[i] ? m.str(m.attrs[i]) : "");
  o += '}';
  return o;
}

}  // namespace strata::graph
