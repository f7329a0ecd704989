// The Graph tab's state: modules, requests to the worker, answers, selection, the script API's
// JSON and the SVG/DOT export. Drawing and input are in graph_draw.cc.
#include "ui/graph/graph_view.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "core/base/json_writer.h"
#include "core/formats/xplane/program_id.h"
#include "platform/browser/redraw.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_graph.h"
#include "ui/graph/graph_host.h"

namespace strata {

namespace reply = protocol::keys;

namespace {

uint32_t to_u32(const std::string& s) {
  return static_cast<uint32_t>(std::strtoul(s.c_str(), nullptr, 10));
}

void xml_escape(std::string* out, std::string_view s) {
  for (char c : s) {
    switch (c) {
      case '<':
        *out += "&lt;";
        break;
      case '>':
        *out += "&gt;";
        break;
      case '&':
        *out += "&amp;";
        break;
      case '"':
        *out += "&quot;";
        break;
      default:
        *out += c;
    }
  }
}

void dot_escape(std::string* out, std::string_view s) {
  for (char c : s) {
    if (c == '"' || c == '\\') *out += '\\';
    *out += c;
  }
}

}  // namespace

void graph_view_set_modules(GraphView* v, const char* json) {
  std::vector<JsonLine> lines;
  std::string error;
  if (!json_flatten(json, &lines, &error)) return;
  std::vector<GraphModuleInfo> mods;
  for (const JsonLine& l : lines) {
    if (l.depth == 0 && l.kind == 'o') {
      mods.emplace_back();
    } else if (!mods.empty() && l.depth == 1) {
      GraphModuleInfo& m = mods.back();
      if (l.key == reply::graph_module::kName)
        m.name = l.value;
      else if (l.key == reply::graph_module::kSource)
        m.source = l.value;
      else if (l.key == reply::graph_module::kProgramId)
        parse_program_id(l.value, &m.program_id);  // a number, or a string above 2^53
      else if (l.key == reply::graph_module::kFromTrace)
        m.from_trace = l.value == "true";
      else if (l.key == reply::graph_module::kInstructions)
        m.instructions = to_u32(l.value);
      else if (l.key == reply::graph_module::kEntry)
        m.entry = to_u32(l.value);
      else if (l.key == reply::graph_module::kNote)
        m.note = l.value;
    } else if (!mods.empty() && l.depth == 3) {
      GraphModuleInfo& m = mods.back();
      if (l.key == reply::graph_computation::kName)
        m.comp_name.push_back(l.value);
      else if (l.key == reply::graph_computation::kInstructions)
        m.comp_count.push_back(to_u32(l.value));
      else if (l.key == reply::graph_computation::kFusion)
        m.comp_fusion.push_back(l.value != "0");
      else if (l.key == reply::graph_computation::kStart && !m.comp_name.empty()) {
        m.comp_start.resize(m.comp_name.size(), -1);
        m.comp_start.back() = static_cast<int32_t>(to_u32(l.value));
      } else if (l.key == reply::graph_computation::kStartHops && !m.comp_name.empty()) {
        m.comp_start_hops.resize(m.comp_name.size(), 0);
        m.comp_start_hops.back() = to_u32(l.value);
      }
    }
  }
  for (auto& m : mods) {
    m.comp_count.resize(m.comp_name.size(), 0);
    m.comp_fusion.resize(m.comp_name.size(), 0);
    m.comp_start.resize(m.comp_name.size(), -1);
    m.comp_start_hops.resize(m.comp_name.size(), 0);
  }
  const std::string current = v->module >= 0 && v->module < static_cast<int>(v->modules.size())
                                  ? v->modules[v->module].name
                                  : std::string();
  v->modules = std::move(mods);
  // Keep the module shown when it is still there (modules are only ever appended or a trace's
  // dropped); else show nothing until one is opened.
  int keep = -1;
  for (size_t k = 0; k < v->modules.size(); ++k)
    if (!current.empty() && v->modules[k].name == current) keep = static_cast<int>(k);
  if (keep != v->module) {
    v->module = keep;
    v->have = false;
    if (keep >= 0) v->dirty = true;
  }
  request_redraw();
}

void graph_view_send(GraphView* v) {
  v->dirty = false;
  if (v->module < 0 || v->module >= static_cast<int>(v->modules.size())) return;
  std::string a = "{\"seq\":" + std::to_string(++v->sent_seq);
  a += ",\"module\":" + std::to_string(v->module);
  a += ",\"computation\":" + std::to_string(v->computation);
  a += ",\"expanded\":[";
  bool first = true;
  for (uint32_t e : v->expanded) {
    if (!first) a += ',';
    first = false;
    a += std::to_string(e);
  }
  a += "],\"focus\":" + std::to_string(v->use_hops ? v->focus : -1);
  a += ",\"hops\":" + std::to_string(v->hops) + "}";
  v->status = "laying out...";
  host_graph("layout", a.c_str());
}

void graph_view_receive(GraphView* v, const uint8_t* data, size_t n, uint32_t seq) {
  if (seq != v->sent_seq) return;  // an older request's answer
  v->got_seq = seq;
  std::vector<uint8_t> bytes(data, data + n);
  graph::GraphData d;
  if (!read_graph_message(bytes.data(), bytes.size(), &d)) {
    v->status = "the graph message was malformed";
    return;
  }
  const bool first = !v->have || d.module != v->data.module || d.computation != v->data.computation;
  v->bytes = std::move(bytes);  // views in d point into the vector's buffer, which moved intact
  v->data = std::move(d);
  v->have = true;
  ++v->data_version;
  char buf[160];
  std::snprintf(buf, sizeof buf, "%zu nodes, %zu edges, laid out in %.0f ms", v->data.instr.size(),
                v->data.edge_src.size(), v->data.layout_ms);
  v->status = buf;
  v->search_hits.clear();
  v->search_sent.clear();
  if (first && !v->center_pending) v->fit_pending = true;
  request_redraw();
}

int32_t graph_view_node_of(const GraphView* v, int32_t instr) {
  if (!v->have || instr < 0) return -1;
  for (size_t k = 0; k < v->data.instr.size(); ++k)
    if (v->data.instr[k] == static_cast<uint32_t>(instr)) return static_cast<int32_t>(k);
  return -1;
}

void graph_view_select_node(GraphView* v, int32_t node) {
  if (node < 0 || node >= static_cast<int32_t>(v->data.instr.size())) {
    v->selected_instr = -1;
    v->details.clear();
    return;
  }
  v->selected_instr = static_cast<int32_t>(v->data.instr[node]);
  v->details.clear();
  v->timeline_count = -1;
  v->have_costs = false;
  const std::string a = "{\"module\":" + std::to_string(v->module) +
                        ",\"instr\":" + std::to_string(v->selected_instr) + "}";
  host_graph("details", a.c_str());
  request_redraw();
}

void graph_view_details(GraphView* v, uint32_t module, uint32_t instr, const char* json) {
  if (static_cast<int>(module) != v->module || static_cast<int32_t>(instr) != v->selected_instr)
    return;
  v->details_json = json;
  v->details.clear();
  std::string error;
  json_flatten(v->details_json, &v->details, &error);
  request_redraw();
}

void graph_view_timeline_stats(GraphView* v, int64_t count, double total_ns) {
  v->timeline_count = count;
  v->timeline_total_ns = total_ns;
  request_redraw();
}

void graph_view_trace_costs(GraphView* v, const char* json) {
  graph::OpCosts c;
  if (!graph::read_op_costs_json(json, &c)) return;
  // The answer of a node selected earlier arrives late: only the selected node's is kept.
  const JsonLine* name = nullptr;
  for (const JsonLine& l : v->details)
    if (l.depth == 0 && l.key == reply::graph_node::kName) name = &l;
  if (v->selected_instr < 0 || !name || name->value != c.name) return;
  v->costs = std::move(c);
  v->costs_json = json;
  v->have_costs = true;
  request_redraw();
}

void graph_view_fit(GraphView* v) {
  if (!v->have || v->canvas_w <= 0) return;
  const float w = std::max(v->data.width, 1.f), h = std::max(v->data.height, 1.f);
  v->zoom = std::clamp(std::min((v->canvas_w - 40) / w, (v->canvas_h - 40) / h), 1e-5f, 2.f);
  v->cx = w / 2;
  v->cy = h / 2;
  request_redraw();
}

void graph_view_centre_on(GraphView* v, int32_t node) {
  if (node < 0 || node >= static_cast<int32_t>(v->data.x.size())) return;
  v->cx = v->data.x[node];
  v->cy = v->data.y[node];
  v->zoom = std::max(v->zoom, 0.8f);  // readable
  request_redraw();
}

void graph_view_open(GraphView* v, int module, int32_t computation, int32_t instr) {
  if (module < 0 || module >= static_cast<int>(v->modules.size())) return;
  v->module = module;
  const auto& m = v->modules[module];
  v->computation = computation >= 0 ? static_cast<uint32_t>(computation) : m.entry;
  v->expanded.clear();
  v->use_hops = false;
  v->overview = false;
  v->focus = instr;
  v->selected_instr = instr;
  v->details.clear();
  v->timeline_count = -1;
  v->have_costs = false;
  v->have = false;
  v->center_pending = instr >= 0;
  v->fit_pending = instr < 0;
  // Too big to read whole: its largest op, selected, and its neighbourhood, fitted.
  if (instr < 0 && v->computation < m.comp_start.size() && m.comp_start[v->computation] >= 0) {
    instr = m.comp_start[v->computation];
    v->overview = v->use_hops = true;
    v->hops = static_cast<int>(std::max<uint32_t>(m.comp_start_hops[v->computation], 1));
    v->focus = v->selected_instr = instr;
  }
  graph_view_send(v);
  if (instr >= 0) {
    const std::string a =
        "{\"module\":" + std::to_string(module) + ",\"instr\":" + std::to_string(instr) + "}";
    host_graph("details", a.c_str());
  }
}

bool graph_view_select_name(GraphView* v, const char* name) {
  for (size_t k = 0; k < v->data.name.size(); ++k)
    if (v->data.name[k] == name) {
      graph_view_select_node(v, static_cast<int32_t>(k));
      graph_view_centre_on(v, static_cast<int32_t>(k));
      return true;
    }
  return false;
}

bool graph_view_expand_name(GraphView* v, const char* name, bool expand) {
  uint32_t instr = UINT32_MAX;
  for (size_t k = 0; k < v->data.name.size() && instr == UINT32_MAX; ++k)
    if (v->data.name[k] == name) instr = v->data.instr[k];
  for (size_t g = 0; g < v->data.group_label.size() && instr == UINT32_MAX; ++g) {
    const std::string_view l = v->data.group_label[g];
    if (l.substr(0, l.find("  (")) == name) instr = v->data.group_instr[g];
  }
  if (instr == UINT32_MAX) return false;
  if (expand)
    v->expanded.insert(instr);
  else
    v->expanded.erase(instr);
  graph_view_send(v);
  return true;
}

void graph_view_set_hops(GraphView* v, int hops) {
  v->hops = std::max(hops, 0);
  v->use_hops = hops > 0 && v->selected_instr >= 0;
  v->overview = false;
  v->focus = v->selected_instr;
  v->center_pending = v->selected_instr >= 0;
  graph_view_send(v);
}

void graph_view_show_whole(GraphView* v) {
  v->use_hops = v->overview = false;
  v->center_pending = false;
  v->fit_pending = true;
  graph_view_send(v);
}

std::string graph_view_json(const GraphView* v) {
  std::string o = "{\"modules\":[";
  for (size_t k = 0; k < v->modules.size(); ++k) {
    const auto& m = v->modules[k];
    if (k) o += ',';
    o += "{\"name\":";
    json_append_string(&o, m.name);
    o += ",\"source\":";
    json_append_string(&o, m.source);
    protocol::append_key(&o, reply::graph_module::kProgramId);
    if (m.from_trace)
      append_program_id(&o, m.program_id);  // exact: a string above 2^53
    else
      o += std::to_string(m.program_id);
    o += ",\"computations\":" + std::to_string(m.comp_name.size());
    o += ",\"instructions\":" + std::to_string(m.instructions);
    o += ",\"note\":";
    json_append_string(&o, m.note);
    o += "}";
  }
  o += "],\"module\":";
  const bool on = v->have && v->module >= 0 && v->module < static_cast<int>(v->modules.size());
  if (on)
    json_append_string(&o, v->modules[v->module].name);
  else
    o += "null";
  o += ",\"computation\":";
  if (on && v->data.computation < v->modules[v->module].comp_name.size())
    json_append_string(&o, v->modules[v->module].comp_name[v->data.computation]);
  else
    o += "null";
  const graph::GraphData& d = v->data;
  const size_t n = on ? d.instr.size() : 0;
  o += ",\"nodeCount\":" + std::to_string(n) + ",\"nodes\":[";
  for (size_t k = 0; k < std::min<size_t>(n, 5000); ++k) {
    if (k) o += ',';
    o += "{\"name\":";
    json_append_string(&o, d.name[k]);
    o += ",\"opcode\":";
    json_append_string(&o, d.opcode[k]);
    o += ",\"shape\":";
    json_append_string(&o, d.shape[k]);
    o += ",\"x\":";
    json_append_number(&o, d.x[k]);
    o += ",\"y\":";
    json_append_number(&o, d.y[k]);
    o += ",\"w\":";
    json_append_number(&o, d.w[k]);
    o += ",\"h\":";
    json_append_number(&o, d.h[k]);
    o += ",\"group\":" + std::to_string(d.group[k]) + "}";
  }
  o += "],\"edges\":" + std::to_string(on ? d.edge_src.size() : 0);
  o += ",\"groups\":[";
  for (size_t g = 0; on && g < d.group_label.size(); ++g) {
    if (g) o += ',';
    o += "{\"label\":";
    json_append_string(&o, d.group_label[g]);
    o += ",\"box\":[";
    for (int c = 0; c < 4; ++c) {
      if (c) o += ',';
      json_append_number(&o, d.group_box[4 * g + c]);
    }
    o += "]}";
  }
  o += "],\"layoutMs\":";
  json_append_number(&o, on ? d.layout_ms : 0);
  o += ",\"crossings\":" + std::to_string(on ? d.crossings : 0);
  o += ",\"width\":";
  json_append_number(&o, on ? d.width : 0);
  o += ",\"height\":";
  json_append_number(&o, on ? d.height : 0);
  o += ",\"selected\":";
  const int32_t sel = graph_view_node_of(v, v->selected_instr);
  if (sel >= 0)
    json_append_string(&o, d.name[sel]);
  else
    o += "null";
  o += ",\"centre\":{\"x\":";
  json_append_number(&o, v->cx);
  o += ",\"y\":";
  json_append_number(&o, v->cy);
  o += "},\"zoom\":";
  json_append_number(&o, v->zoom);
  // Where the canvas is on the page (CSS px): world (x, y) is drawn at canvas centre +
  // (x - centre.x, y - centre.y) * zoom.
  o += ",\"canvas\":[";
  const float canvas[4] = {v->canvas_x, v->canvas_y, v->canvas_w, v->canvas_h};
  for (int c = 0; c < 4; ++c) {
    if (c) o += ',';
    json_append_number(&o, canvas[c]);
  }
  o += "]";
  o += ",\"hops\":" + std::to_string(v->use_hops ? v->hops : 0);
  // What the Graph tab says about the module (where a file cut short stopped), and whether it
  // opened on a big computation's overview: its largest op, the radius, the ops it has.
  const GraphModuleInfo* mod = v->module >= 0 && v->module < static_cast<int>(v->modules.size())
                                   ? &v->modules[v->module]
                                   : nullptr;
  o += ",\"note\":";
  if (mod && !mod->note.empty())
    json_append_string(&o, mod->note);
  else
    o += "null";
  o += ",\"overview\":";
  if (on && v->overview && v->use_hops && sel >= 0) {
    o += "{\"op\":";
    json_append_string(&o, d.name[sel]);
    o += ",\"hops\":" + std::to_string(v->hops);
    o +=
        ",\"of\":" +
        std::to_string(d.computation < mod->comp_count.size() ? mod->comp_count[d.computation] : 0);
    o += "}";
  } else {
    o += "null";
  }
  // Box text as the last frame drew it: size and advance per character (CSS px, 0: no text).
  o += ",\"label\":{\"px\":" + std::to_string(v->label_px) + ",\"advance\":";
  json_append_number(&o, v->label_advance);
  o += "},\"hover\":";
  if (on && v->hover_node >= 0 && v->hover_node < static_cast<int32_t>(n)) {
    const int32_t h = v->hover_node;
    o += "{\"name\":";
    json_append_string(&o, d.name[h]);
    o += ",\"opcode\":";
    json_append_string(&o, d.opcode[h]);
    o += ",\"shape\":";
    json_append_string(&o, d.shape[h]);
    o += ",\"source\":";
    json_append_string(&o, d.source[h]);
    o += ",\"tooltip\":";
    json_append_string(&o, v->hover_text);
    o += "}";
  } else {
    o += "null";
  }
  o += ",\"wholeButton\":";
  if (v->whole_button[2] > 0) {
    o += "[";
    for (int c = 0; c < 4; ++c) {
      if (c) o += ',';
      json_append_number(&o, v->whole_button[c]);
    }
    o += "]";
  } else {
    o += "null";
  }
  o += ",\"pending\":";
  o += v->sent_seq != v->got_seq ? "true" : "false";
  o += ",\"details\":";
  o += v->details_json.empty() || sel < 0 ? "null" : v->details_json;
  // The selected node in the trace: occurrences, time, FLOPs and bytes (op_costs_json).
  o += ",\"trace\":";
  o += v->have_costs && sel >= 0 ? v->costs_json : "null";
  o += "}";
  return o;
}

std::string graph_view_export(const GraphView* v, bool svg) {
  const graph::GraphData& d = v->data;
  std::string o;
  if (!v->have) return o;
  const size_t n = d.instr.size();
  if (svg) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                  "viewBox=\"-10 -10 %.0f %.0f\" font-family=\"monospace\" font-size=\"11\">\n",
                  d.width + 20, d.height + 20, d.width + 20, d.height + 20);
    o += buf;
    for (size_t g = 0; g < d.group_label.size(); ++g) {
      const float* b = &d.group_box[4 * g];
      std::snprintf(buf, sizeof buf,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#eef2f8\" "
                    "stroke=\"#8899aa\"/><text x=\"%.1f\" y=\"%.1f\">",
                    b[0], b[1], b[2] - b[0], b[3] - b[1], b[0] + 6, b[1] + 14);
      o += buf;
      xml_escape(&o, d.group_label[g]);
      o += "</text>\n";
    }
    for (size_t e = 0; e < d.edge_src.size(); ++e) {
      o += "<polyline fill=\"none\" stroke=\"#667\" points=\"";
      for (uint32_t k = d.edge_point_offset[e]; k < d.edge_point_offset[e + 1]; ++k) {
        std::snprintf(buf, sizeof buf, "%.1f,%.1f ", d.edge_xy[2 * k], d.edge_xy[2 * k + 1]);
        o += buf;
      }
      o += "\"/>\n";
    }
    for (size_t k = 0; k < n; ++k) {
      std::snprintf(buf, sizeof buf,
                    "<g><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"4\" "
                    "fill=\"#dde8f5\" stroke=\"#334\"/>",
                    d.x[k] - d.w[k] / 2, d.y[k] - d.h[k] / 2, d.w[k], d.h[k]);
      o += buf;
      const std::string_view lines[4] = {d.name[k], d.opcode[k], d.shape[k], d.layout[k]};
      for (int l = 0; l < 4; ++l) {
        if (lines[l].empty()) continue;
        std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\">", d.x[k] - d.w[k] / 2 + 6,
                      d.y[k] - d.h[k] / 2 + 16 + 15 * l);
        o += buf;
        xml_escape(&o, lines[l]);
        o += "</text>";
      }
      o += "</g>\n";
    }
    o += "</svg>\n";
  } else {
    o += "digraph hlo {\n  node [shape=box, fontname=\"monospace\"];\n";
    std::vector<std::vector<size_t>> members(d.group_label.size());
    for (size_t k = 0; k < n; ++k)
      if (d.group[k] >= 0) members[d.group[k]].push_back(k);
    auto node_line = [&](size_t k, const char* indent) {
      o += indent;
      o += "n" + std::to_string(k) + " [label=\"";
      dot_escape(&o, d.name[k]);
      o += "\\n";
      dot_escape(&o, d.opcode[k]);
      o += "\\n";
      dot_escape(&o, d.shape[k]);
      o += "\"];\n";
    };
    // Clusters nest as the groups do: each written inside its parent.
    std::vector<std::vector<size_t>> child_groups(d.group_label.size() + 1);
    for (size_t g = 0; g < d.group_label.size(); ++g)
      child_groups[d.group_parent[g] < 0 ? d.group_label.size() : d.group_parent[g]].push_back(g);
    auto write_group = [&](auto& self, size_t g, int depth) -> void {
      const std::string indent(2 * depth + 2, ' ');
      o += indent + "subgraph cluster_" + std::to_string(g) + " {\n" + indent + "  label=\"";
      dot_escape(&o, d.group_label[g]);
      o += "\";\n";
      for (size_t k : members[g]) node_line(k, (indent + "  ").c_str());
      for (size_t c : child_groups[g]) self(self, c, depth + 1);
      o += indent + "}\n";
    };
    for (size_t k = 0; k < n; ++k)
      if (d.group[k] < 0) node_line(k, "  ");
    for (size_t g : child_groups[d.group_label.size()]) write_group(write_group, g, 0);
    for (size_t e = 0; e < d.edge_src.size(); ++e)
      o += "  n" + std::to_string(d.edge_src[e]) + " -> n" + std::to_string(d.edge_dst[e]) + ";\n";
    o += "}\n";
  }
  return o;
}

}  // namespace strata
