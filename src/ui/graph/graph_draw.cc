// The Graph tab's frame: toolbar (module, computation, search, graph width, Fit, export), the
// canvas (pan, zoom, selection, expand/collapse; only what is in view is drawn, text only when
// legible) and the details pane.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/base/json_writer.h"
#include "core/graph/node_label.h"
#include "imgui.h"
#include "platform/browser/redraw.h"
#include "protocol/reply_keys.h"
#include "ui/graph/graph_fonts.h"
#include "ui/graph/graph_host.h"
#include "ui/graph/graph_view.h"
#include "ui/theme.h"

namespace strata {

namespace {

namespace node = protocol::keys::graph_node;

// host_graph("download")'s JSON line: the file's name.
std::string download_request(std::string_view file_name) {
  std::string a;
  protocol::append_key(&a, protocol::keys::graph_download::kName, '{');
  json_append_string(&a, file_name);
  return a + '}';
}

constexpr float kDetailsW = 340;
// The least zoom an overview opens at: its box text at 10 px (core/graph/node_label.h), as centring
// on an op.
constexpr float kReadableZoom = 0.8f;

bool expandable(std::string_view op) {
  return op == "fusion" || op == "call" || op == "while" || op == "conditional" ||
         op == "async-start";
}

void toolbar(GraphView* v, float w) {
  const bool any = !v->modules.empty();
  ImGui::SetNextItemWidth(220);
  const char* mod_label = v->module >= 0 && v->module < static_cast<int>(v->modules.size())
                              ? v->modules[v->module].name.c_str()
                              : (any ? "(choose a module)" : "(no HLO module)");
  if (ImGui::BeginCombo("##module", mod_label)) {
    for (size_t k = 0; k < v->modules.size(); ++k) {
      const auto& m = v->modules[k];
      char label[320];
      std::snprintf(label, sizeof label, "%s  (%u instr.)##m%zu", m.name.c_str(), m.instructions,
                    k);
      if (ImGui::Selectable(label, static_cast<int>(k) == v->module))
        graph_view_open(v, static_cast<int>(k), -1, -1);
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(220);
  const GraphModuleInfo* m = v->module >= 0 && v->module < static_cast<int>(v->modules.size())
                                 ? &v->modules[v->module]
                                 : nullptr;
  const char* comp_label =
      m && v->computation < m->comp_name.size() ? m->comp_name[v->computation].c_str() : "";
  if (ImGui::BeginCombo("##computation", comp_label)) {
    for (size_t c = 0; m && c < m->comp_name.size(); ++c) {
      if (m->comp_fusion[c]) continue;  // fused computations open inside their fusion
      char label[320];
      std::snprintf(label, sizeof label, "%s  (%u)##c%zu", m->comp_name[c].c_str(),
                    m->comp_count[c], c);
      if (ImGui::Selectable(label, c == v->computation))
        graph_view_open(v, v->module, static_cast<int32_t>(c), -1);
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(180);
  const bool enter =
      ImGui::InputTextWithHint("##gsearch", "search name / opcode", v->search, sizeof v->search,
                               ImGuiInputTextFlags_EnterReturnsTrue);
  if (v->search_sent != v->search) {
    v->search_sent = v->search;
    v->search_hits.clear();
    v->search_at = -1;
    const std::string needle = v->search;
    if (!needle.empty() && v->have) {
      auto has = [&](std::string_view hay) {
        return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(),
                           [](char a, char b) {
                             return std::tolower(static_cast<unsigned char>(a)) ==
                                    std::tolower(static_cast<unsigned char>(b));
                           }) != hay.end();
      };
      for (size_t k = 0; k < v->data.name.size(); ++k)
        if (has(v->data.name[k]) || has(v->data.opcode[k]))
          v->search_hits.push_back(static_cast<int32_t>(k));
    }
  }
  if (enter && !v->search_hits.empty()) {
    v->search_at = (v->search_at + 1) % static_cast<int>(v->search_hits.size());
    graph_view_select_node(v, v->search_hits[v->search_at]);
    graph_view_centre_on(v, v->search_hits[v->search_at]);
  }
  ImGui::SameLine();
  if (v->search[0]) ImGui::TextDisabled("%zu", v->search_hits.size());
  ImGui::SameLine();
  int hops = v->hops;
  ImGui::SetNextItemWidth(90);
  if (ImGui::SliderInt("##hops", &hops, 1, 12, "width %d")) v->hops = hops;
  // A new width around the selection: laid out again, and centred on the selection then.
  if (ImGui::IsItemDeactivatedAfterEdit() && v->use_hops) graph_view_set_hops(v, v->hops);
  ImGui::SameLine();
  bool use = v->use_hops;
  if (ImGui::Checkbox("around selection", &use)) {
    if (use && v->selected_instr >= 0)
      graph_view_set_hops(v, v->hops);
    else if (!use) {
      v->use_hops = v->overview = false;
      v->center_pending = v->selected_instr >= 0;
      graph_view_send(v);
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Fit")) graph_view_fit(v);
  ImGui::SameLine();
  if (ImGui::Button("SVG") && v->have) {
    const std::string a = download_request("graph.svg");
    host_graph("download", (a + "\n" + graph_view_export(v, true)).c_str());
  }
  ImGui::SameLine();
  if (ImGui::Button("DOT") && v->have) {
    const std::string a = download_request("graph.dot");
    host_graph("download", (a + "\n" + graph_view_export(v, false)).c_str());
  }
  ImGui::SameLine();
  ImGui::TextDisabled("%s", v->status.c_str());
  // A file cut short says where it stopped; a big computation says it opened on an overview.
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w - 16);
  if (m && !m->note.empty())
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kErrorText), "Partly read: %s",
                       m->note.c_str());
  // Around a selection (or on a big computation's overview): the whole graph is one click.
  v->whole_button[2] = 0;
  if (v->use_hops && m) {
    if (ImGui::SmallButton("Whole graph")) graph_view_show_whole(v);
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    v->whole_button[0] = a.x, v->whole_button[1] = a.y;
    v->whole_button[2] = b.x - a.x, v->whole_button[3] = b.y - a.y;
    ImGui::SameLine();
    const int32_t sel = graph_view_node_of(v, v->selected_instr);
    const uint32_t all =
        v->data.computation < m->comp_count.size() ? m->comp_count[v->data.computation] : 0;
    if (v->overview && v->have && sel >= 0) {
      const std::string_view name = v->data.name[sel];
      ImGui::TextDisabled(
          "of %u ops, too many to read at once: the %d-hop neighbourhood of %.*s, the largest "
          "op. Pick any op and a width to see around it.",
          all, v->hops, static_cast<int>(name.size()), name.data());
    } else {
      ImGui::TextDisabled("of %u ops: the %d-hop neighbourhood of the selection.", all, v->hops);
    }
  }
  ImGui::PopTextWrapPos();
}

// The tooltip of a box: its name, opcode and shape, and the source line that produced it.
std::string hover_text(const graph::GraphData& d, int32_t k) {
  std::string t(d.name[k]);
  t += "\n";
  t += d.opcode[k];
  t += "  ";
  t += d.shape[k];
  t += "\n";
  t += d.source[k].empty() ? std::string("source: not in the HLO's metadata")
                           : "source: " + std::string(d.source[k]);
  return t;
}

void canvas(GraphView* v, NavKeys* keys, float x, float y, float w, float h) {
  v->canvas_x = x;
  v->canvas_y = y;
  v->canvas_w = w;
  v->canvas_h = h;
  // Fit and centre wait for the answer to the latest request: the layout on screen until then
  // is the one before it, where the selection sits elsewhere.
  const bool answered = v->have && v->got_seq == v->sent_seq;
  if (v->fit_pending && answered) {
    graph_view_fit(v);
    v->fit_pending = false;
    // An overview fitted too small to read is shown readable, around its op, instead.
    const int32_t node = graph_view_node_of(v, v->selected_instr);
    if (v->overview && node >= 0 && v->zoom < kReadableZoom) {
      v->zoom = kReadableZoom;
      graph_view_centre_on(v, node);
    }
  }
  if (v->center_pending && answered) {
    v->center_pending = false;
    const int32_t node = graph_view_node_of(v, v->selected_instr);
    if (node >= 0)
      graph_view_centre_on(v, node);
    else
      graph_view_fit(v);
  }
  ImGui::SetCursorScreenPos(ImVec2(x, y));
  ImGui::InvisibleButton("##graphcanvas", ImVec2(std::max(w, 1.f), std::max(h, 1.f)),
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  const bool hovered = ImGui::IsItemHovered();
  ImGuiIO& io = ImGui::GetIO();
  auto to_world = [&](ImVec2 p) {
    return ImVec2(v->cx + (p.x - x - w / 2) / v->zoom, v->cy + (p.y - y - h / 2) / v->zoom);
  };
  auto zoom_about = [&](ImVec2 p, float factor) {
    const ImVec2 before = to_world(p);
    v->zoom = std::clamp(v->zoom * factor, 1e-5f, 4.f);
    const ImVec2 after = to_world(p);
    v->cx += before.x - after.x;
    v->cy += before.y - after.y;
    request_redraw();
  };
  if (ImGui::IsItemActive() && (ImGui::IsMouseDragging(0, 2) || ImGui::IsMouseDragging(1, 2))) {
    v->cx -= io.MouseDelta.x / v->zoom;
    v->cy -= io.MouseDelta.y / v->zoom;
    request_redraw();
  }
  if (hovered && io.MouseWheel != 0) zoom_about(io.MousePos, std::pow(1.15f, io.MouseWheel));
  if (!io.WantTextInput && keys) {
    const float step = std::pow(1.04f, 1.f);
    if (keys->zoom_in || keys->zoom_in_presses) zoom_about(ImVec2(x + w / 2, y + h / 2), step);
    if (keys->zoom_out || keys->zoom_out_presses)
      zoom_about(ImVec2(x + w / 2, y + h / 2), 1 / step);
    keys->zoom_in_presses = keys->zoom_out_presses = 0;
    if (keys->zoom_in || keys->zoom_out) request_redraw();
  }

  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(ImVec2(x, y), ImVec2(x + w, y + h), true);
  if (!v->have) {
    dl->AddRectFilled(ImVec2(x, y), ImVec2(x + w, y + h), theme::kGraphCanvas);
    const char* msg =
        v->modules.empty()
            ? "Open an HLO file (.hlo text, .hlo_proto.pb), or an xplane with HLO protos."
            : (v->module < 0 ? "Choose a module above." : "Laying out...");
    dl->AddText(ImVec2(x + 20, y + 20), theme::kTextDim, msg);
    dl->PopClipRect();
    v->label_px = 0;
    v->hover_node = -1;
    return;
  }
  const graph::GraphData& d = v->data;
  const float vx0 = v->cx - w / 2 / v->zoom, vx1 = v->cx + w / 2 / v->zoom;
  const float vy0 = v->cy - h / 2 / v->zoom, vy1 = v->cy + h / 2 / v->zoom;
  auto sx = [&](float wx) { return x + w / 2 + (wx - v->cx) * v->zoom; };
  auto sy = [&](float wy) { return y + h / 2 + (wy - v->cy) * v->zoom; };

  // Boxes and edges: the GPU scene (graph_scene.h), built once per layout; this frame only
  // sets the view and picks the index ranges it meets. Curves are cut into more straight
  // pieces as they grow on screen; arrowheads only once they are big enough to see.
  if (v->scene.built_for != v->data_version || v->scene.built_light != g_palette.light) {
    graph_scene_build(d, &v->scene, &v->gpu);
    v->scene.built_for = v->data_version;
    v->scene.built_light = g_palette.light;
  }
  WorldLayer& gpu = v->gpu;
  gpu.visible = true;
  gpu.clip[0] = x, gpu.clip[1] = y, gpu.clip[2] = w, gpu.clip[3] = h;
  gpu.background = theme::kGraphCanvas;
  gpu.scale = v->zoom;
  gpu.tx = x + w / 2 - v->cx * v->zoom;
  gpu.ty = y + h / 2 - v->cy * v->zoom;
  gpu.curve_steps = v->zoom < 0.1f ? 1 : v->zoom < 0.3f ? 4 : v->zoom < 1.f ? 8 : 12;
  gpu.line_width = 1;
  gpu.arrow_half = 5.f * std::min(1.f, v->zoom);
  gpu.curve_rgba = theme::kGraphEdge;
  const float margin = 4 / v->zoom;  // line widths and antialiasing reach past the boxes
  graph_scene_view(v->scene, vx0 - margin, vy0 - margin, vx1 + margin, vy1 + margin,
                   v->zoom >= 0.2f, &gpu);

  // Text scales with the boxes (the layout sized them for 13 px text), up to 1.5x, in whole
  // pixel sizes each drawn from its own font (ui/graph/graph_fonts.h) so no glyph is lost;
  // below 6 px it is not drawn at all (level of detail: boxes only).
  float font_size = 0;
  ImFont* font = graph_font(graph::label_px(v->zoom), &font_size);
  const bool text = font != nullptr;
  const float char_w = text ? font->GetCharAdvance('m') * font_size / font->FontSize : 0;
  v->label_px = text ? graph::label_px(v->zoom) : 0;
  v->label_advance = char_w;
  const int32_t sel = graph_view_node_of(v, v->selected_instr);

  // Group titles (expanded fusions / called computations; the boxes are on the GPU): the
  // title closes the group.
  int32_t clicked_group = -1;
  for (size_t g = 0; g < d.group_label.size(); ++g) {
    const float* b = &d.group_box[4 * g];
    if (b[2] < vx0 || b[0] > vx1 || b[3] < vy0 || b[1] > vy1) continue;
    if (text) {
      const std::string t = "[-] " + std::string(d.group_label[g]);
      dl->AddText(font, font_size, ImVec2(sx(b[0]) + 6 * v->zoom, sy(b[1]) + 3 * v->zoom),
                  theme::kGraphGroupTitle,
                  graph::fit_label(t, (b[2] - b[0]) * v->zoom - 10, char_w).c_str());
    }
    const ImVec2 mp = io.MousePos;
    if (ImGui::IsItemDeactivated() && io.MouseDragMaxDistanceSqr[0] < 16.f && mp.x >= sx(b[0]) &&
        mp.x <= sx(b[2]) && mp.y >= sy(b[1]) && mp.y <= sy(b[1]) + 20 * std::min(1.f, v->zoom))
      clicked_group = static_cast<int32_t>(g);
  }

  // The selected node's edges, over the others: inputs blue, outputs orange.
  if (sel >= 0) {
    for (size_t e = 0; e < d.edge_src.size(); ++e) {
      const bool in = d.edge_dst[e] == static_cast<uint32_t>(sel);
      const bool out = d.edge_src[e] == static_cast<uint32_t>(sel);
      if (!in && !out) continue;
      const ImU32 col = out ? theme::kGraphEdgeOut : theme::kGraphEdgeIn;
      const uint32_t b = d.edge_point_offset[e], end = d.edge_point_offset[e + 1];
      for (uint32_t k = b; k + 1 < end; ++k) {
        const ImVec2 p0(sx(d.edge_xy[2 * k]), sy(d.edge_xy[2 * k + 1]));
        const ImVec2 p1(sx(d.edge_xy[2 * k + 2]), sy(d.edge_xy[2 * k + 3]));
        const float dy = (p1.y - p0.y) * 0.5f;
        if (v->zoom < 0.1f)
          dl->AddLine(p0, p1, col, 2.5f);
        else
          dl->AddBezierCubic(p0, ImVec2(p0.x, p0.y + dy), ImVec2(p1.x, p1.y - dy), p1, col, 2.5f);
      }
      if (end - b >= 2 && v->zoom >= 0.2f) {
        const ImVec2 tip(sx(d.edge_xy[2 * (end - 1)]), sy(d.edge_xy[2 * (end - 1) + 1]));
        const float s = 5.f * std::min(1.f, v->zoom);
        const float dir = d.edge_reversed[e] ? 1.f : -1.f;  // a reversed edge enters from below
        dl->AddTriangleFilled(tip, ImVec2(tip.x - s, tip.y + dir * 2 * s),
                              ImVec2(tip.x + s, tip.y + dir * 2 * s), col);
      }
    }
  }

  // Nodes: the one under the mouse (a point query), the selection's outline, and the text of
  // those in view when it is legible.
  int32_t hit = -1;
  const ImVec2 mw = to_world(io.MousePos);
  std::vector<graph::IndexRange>& ranges = v->scratch_ranges;
  graph::tile_query(v->scene.nodes, mw.x, mw.y, mw.x, mw.y, &ranges);
  for (const graph::IndexRange& r : ranges)
    for (uint32_t i = r.first; i < r.second; ++i) {
      const uint32_t k = v->scene.nodes.order[i];
      if (std::abs(mw.x - d.x[k]) <= d.w[k] / 2 && std::abs(mw.y - d.y[k]) <= d.h[k] / 2)
        hit = static_cast<int32_t>(k);
    }
  if (sel >= 0) {
    const ImVec2 a(sx(d.x[sel] - d.w[sel] / 2), sy(d.y[sel] - d.h[sel] / 2));
    const ImVec2 b(sx(d.x[sel] + d.w[sel] / 2), sy(d.y[sel] + d.h[sel] / 2));
    dl->AddRect(a, b, theme::kGraphSelected, 3 * std::min(1.f, v->zoom), 0, 3.f);
  }
  if (text) {
    for (const graph::IndexRange& r : gpu.over.draw)
      for (uint32_t i = r.first; i < r.second; ++i) {
        const uint32_t k = v->scene.nodes.order[i];
        const float x0 = d.x[k] - d.w[k] / 2, x1 = d.x[k] + d.w[k] / 2;
        const float y0 = d.y[k] - d.h[k] / 2, y1 = d.y[k] + d.h[k] / 2;
        if (x1 < vx0 || x0 > vx1 || y1 < vy0 || y0 > vy1) continue;
        const ImVec2 a(sx(x0), sy(y0)), b(sx(x1), sy(y1));
        const float tw = (x1 - x0) * v->zoom - 10;
        const std::string_view lines[4] = {d.name[k], d.opcode[k], d.shape[k], d.layout[k]};
        float ty = a.y + 5 * v->zoom;
        const float lh = std::max(15.f * v->zoom, 1.f);
        for (int l = 0; l < 4 && ty + font_size <= b.y; ++l, ty += lh) {
          if (lines[l].empty()) continue;
          std::string t = l == 1 && expandable(lines[l]) ? "[+] " + std::string(lines[l])
                                                         : std::string(lines[l]);
          dl->AddText(font, font_size, ImVec2(a.x + 6 * v->zoom, ty),
                      l == 0 ? theme::kGraphNameText : theme::kGraphNodeText,
                      graph::fit_label(t, tw, char_w).c_str());
        }
      }
  }
  // Hovering a box tells its op, shape and source line, whether or not its text is drawn.
  v->hover_node = -1;
  if (hit >= 0 && hovered && !ImGui::IsMouseDragging(0) && !ImGui::IsMouseDragging(1)) {
    v->hover_node = hit;
    v->hover_text = hover_text(d, hit);
    ImGui::SetTooltip("%s", v->hover_text.c_str());
  }
  dl->PopClipRect();

  // A click (not a drag) selects; a double-click on a fusion / call opens it; a group's title
  // closes the group.
  if (ImGui::IsItemDeactivated() && io.MouseDragMaxDistanceSqr[0] < 16.f) {
    if (clicked_group >= 0 && hit < 0) {
      v->expanded.erase(d.group_instr[clicked_group]);
      v->center_pending = v->selected_instr >= 0;
      graph_view_send(v);
    } else {
      graph_view_select_node(v, hit);
    }
  }
  if (hovered && hit >= 0 && ImGui::IsMouseDoubleClicked(0) && expandable(d.opcode[hit])) {
    v->expanded.insert(d.instr[hit]);
    v->selected_instr = static_cast<int32_t>(d.instr[hit]);
    graph_view_send(v);
  }
}

// "1.23 GFLOP", "12 B/s": a count with its unit, an SI prefix when large.
std::string with_unit(double value, const char* unit) {
  std::string s = graph::si_number(value);
  if (!s.empty() && std::isdigit(static_cast<unsigned char>(s.back()))) s += ' ';
  return s + unit;
}

// The node's FLOPs and bytes from its occurrences in the trace: per occurrence, total, and the
// rate over their time; "not in the trace" when the events carry no such stats.
void trace_costs(const GraphView* v) {
  if (v->timeline_count <= 0) return;
  if (!v->have_costs) {
    ImGui::TextDisabled("FLOPs, bytes: reading the trace...");
    return;
  }
  const graph::OpCosts& c = v->costs;
  static const char* const kLabel[] = {"FLOPs", "Model FLOPs", "Bytes accessed",
                                       "Raw bytes accessed"};
  static const char* const kUnit[] = {"FLOP", "FLOP", "B", "B"};
  for (int k = 0; k < graph::kCostStats; ++k) {
    const graph::OpCostTotal& t = c.stat[k];
    if (!t.count) {
      // The two XProf always writes when it has costs; the others only when present.
      if (k == graph::kFlops || k == graph::kBytesAccessed)
        ImGui::TextDisabled("%s: not in the trace", kLabel[k]);
      continue;
    }
    std::string line =
        std::string(kLabel[k]) + ": " + with_unit(t.per_occurrence(), kUnit[k]) + " per occurrence";
    if (t.min != t.max)
      line += " (mean; " + with_unit(t.min, kUnit[k]) + " to " + with_unit(t.max, kUnit[k]) + ")";
    line += ", " + with_unit(t.total, kUnit[k]) + " total";
    if (std::isfinite(t.per_second()))
      line += ", " + with_unit(t.per_second(), k < graph::kBytesAccessed ? "FLOP/s" : "B/s");
    ImGui::TextWrapped("%s", line.c_str());
  }
  if (c.read < c.occurrences)
    ImGui::TextDisabled("(from the first %u occurrences)", static_cast<unsigned>(c.read));
}

void details_pane(GraphView* v, float x, float y, float w, float h) {
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(w, h));
  ImGui::Begin(
      "##graphdetails", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  const int32_t node = graph_view_node_of(v, v->selected_instr);
  if (v->selected_instr < 0 || v->details.empty()) {
    ImGui::TextDisabled("Click a node for its details. Drag to pan, wheel or W/S to zoom,");
    ImGui::TextDisabled("double-click a fusion to open it.");
    ImGui::End();
    return;
  }
  std::string name, opcode;
  for (const JsonLine& l : v->details)
    if (l.depth == 0 && l.key == node::kName)
      name = l.value;
    else if (l.depth == 0 && l.key == node::kOpcode)
      opcode = l.value;
  ImGui::TextUnformatted(name.c_str());
  if (node >= 0 && expandable(opcode)) {
    const bool open = v->expanded.count(v->selected_instr) > 0;
    if (ImGui::SmallButton(open ? "Collapse" : "Expand")) {
      if (open)
        v->expanded.erase(v->selected_instr);
      else
        v->expanded.insert(v->selected_instr);
      v->center_pending = true;
      graph_view_send(v);
    }
    ImGui::SameLine();
  }
  if (ImGui::SmallButton("Show in timeline")) {
    std::string a = "{\"name\":";
    json_append_string(&a, name);
    a += "}";
    host_graph("timeline", a.c_str());
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("Centre") && node >= 0) graph_view_centre_on(v, node);
  if (v->timeline_count >= 0)
    ImGui::Text("In the trace: %lld occurrences, %.3f ms",
                static_cast<long long>(v->timeline_count), v->timeline_total_ns / 1e6);
  trace_costs(v);
  ImGui::Separator();
  for (const JsonLine& l : v->details) {
    if (l.depth == 0 && l.key == node::kName) continue;
    if ((l.kind == 's' && l.value.empty()) || (l.kind == 'a' && false)) continue;
    ImGui::Indent(static_cast<float>(l.depth) * 10);
    if (l.kind == 'a' || l.kind == 'o')
      ImGui::TextDisabled("%s", l.key.c_str());
    else
      ImGui::TextWrapped("%s: %s", l.key.c_str(), l.value.c_str());
    ImGui::Unindent(static_cast<float>(l.depth) * 10);
  }
  ImGui::End();
}

}  // namespace

void graph_view_frame(GraphView* v, NavKeys* keys, float x, float y, float w, float h,
                      double now_ms) {
  (void)now_ms;
  if (v->dirty) graph_view_send(v);
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(w - kDetailsW, h));
  ImGui::Begin("##graph", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse |
                   ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoBackground);
  toolbar(v, w - kDetailsW);
  const float top = ImGui::GetCursorScreenPos().y + 2;
  // No window background: it would cover the canvas's boxes and edges, which the GPU draws
  // before ImGui. The toolbar's band gets the window colour under every window instead.
  ImGui::GetBackgroundDrawList()->AddRectFilled(ImVec2(x, y), ImVec2(x + w - kDetailsW, top),
                                                ImGui::GetColorU32(ImGuiCol_WindowBg));
  canvas(v, keys, x, top, w - kDetailsW, y + h - top);
  ImGui::End();
  details_pane(v, x + w - kDetailsW, y, kDetailsW, h);
}

}  // namespace strata
