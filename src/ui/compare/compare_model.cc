#include "ui/compare/compare_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/formats/json/json_flat.h"
#include "protocol/reply_keys.h"

namespace strata {

const char* const kCompareKeyNames[kCompareKeys] = {"operator", "kernel", "xla_op", "category"};
const char* const kCompareKeyLabels[kCompareKeys] = {"Operator", "Kernel", "XLA op", "Category"};

namespace {

namespace rk = protocol::keys;

template <typename T>
T& at(std::vector<T>* v, long i) {
  if (static_cast<size_t>(i) >= v->size()) v->resize(static_cast<size_t>(i) + 1);
  return (*v)[static_cast<size_t>(i)];
}

void set_row(CompareRow* r, const std::string& k, const JsonLine& l) {
  const double v = json_number(l);
  if (k == rk::compare_row::kName) r->name = l.value;
  if (k == rk::compare_row::kACount) r->a_count = v;
  if (k == rk::compare_row::kATotalNs) r->a_total = v;
  if (k == rk::compare_row::kASelfNs) r->a_self = v;
  if (k == rk::compare_row::kBCount) r->b_count = v;
  if (k == rk::compare_row::kBTotalNs) r->b_total = v;
  if (k == rk::compare_row::kBSelfNs) r->b_self = v;
  if (k == rk::compare_row::kDeltaNs) r->delta = v;
  if (k == rk::compare_row::kDeltaPct) r->delta_pct = v;
}

void set_part(std::array<double, kCompareParts>* parts, const std::string& k, double v) {
  for (size_t p = 0; p < kCompareParts; ++p)
    if (k == rk::step_parts::kKeys[p]) (*parts)[p] = v;
}

void set_step(CompareStepRow* s, const std::vector<std::string>& path, const JsonLine& l) {
  namespace k = rk::compare_steps;
  const std::string& f = path[3];
  if (path.size() == 5 && f == k::kAParts) set_part(&s->a_parts, path[4], json_number(l));
  if (path.size() == 5 && f == k::kBParts) set_part(&s->b_parts, path[4], json_number(l));
  if (path.size() != 4) return;
  const double v = json_number(l);
  if (f == k::kAStep) s->a_step = static_cast<int64_t>(v);
  if (f == k::kBStep) s->b_step = static_cast<int64_t>(v);
  if (f == k::kADurNs) s->a_dur = v;
  if (f == k::kBDurNs) s->b_dur = v;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

std::string us(double ns) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3f", ns / 1e3);
  return buf;
}

std::string num(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

}  // namespace

bool compare_model_parse(const char* json, CompareModel* m, std::string* error) {
  *m = CompareModel();
  for (size_t i = 0; i < kCompareKeys; ++i) m->tables[i].key = kCompareKeyNames[i];
  std::vector<JsonLine> lines;
  if (!json_flatten(json ? json : "", &lines, error)) return false;
  json_walk(lines, [&](const std::vector<std::string>& path, const JsonLine& l) {
    const std::string& top = path[0];
    if ((top == rk::compare::kA || top == rk::compare::kB) && path.size() == 2) {
      const bool a = top == rk::compare::kA;
      if (!a) m->has_b = true;
      if (path[1] == rk::compare_side::kName) (a ? m->a_name : m->b_name) = l.value;
      if (path[1] == rk::compare_side::kEvents) (a ? m->a_events : m->b_events) = json_number(l);
    } else if (top == rk::compare::kTables && path.size() >= 3) {
      CompareTable* t = nullptr;
      for (CompareTable& x : m->tables)
        if (x.key == path[1]) t = &x;
      if (!t) return;
      namespace k = rk::compare_table;
      if (path.size() == 3 && path[2] == k::kUnchanged) t->unchanged = json_number(l);
      if (path.size() != 5) return;
      std::vector<CompareRow>* rows = path[2] == k::kChanged   ? &t->changed
                                      : path[2] == k::kAdded   ? &t->added
                                      : path[2] == k::kRemoved ? &t->removed
                                                               : nullptr;
      const long i = compare_json_index(path[3]);
      if (rows && i >= 0) set_row(&at(rows, i), path[4], l);
    } else if (top == rk::compare::kSteps && path.size() >= 2) {
      namespace k = rk::compare_steps;
      if (path.size() == 2 && path[1] == k::kAlign) m->align = l.value;
      if (path.size() == 2 && path[1] == k::kNote) m->note = l.value;
      const long i = path.size() >= 4 && path[1] == k::kRows ? compare_json_index(path[2]) : -1;
      if (i >= 0) set_step(&at(&m->steps, i), path, l);
    } else if (top == rk::compare::kTree) {
      compare_tree_parse_line(&m->tree, path, l);
    } else if (top == rk::compare::kAlignment && path.size() == 2) {
      namespace k = rk::compare_alignment;
      CompareAlignment& al = m->alignment;
      const std::string& f = path[1];
      if (f == k::kMode) al.mode = l.value;
      if (f == k::kUsed) al.used = l.value;
      if (f == k::kNote) al.note = l.value;
      if (f == k::kEvent) al.event = l.value;
      if (f == k::kStep) al.step = static_cast<int64_t>(json_number(l));
      if (f == k::kOffsetNs) al.offset_ns = json_number(l);
      if (f == k::kAStep) al.a_step = static_cast<int64_t>(json_number(l));
      if (f == k::kBStep) al.b_step = static_cast<int64_t>(json_number(l));
    } else if (top == rk::compare::kErrors && path.size() == 2 && l.kind == 's') {
      m->errors.push_back(l.value);
    }
  });
  return true;
}

void compare_sort(std::vector<CompareRow>* rows, CompareColumn column, bool descending) {
  auto value = [column](const CompareRow& r) {
    switch (column) {
      case CompareColumn::kACount:
        return r.a_count;
      case CompareColumn::kATotal:
        return r.a_total;
      case CompareColumn::kBCount:
        return r.b_count;
      case CompareColumn::kBTotal:
        return r.b_total;
      case CompareColumn::kDelta:
        return r.delta;
      case CompareColumn::kDeltaPct:
        return r.delta_pct;
      case CompareColumn::kASelf:
        return r.a_self;
      case CompareColumn::kBSelf:
        return r.b_self;
      case CompareColumn::kName:
      case CompareColumn::kAbsDelta:
        break;
    }
    return std::fabs(r.delta);
  };
  std::stable_sort(rows->begin(), rows->end(), [&](const CompareRow& x, const CompareRow& y) {
    if (column == CompareColumn::kName) return descending ? y.name < x.name : x.name < y.name;
    const double a = value(x), b = value(y);
    return descending ? a > b : a < b;
  });
}

std::string compare_table_csv(const CompareTable& t) {
  std::string o =
      "status,name,a_count,a_total_us,a_self_us,b_count,b_total_us,b_self_us,delta_us,delta_pct\n";
  auto rows = [&](const char* status, const std::vector<CompareRow>& list) {
    for (const CompareRow& r : list)
      o += std::string(status) + "," + csv_field(r.name) + "," + num(r.a_count) + "," +
           us(r.a_total) + "," + us(r.a_self) + "," + num(r.b_count) + "," + us(r.b_total) + "," +
           us(r.b_self) + "," + us(r.delta) + "," + num(r.delta_pct) + "\n";
  };
  rows("changed", t.changed);
  rows("added", t.added);
  rows("removed", t.removed);
  return o;
}

std::string compare_steps_csv(const CompareModel& m) {
  std::string o = "a_step,b_step,a_us,b_us";
  for (const char* side : {"a_", "b_"})
    for (const char* part : rk::step_parts::kKeys) o += std::string(",") + side + part + "_us";
  o += '\n';
  for (const CompareStepRow& s : m.steps) {
    o += std::to_string(s.a_step) + "," + std::to_string(s.b_step) + "," + us(s.a_dur) + "," +
         us(s.b_dur);
    for (double v : s.a_parts) o += "," + us(v);
    for (double v : s.b_parts) o += "," + us(v);
    o += '\n';
  }
  return o;
}

}  // namespace strata
