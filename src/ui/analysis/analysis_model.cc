#include "ui/analysis/analysis_model.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "core/base/text.h"
#include "core/formats/json/json_flat.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_links.h"

namespace strata {

namespace keys = protocol::keys;

namespace {

constexpr const char* kEmptyCell = "\xE2\x80\x94";  // an em dash

struct UnitName {
  CellUnit unit;
  const char* name;
};
constexpr UnitName kUnitNames[] = {
    {CellUnit::kText, "text"},
    {CellUnit::kCount, "count"},
    {CellUnit::kNs, "ns"},
    {CellUnit::kPercent, "percent"},
    {CellUnit::kFlops, "flops"},
    {CellUnit::kBytes, "bytes"},
    {CellUnit::kFlopsPerSec, "flops_per_sec"},
    {CellUnit::kBytesPerSec, "bytes_per_sec"},
    {CellUnit::kRatio, "ratio"},
};

bool error_reply(const std::vector<JsonLine>& lines, std::string* error) {
  for (const JsonLine& l : lines)
    if (l.depth == 0 && l.key == keys::failure::kError) {
      *error = l.value;
      return true;
    }
  return false;
}

std::string with_thousands(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  size_t dot = s.find('.');
  if (dot == std::string::npos) dot = s.size();
  const size_t start = s[0] == '-' ? 1 : 0;
  for (size_t i = dot; i > start + 3; i -= 3) s.insert(i - 3, ",");
  return s;
}

// v in units with these steps: "1.23 ms", 3 significant digits.
std::string scaled(double v, const double* steps, const char* const* names, size_t n,
                   int digits = 3) {
  const double a = std::fabs(v);
  size_t i = 0;
  while (i + 1 < n && a >= steps[i + 1]) ++i;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g %s", digits, v / steps[i], names[i]);
  return buf;
}

std::string time_text(double ns, int digits = 3) {
  static const double steps[] = {1, 1e3, 1e6, 1e9};
  static const char* const names[] = {"ns", "\xC2\xB5s", "ms", "s"};
  return scaled(ns, steps, names, 4, digits);
}

std::string si(double v, const char* unit, int digits = 3) {
  static const double steps[] = {1, 1e3, 1e6, 1e9, 1e12, 1e15, 1e18};
  static const char* const prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  const double a = std::fabs(v);
  size_t i = 0;
  while (i + 1 < 7 && a >= steps[i + 1]) ++i;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g %s%s", digits, v / steps[i], prefixes[i], unit);
  return buf;
}

std::string bytes_text(double b, int digits = 3) {
  static const double steps[] = {1, 1024.0, 1024.0 * 1024, 1024.0 * 1024 * 1024,
                                 1024.0 * 1024 * 1024 * 1024};
  static const char* const names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  return scaled(b, steps, names, 5, digits);
}

std::string number_text(double v, CellUnit unit, int digits) {
  char buf[48];
  switch (unit) {
    case CellUnit::kCount:
      return with_thousands(v, std::floor(v) == v ? 0 : 2);
    case CellUnit::kNs:
      return time_text(v, digits);
    case CellUnit::kPercent:
      std::snprintf(buf, sizeof buf, "%.*f%%", digits > 2 ? 1 : 0, v);
      return buf;
    case CellUnit::kFlops:
      return si(v, "FLOP", digits);
    case CellUnit::kBytes:
      return bytes_text(v, digits);
    case CellUnit::kFlopsPerSec:
      return si(v, "FLOP/s", digits);
    case CellUnit::kBytesPerSec:
      return si(v, "B/s", digits);
    case CellUnit::kRatio:
    case CellUnit::kText:
      break;
  }
  std::snprintf(buf, sizeof buf, "%.*g", digits + 1, v);
  return buf;
}

bool contains_ci(const std::string& text, const std::string& lowered_needle) {
  return lowered_needle.empty() || ascii_lower(text).find(lowered_needle) != std::string::npos;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

}  // namespace

CellUnit cell_unit_from_name(const std::string& name) {
  for (const UnitName& u : kUnitNames)
    if (name == u.name) return u.unit;
  return CellUnit::kText;
}

bool unit_is_number(CellUnit u) { return u != CellUnit::kText; }

bool read_analysis_list(const char* json, std::vector<AnalysisEntry>* out, std::string* error) {
  std::vector<JsonLine> lines;
  out->clear();
  if (!json_flatten(json ? json : "", &lines, error)) return false;
  if (error_reply(lines, error)) return false;
  namespace k = keys::analysis_list;
  bool in_list = false, seen = false;
  for (const JsonLine& l : lines) {
    if (l.depth == 0) {
      in_list = l.key == k::kAnalyses;
      seen |= in_list;
    } else if (in_list && l.depth == 1) {
      out->push_back({});
    } else if (in_list && l.depth == 2 && !out->empty()) {
      AnalysisEntry& e = out->back();
      if (l.key == k::kName) e.name = l.value;
      if (l.key == k::kTitle) e.title = l.value;
      if (l.key == k::kWhy) e.why = l.value;
      if (l.key == k::kAvailable) e.available = l.value == "true";
    }
  }
  if (!seen) *error = "the reply has no analyses list";
  return seen;
}

uint64_t read_load_whole_bytes(const char* json) {
  std::vector<JsonLine> lines;
  std::string error;
  if (!json_flatten(json ? json : "", &lines, &error)) return 0;
  for (const JsonLine& l : lines)
    if (l.depth == 0 && l.key == keys::load_whole::kLoadWholeBytes)
      return static_cast<uint64_t>(std::strtoull(l.value.c_str(), nullptr, 10));
  return 0;
}

bool read_analysis_table(const char* json, AnalysisTableModel* m) {
  *m = AnalysisTableModel{};
  std::vector<JsonLine> lines;
  if (!json_flatten(json ? json : "", &lines, &m->error)) return false;
  if (error_reply(lines, &m->error)) return false;
  namespace a = keys::analysis;
  std::vector<std::pair<int32_t, std::pair<std::string, std::string>>> why;  // row, key, text
  json_walk(lines, [&](const std::vector<std::string>& path, const JsonLine& l) {
    const std::string& top = path[0];
    if (l.depth == 0) {
      if (top == a::kName) m->name = l.value;
      if (top == a::kTitle) m->title = l.value;
      return;
    }
    if (top == a::kNotes && l.depth == 1) m->notes.push_back(l.value);
    if (top == a::kErrors && l.depth == 1) m->errors.push_back(l.value);
    if (top == a::kColumns) {
      namespace c = keys::analysis_column;
      if (l.depth == 1) m->columns.push_back({});
      if (l.depth != 2 || m->columns.empty()) return;
      TableColumn& col = m->columns.back();
      if (l.key == c::kKey) col.key = l.value;
      if (l.key == c::kLabel) col.label = l.value;
      if (l.key == c::kTip) col.tip = l.value;
      if (l.key == c::kUnit) col.unit = cell_unit_from_name(l.value);
    }
    if (top == a::kRows) {
      namespace r = keys::analysis_row;
      if (l.depth == 1) m->rows.push_back({});
      if (m->rows.empty() || l.depth < 2) return;
      TableRow& row = m->rows.back();
      const std::string& field = path[2];
      if (l.depth == 2 && field == r::kParent) row.parent = static_cast<int32_t>(json_number(l));
      if (l.depth == 3 && field == r::kCells) {
        TableCell cell;
        if (l.kind == 'n') cell = {TableCell::Kind::kNumber, json_number(l), {}};
        if (l.kind == 's') cell = {TableCell::Kind::kText, 0, l.value};
        row.cells.push_back(std::move(cell));
      }
      if (l.depth == 3 && field == r::kWhy)
        why.push_back({static_cast<int32_t>(m->rows.size() - 1), {l.key, l.value}});
      if (l.depth == 3 && field == r::kLink) {
        namespace k = keys::analysis_link;
        if (l.key == k::kName) row.link.name = l.value;
        if (l.key == k::kProgramId) row.link.program_id = l.value;
        if (l.key == k::kModule) row.link.module = l.value;
        if (l.key == k::kOp) row.link.op = l.value;
      }
      if (l.depth == 4 && field == r::kLink && path[3] == keys::analysis_link::kTracks)
        row.link.tracks.push_back(static_cast<uint32_t>(json_number(l)));
      if (l.depth == 3 && field == r::kLink) {
        namespace k = keys::analysis_link;
        if (l.key == k::kStep) row.link.step_event = static_cast<int64_t>(json_number(l));
        if (l.key == k::kPart) row.link.part = l.value;
        if (l.key == k::kFrameworkOp) row.link.framework_op = l.value;
      }
      if (field == r::kCellLinks && l.depth == 3) {  // a column's link starts
        for (size_t c = 0; c < m->columns.size(); ++c)
          if (m->columns[c].key == l.key) row.cell_links.push_back({static_cast<uint32_t>(c), {}});
      }
      if (field == r::kCellLinks && l.depth == 4 && !row.cell_links.empty() &&
          m->columns[row.cell_links.back().column].key == path[3]) {
        namespace k = keys::analysis_link;
        TableLink& cl = row.cell_links.back().link;
        if (l.key == k::kName) cl.name = l.value;
        if (l.key == k::kStep) cl.step_event = static_cast<int64_t>(json_number(l));
        if (l.key == k::kPart) cl.part = l.value;
      }
    }
  });
  for (const auto& [row, kv] : why)
    for (size_t c = 0; c < m->columns.size(); ++c)
      if (m->columns[c].key == kv.first && c < m->rows[row].cells.size() &&
          m->rows[row].cells[c].kind == TableCell::Kind::kEmpty)
        m->rows[row].cells[c].text = kv.second;
  for (size_t i = 0; i < m->rows.size(); ++i) {
    TableRow& row = m->rows[i];
    row.cells.resize(m->columns.size());
    if (row.parent >= 0 && static_cast<size_t>(row.parent) < i)
      m->rows[row.parent].children.push_back(static_cast<int32_t>(i));
    else
      row.parent = -1, m->roots.push_back(static_cast<int32_t>(i));
  }
  return true;
}

bool first_sort_descending(const TableColumn& c) { return unit_is_number(c.unit); }

std::vector<ShownRow> shown_rows(const AnalysisTableModel& m, const TableViewState& v) {
  const std::string needle = ascii_lower(v.filter);
  const size_t n = m.rows.size();
  // With a filter: a row shows when it or a row beneath it matches.
  std::vector<uint8_t> match(n, needle.empty() ? 1 : 0);
  if (!needle.empty())
    for (size_t i = n; i-- > 0;) {
      const TableCell& c = m.rows[i].cells.empty() ? TableCell{} : m.rows[i].cells[0];
      if (contains_ci(
              c.kind == TableCell::Kind::kNumber ? format_cell(c, m.columns[0].unit) : c.text,
              needle))
        match[i] = 1;
      if (match[i] && m.rows[i].parent >= 0) match[m.rows[i].parent] |= 2;  // an ancestor
    }
  const int col = v.sort_column >= 0 && static_cast<size_t>(v.sort_column) < m.columns.size()
                      ? v.sort_column
                      : -1;
  auto less = [&](int32_t a, int32_t b) {
    const TableCell& x = m.rows[a].cells[col];
    const TableCell& y = m.rows[b].cells[col];
    // Empty cells last, whichever the direction.
    const bool ex = x.kind == TableCell::Kind::kEmpty, ey = y.kind == TableCell::Kind::kEmpty;
    if (ex || ey) return !ex && ey;
    int cmp;
    if (x.kind == TableCell::Kind::kNumber && y.kind == TableCell::Kind::kNumber)
      cmp = x.number < y.number ? -1 : x.number > y.number ? 1 : 0;
    else
      cmp = ascii_lower(x.text).compare(ascii_lower(y.text));
    return v.descending ? cmp > 0 : cmp < 0;
  };
  std::vector<ShownRow> out;
  // Beneath a row that matches itself every child shows (when expanded); a row shown only for
  // a match beneath it shows expanded.
  std::function<void(const std::vector<int32_t>&, int, bool)> walk =
      [&](const std::vector<int32_t>& ids, int depth, bool all) {
        std::vector<int32_t> order;
        for (int32_t id : ids)
          if (all || match[id]) order.push_back(id);
        if (col >= 0) std::stable_sort(order.begin(), order.end(), less);
        for (int32_t id : order) {
          out.push_back({id, depth});
          const bool self = all || (match[id] & 1);
          const bool open =
              (static_cast<size_t>(id) < v.expanded.size() && v.expanded[id]) || !self;
          if (open && !m.rows[id].children.empty()) walk(m.rows[id].children, depth + 1, self);
        }
      };
  walk(m.roots, 0, false);
  return out;
}

std::string format_cell(const TableCell& c, CellUnit unit) {
  if (c.kind == TableCell::Kind::kEmpty) return kEmptyCell;
  if (c.kind == TableCell::Kind::kText) return c.text;
  return number_text(c.number, unit, 3);
}

std::vector<std::string> shorter_forms(const TableCell& c, CellUnit unit) {
  if (c.kind != TableCell::Kind::kNumber) return {};
  if (unit == CellUnit::kCount && std::fabs(c.number) >= 1000)
    return {si(c.number, "", 3), si(c.number, "", 2)};
  return {number_text(c.number, unit, 2)};
}

std::string table_csv(const AnalysisTableModel& m, const std::vector<ShownRow>& rows) {
  std::string o;
  for (size_t c = 0; c < m.columns.size(); ++c) {
    const TableColumn& col = m.columns[c];
    std::string label = col.label;
    if (unit_is_number(col.unit) && col.unit != CellUnit::kCount && col.unit != CellUnit::kRatio)
      label += std::string(" [") + kUnitNames[static_cast<size_t>(col.unit)].name + "]";
    o += (c ? "," : "") + csv_field(label);
  }
  o += '\n';
  for (const ShownRow& s : rows) {
    const TableRow& r = m.rows[s.row];
    for (size_t c = 0; c < m.columns.size(); ++c) {
      if (c) o += ',';
      const TableCell& cell = r.cells[c];
      if (cell.kind == TableCell::Kind::kText) o += csv_field(cell.text);
      if (cell.kind == TableCell::Kind::kNumber) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", cell.number);
        o += buf;
      }
    }
    o += '\n';
  }
  return o;
}

}  // namespace strata
