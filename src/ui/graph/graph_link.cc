#include "ui/graph/graph_link.h"

#include <string>

#include "core/base/json_writer.h"
#include "imgui.h"
#include "protocol/reply_keys.h"
#include "ui/graph/graph_host.h"

namespace strata {

namespace reply = protocol::keys;

void graph_link_button(const std::vector<JsonLine>& lines) {
  // record (depth 0) > xla (1) > graph (2) > programId / op / available (3); hlo_module (2).
  std::string program, op, module;
  bool in_record = false, in_xla = false, in_graph = false, available = false;
  bool program_is_text = false;  // an id above 2^53 comes as a string: it stays one
  for (const JsonLine& l : lines) {
    if (l.depth == 0) in_record = l.key == reply::details::kRecord && l.kind == 'o';
    if (l.depth == 1) in_xla = in_record && l.key == reply::record::kXla && l.kind == 'o';
    if (l.depth == 2) {
      in_graph = in_xla && l.key == reply::xla::kGraph && l.kind == 'o';
      if (in_xla && l.key == reply::xla::kHloModule) module = l.value;
    }
    if (l.depth == 3 && in_graph) {
      if (l.key == reply::xla::kProgramId)
        program = l.value, program_is_text = l.kind == 's';
      else if (l.key == reply::xla::kOp)
        op = l.value;
      else if (l.key == reply::xla::kAvailable)
        available = l.value == "true";
    }
  }
  if (program.empty() || op.empty()) return;
  ImGui::BeginDisabled(!available);
  if (ImGui::SmallButton("Open in graph viewer")) {
    std::string a;
    protocol::append_key(&a, reply::graph_link::kProgramId, '{');
    if (program_is_text)
      json_append_string(&a, program);
    else
      a += program;
    protocol::append_key(&a, reply::graph_link::kOp);
    json_append_string(&a, op);
    protocol::append_key(&a, reply::graph_link::kModule);
    json_append_string(&a, module);
    a += "}";
    host_graph("openFromTrace", a.c_str());
  }
  ImGui::EndDisabled();
  if (!available && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("This trace holds no HLO for program %s: open its HLO file", program.c_str());
}

}  // namespace strata
