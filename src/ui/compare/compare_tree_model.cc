#include "ui/compare/compare_tree_model.h"

#include <cstdio>
#include <cstdlib>

#include "protocol/reply_keys.h"

namespace strata {

namespace {

namespace rk = protocol::keys;

void set_row(CompareTreeRow* r, const std::vector<std::string>& path, const JsonLine& l) {
  namespace k = rk::compare_tree_row;
  const std::string& f = path[3];
  if (path.size() == 5) {
    if (f == k::kANames) r->a_names.push_back(l.value);
    if (f == k::kBNames) r->b_names.push_back(l.value);
    return;
  }
  if (path.size() != 4) return;
  const double v = json_number(l);
  if (f == k::kName) r->name = l.value;
  if (f == k::kPath) r->path = l.value;
  if (f == k::kStatus) r->status = l.value;
  if (f == k::kParent) r->parent = static_cast<int64_t>(v);
  if (f == k::kDepth) r->depth = static_cast<uint32_t>(v);
  if (f == k::kACount) r->a_count = v;
  if (f == k::kATotalNs) r->a_total = v;
  if (f == k::kASelfNs) r->a_self = v;
  if (f == k::kBCount) r->b_count = v;
  if (f == k::kBTotalNs) r->b_total = v;
  if (f == k::kBSelfNs) r->b_self = v;
  if (f == k::kDeltaNs) r->delta = v;
  if (f == k::kDeltaPct) r->delta_pct = v;
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

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i ? "; " : "") + names[i];
  return s;
}

}  // namespace

long compare_json_index(const std::string& key) {
  if (key.size() < 3 || key.front() != '[' || key.back() != ']') return -1;
  return std::strtol(key.c_str() + 1, nullptr, 10);
}

void compare_tree_parse_line(CompareTree* t, const std::vector<std::string>& path,
                             const JsonLine& l) {
  namespace k = rk::compare_tree;
  if (path.size() == 1) {
    t->present = l.kind == 'o';  // null without a B
    return;
  }
  if (path.size() == 2) {
    if (path[1] == k::kUnchanged) t->unchanged = json_number(l);
    if (path[1] == k::kANodes) t->a_nodes = json_number(l);
    if (path[1] == k::kBNodes) t->b_nodes = json_number(l);
    if (path[1] == k::kNote) t->note = l.value;
    return;
  }
  if (path.size() < 4 || path[1] != k::kRows) return;
  const long i = compare_json_index(path[2]);
  if (i < 0) return;
  if (static_cast<size_t>(i) >= t->rows.size()) t->rows.resize(static_cast<size_t>(i) + 1);
  set_row(&t->rows[static_cast<size_t>(i)], path, l);
}

std::vector<uint8_t> compare_tree_has_children(const CompareTree& t) {
  std::vector<uint8_t> has(t.rows.size(), 0);
  for (const CompareTreeRow& r : t.rows)
    if (r.parent >= 0 && static_cast<size_t>(r.parent) < has.size()) has[r.parent] = 1;
  return has;
}

std::vector<uint32_t> compare_tree_visible(const CompareTree& t, const std::vector<uint8_t>& open) {
  // Pre-order: a row shows when its parent shows and is open.
  std::vector<uint8_t> shown(t.rows.size(), 0);
  std::vector<uint32_t> out;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    const int64_t p = t.rows[i].parent;
    const bool visible = p < 0 || (static_cast<size_t>(p) < i && shown[p] &&
                                   static_cast<size_t>(p) < open.size() && open[p]);
    if (!visible) continue;
    shown[i] = 1;
    out.push_back(static_cast<uint32_t>(i));
  }
  return out;
}

std::string compare_tree_csv(const CompareTree& t) {
  std::string o =
      "status,depth,path,name,a_count,a_total_us,a_self_us,b_count,b_total_us,b_self_us,delta_us,"
      "delta_pct,a_names,b_names\n";
  for (const CompareTreeRow& r : t.rows)
    o += r.status + "," + std::to_string(r.depth) + "," + csv_field(r.path) + "," +
         csv_field(r.name) + "," + num(r.a_count) + "," + us(r.a_total) + "," + us(r.a_self) + "," +
         num(r.b_count) + "," + us(r.b_total) + "," + us(r.b_self) + "," + us(r.delta) + "," +
         num(r.delta_pct) + "," + csv_field(joined(r.a_names)) + "," +
         csv_field(joined(r.b_names)) + "\n";
  return o;
}

}  // namespace strata
