// The Pod tab's model: the engine's host table read into rows, sorted, picked. No ImGui here,
// so native tests check it against the engine's writer.
#include <algorithm>
#include <cstdlib>
#include <map>

#include "core/base/json_writer.h"
#include "core/formats/json/json_flat.h"
#include "protocol/reply_keys.h"
#include "ui/pod/pod_view.h"

namespace strata {

namespace {

double number(const JsonLine& l) {
  return l.kind == 'n' ? std::strtod(l.value.c_str(), nullptr) : 0;
}

double column_value(const PodRow& r, PodColumn c) {
  switch (c) {
    case PodColumn::kOffset:
      return r.offset_ns;
    case PodColumn::kSpan:
      return r.span_ns;
    case PodColumn::kEvents:
      return r.events;
    case PodColumn::kTracks:
      return r.tracks;
    case PodColumn::kBusy:
      return r.busy_pct;
    case PodColumn::kSteps:
      return r.steps;
    case PodColumn::kStep:
      return r.step_ns;
    case PodColumn::kStepRatio:
      return r.step_ratio;
    case PodColumn::kName:
    case PodColumn::kCount:
      break;
  }
  return 0;
}

}  // namespace

bool pod_view_set_table(PodView* v, const std::string& name, const char* json) {
  namespace pk = protocol::keys::pod;
  namespace hk = protocol::keys::pod_host;
  std::vector<JsonLine> lines;
  std::string error;
  if (!json || !json_flatten(json, &lines, &error)) return false;
  std::map<std::string, bool> picked;
  for (const PodRow& r : v->rows) picked[r.name] = r.picked;
  std::vector<PodRow> rows;
  std::vector<std::string> errors;
  double median_step = 0, median_busy = 0, stragglers = 0;
  std::string parent;
  for (const JsonLine& l : lines) {
    if (l.depth == 0) {
      parent = l.key;
      if (l.key == pk::kMedianStepNs) median_step = number(l);
      if (l.key == pk::kMedianBusyPct) median_busy = number(l);
      if (l.key == pk::kStragglers) stragglers = number(l);
      continue;
    }
    if (parent == pk::kErrors && l.depth == 1) {
      errors.push_back(l.value);
      continue;
    }
    if (parent != pk::kHosts) continue;
    if (l.depth == 1) {
      rows.emplace_back();
      continue;
    }
    if (rows.empty() || l.depth != 2) continue;
    PodRow& r = rows.back();
    if (l.key == hk::kName) r.name = l.value;
    if (l.key == hk::kBundle) r.bundle = l.value;
    if (l.key == hk::kOffsetNs) r.offset_ns = number(l);
    if (l.key == hk::kSpanNs) r.span_ns = number(l);
    if (l.key == hk::kEvents) r.events = number(l);
    if (l.key == hk::kTracks) r.tracks = number(l);
    if (l.key == hk::kBusyNs) r.busy_ns = number(l);
    if (l.key == hk::kBusyPct) r.busy_pct = number(l);
    if (l.key == hk::kSteps) r.steps = number(l);
    if (l.key == hk::kStepMedianNs) r.step_ns = number(l);
    if (l.key == hk::kStepRatio) r.step_ratio = number(l);
    if (l.key == hk::kStraggler) r.straggler = l.value == "true";
    if (l.key == hk::kOpen) r.open = l.value == "true";
    if (l.key == hk::kWhy) r.why = l.value;
    if (l.key == hk::kError) r.error = l.value;
  }
  for (PodRow& r : rows) r.picked = picked.count(r.name) ? picked[r.name] : false;
  v->loaded = true;
  v->name = name;
  v->rows = std::move(rows);
  v->errors = std::move(errors);
  v->median_step_ns = median_step;
  v->median_busy_pct = median_busy;
  v->stragglers = stragglers;
  v->opening = false;
  pod_view_sort(v, v->sort, v->descending);
  return true;
}

void pod_view_sort(PodView* v, PodColumn column, bool descending) {
  v->sort = column;
  v->descending = descending;
  std::stable_sort(v->rows.begin(), v->rows.end(), [&](const PodRow& a, const PodRow& b) {
    if (column == PodColumn::kName) return descending ? b.name < a.name : a.name < b.name;
    const double x = column_value(a, column), y = column_value(b, column);
    if (x != y) return descending ? x > y : x < y;
    return a.name < b.name;
  });
}

std::string pod_view_picked_json(const PodView& v) {
  std::string o = "[";
  for (const PodRow& r : v.rows) {
    if (!r.picked) continue;
    if (o.size() > 1) o += ',';
    json_append_string(&o, r.name);
  }
  return o + "]";
}

bool pod_view_pick(PodView* v, const std::vector<std::string>& names) {
  bool all = true;
  for (const std::string& n : names)
    all = all &&
          std::any_of(v->rows.begin(), v->rows.end(), [&](const PodRow& r) { return r.name == n; });
  for (PodRow& r : v->rows) r.picked = std::find(names.begin(), names.end(), r.name) != names.end();
  return all;
}

}  // namespace strata
