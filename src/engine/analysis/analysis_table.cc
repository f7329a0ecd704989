#include "engine/analysis/analysis_table.h"

#include <cmath>

#include "core/base/json_writer.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_links.h"

namespace strata {

const char* analysis_unit_name(AnalysisUnit u) {
  switch (u) {
    case AnalysisUnit::kText:
      return "text";
    case AnalysisUnit::kCount:
      return "count";
    case AnalysisUnit::kNs:
      return "ns";
    case AnalysisUnit::kPercent:
      return "percent";
    case AnalysisUnit::kFlops:
      return "flops";
    case AnalysisUnit::kBytes:
      return "bytes";
    case AnalysisUnit::kFlopsPerSec:
      return "flops_per_sec";
    case AnalysisUnit::kBytesPerSec:
      return "bytes_per_sec";
    case AnalysisUnit::kRatio:
      return "ratio";
  }
  return "text";
}

void append_json_strings(std::string* o, const std::vector<std::string>& list) {
  *o += '[';
  for (size_t i = 0; i < list.size(); ++i) {
    if (i) *o += ',';
    json_append_string(o, list[i]);
  }
  *o += ']';
}

void append_analysis_link(std::string* o, const AnalysisLink& l) {
  namespace k = protocol::keys::analysis_link;
  protocol::append_key(o, k::kName, '{');
  json_append_string(o, l.name);
  protocol::append_key(o, k::kTracks);
  *o += '[';
  for (size_t i = 0; i < l.tracks.size(); ++i) {
    if (i) *o += ',';
    *o += std::to_string(l.tracks[i]);
  }
  *o += ']';
  protocol::append_key(o, k::kProgramId);
  json_append_string(o, l.program_id);
  protocol::append_key(o, k::kModule);
  json_append_string(o, l.module);
  protocol::append_key(o, k::kOp);
  json_append_string(o, l.op);
  protocol::append_key(o, k::kStep);
  *o += l.step_event == kNone ? std::string("-1") : std::to_string(l.step_event);
  protocol::append_key(o, k::kPart);
  json_append_string(o, l.part);
  if (!l.framework_op.empty()) {
    protocol::append_key(o, k::kFrameworkOp);
    json_append_string(o, l.framework_op);
  }
  *o += '}';
}

namespace {

void append_row(std::string* o, const AnalysisTable& t, const AnalysisRow& r) {
  namespace k = protocol::keys::analysis_row;
  protocol::append_key(o, k::kParent, '{');
  *o += std::to_string(r.parent);
  protocol::append_key(o, k::kCells);
  *o += '[';
  for (size_t c = 0; c < r.cells.size(); ++c) {
    if (c) *o += ',';
    const AnalysisCell& cell = r.cells[c];
    if (cell.kind == AnalysisCell::Kind::kText)
      json_append_string(o, cell.text);
    else if (cell.kind == AnalysisCell::Kind::kNumber && std::isfinite(cell.number))
      json_append_number(o, cell.number);
    else
      *o += "null";
  }
  *o += ']';
  protocol::append_key(o, k::kWhy);
  *o += '{';
  bool first = true;
  for (size_t c = 0; c < r.cells.size() && c < t.columns.size(); ++c) {
    const AnalysisCell& cell = r.cells[c];
    const bool empty = cell.kind == AnalysisCell::Kind::kEmpty ||
                       (cell.kind == AnalysisCell::Kind::kNumber && !std::isfinite(cell.number));
    if (!empty || cell.why.empty()) continue;
    protocol::append_key(o, t.columns[c].key, first ? 0 : ',');
    first = false;
    json_append_string(o, cell.why);
  }
  *o += '}';
  protocol::append_key(o, k::kLink);
  append_analysis_link(o, r.link);
  protocol::append_key(o, k::kCellLinks);
  *o += '{';
  for (size_t i = 0; i < r.cell_links.size(); ++i) {
    const AnalysisCellLink& c = r.cell_links[i];
    if (c.column >= t.columns.size()) continue;
    protocol::append_key(o, t.columns[c.column].key, i ? ',' : 0);
    append_analysis_link(o, c.link);
  }
  *o += '}';
  *o += '}';
}

}  // namespace

std::string analysis_table_json(const AnalysisTable& t) {
  namespace k = protocol::keys::analysis;
  std::string o;
  protocol::append_key(&o, k::kName, '{');
  json_append_string(&o, t.name);
  protocol::append_key(&o, k::kTitle);
  json_append_string(&o, t.title);
  protocol::append_key(&o, k::kNotes);
  append_json_strings(&o, t.notes);
  protocol::append_key(&o, k::kErrors);
  append_json_strings(&o, t.errors);
  protocol::append_key(&o, k::kColumns);
  o += '[';
  for (size_t i = 0; i < t.columns.size(); ++i) {
    namespace c = protocol::keys::analysis_column;
    const AnalysisColumn& col = t.columns[i];
    if (i) o += ',';
    protocol::append_key(&o, c::kKey, '{');
    json_append_string(&o, col.key);
    protocol::append_key(&o, c::kLabel);
    json_append_string(&o, col.label);
    protocol::append_key(&o, c::kUnit);
    json_append_string(&o, analysis_unit_name(col.unit));
    protocol::append_key(&o, c::kTip);
    json_append_string(&o, col.tip);
    o += '}';
  }
  o += ']';
  protocol::append_key(&o, k::kRows);
  o += '[';
  for (size_t i = 0; i < t.rows.size(); ++i) {
    if (i) o += ',';
    append_row(&o, t, t.rows[i]);
  }
  o += ']';
  if (!t.extra_json.empty()) {
    protocol::append_key(&o, k::kExtra);
    o += t.extra_json;
  }
  return o + '}';
}

}  // namespace strata
