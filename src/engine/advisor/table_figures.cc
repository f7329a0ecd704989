#include "engine/advisor/table_figures.h"

#include <algorithm>

namespace strata {

namespace {

bool in_level(const AnalysisRow& r, bool top_level) { return (r.parent < 0) == top_level; }

bool links_events(const AnalysisLink& l) { return !l.name.empty() || l.step_event != kNone; }

std::vector<AdvisorEvidence> top_of(const AnalysisTable& t, int col, size_t n, AnalysisUnit unit,
                                    bool (*keep)(const AnalysisRow&, const void*),
                                    const void* ctx) {
  std::vector<std::pair<double, const AnalysisRow*>> order;
  if (col < 0) return {};
  for (const AnalysisRow& r : t.rows) {
    const double v = cell_number(r, col);
    if (v > 0 && links_events(r.link) && keep(r, ctx)) order.emplace_back(v, &r);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<AdvisorEvidence> out;
  for (size_t k = 0; k < order.size() && k < n; ++k) {
    const AnalysisRow& r = *order[k].second;
    const bool text = !r.cells.empty() && r.cells[0].kind == AnalysisCell::Kind::kText;
    const std::string first = text ? r.cells[0].text : r.link.name;
    out.push_back({first + ": " + format_figure(order[k].first, unit), r.link});
  }
  return out;
}

}  // namespace

int column_index(const AnalysisTable& t, const std::string& key) {
  for (size_t i = 0; i < t.columns.size(); ++i)
    if (t.columns[i].key == key) return static_cast<int>(i);
  return -1;
}

double cell_number(const AnalysisRow& r, int column) {
  if (column < 0 || static_cast<size_t>(column) >= r.cells.size()) return 0;
  const AnalysisCell& c = r.cells[static_cast<size_t>(column)];
  return c.kind == AnalysisCell::Kind::kNumber ? c.number : 0;
}

double sum_column(const AnalysisTable& t, const std::string& key, bool top_level) {
  const int c = column_index(t, key);
  double sum = 0;
  for (const AnalysisRow& r : t.rows)
    if (in_level(r, top_level)) sum += cell_number(r, c);
  return sum;
}

double max_column(const AnalysisTable& t, const std::string& key) {
  const int c = column_index(t, key);
  double m = 0;
  for (const AnalysisRow& r : t.rows) m = std::max(m, cell_number(r, c));
  return m;
}

bool has_number(const AnalysisTable& t, const std::string& key, bool top_level) {
  const int c = column_index(t, key);
  if (c < 0) return false;
  for (const AnalysisRow& r : t.rows)
    if (in_level(r, top_level) && static_cast<size_t>(c) < r.cells.size() &&
        r.cells[static_cast<size_t>(c)].kind == AnalysisCell::Kind::kNumber)
      return true;
  return false;
}

std::vector<AdvisorEvidence> top_rows(const AnalysisTable& t, const std::string& key,
                                      bool top_level, size_t n, AnalysisUnit unit) {
  struct Ctx {
    bool top_level;
  } ctx{top_level};
  return top_of(
      t, column_index(t, key), n, unit,
      [](const AnalysisRow& r, const void* c) {
        return !static_cast<const Ctx*>(c)->top_level || r.parent < 0;
      },
      &ctx);
}

std::vector<AdvisorEvidence> top_rows_where(const AnalysisTable& t, const std::string& key,
                                            int filter_column, const std::string& filter_text,
                                            size_t n) {
  struct Ctx {
    int column;
    const std::string* text;
  } ctx{filter_column, &filter_text};
  const int col = column_index(t, key);
  const AnalysisUnit unit = col >= 0 ? t.columns[static_cast<size_t>(col)].unit : AnalysisUnit::kNs;
  return top_of(
      t, col, n, unit,
      [](const AnalysisRow& r, const void* c) {
        const Ctx& x = *static_cast<const Ctx*>(c);
        return x.column >= 0 && static_cast<size_t>(x.column) < r.cells.size() &&
               r.cells[static_cast<size_t>(x.column)].text == *x.text;
      },
      &ctx);
}

}  // namespace strata
