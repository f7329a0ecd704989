#include "core/graph/op_costs.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/base/json_writer.h"
#include "core/formats/json/json_flat.h"
#include "protocol/reply_keys.h"

namespace strata::graph {

namespace {

// A stat's value: a number, or a string holding only a number (JSON args written as text).
// Counts are never negative: anything else is not a count.
double count_value(const JsonLine& l) {
  double v = NAN;
  if (l.kind == 'n') {
    v = json_number(l);
  } else if (l.kind == 's' && !l.value.empty()) {
    char* end = nullptr;
    v = std::strtod(l.value.c_str(), &end);
    if (end != l.value.c_str() + l.value.size()) v = NAN;
  }
  return std::isfinite(v) && v >= 0 ? v : NAN;
}

int stat_of(std::string_view key, const std::string_view (&names)[kCostStats]) {
  for (int k = 0; k < kCostStats; ++k)
    if (key == names[k]) return k;
  return -1;
}

void append_total(std::string* o, const OpCostTotal& t) {
  if (!t.count) {
    *o += "null";
    return;
  }
  *o += "{\"count\":" + std::to_string(t.count) + ",\"total\":";
  json_append_number(o, t.total);
  *o += ",\"perOccurrence\":";
  json_append_number(o, t.per_occurrence());
  *o += ",\"min\":";
  json_append_number(o, t.min);
  *o += ",\"max\":";
  json_append_number(o, t.max);
  *o += ",\"timeNs\":";
  json_append_number(o, t.time_ns);
  *o += ",\"perSecond\":";
  json_append_number(o, t.per_second());  // null without time
  *o += '}';
}

}  // namespace

bool op_cost_sample(std::string_view details_json, OpCostSample* out) {
  std::vector<JsonLine> lines;
  std::string error;
  if (!json_flatten(details_json, &lines, &error)) return false;
  *out = OpCostSample();
  bool have_dur = false;
  double from_xla[kCostStats] = {NAN, NAN, NAN, NAN};
  namespace key = protocol::keys;
  json_walk(lines, [&](const std::vector<std::string>& keys, const JsonLine& l) {
    if (l.depth == 0 && keys[0] == key::event::kDurNs && l.kind == 'n') {
      out->dur_ns = std::max(0.0, json_number(l));
      have_dur = true;
    }
    if (l.depth != 2 || keys[0] != key::details::kRecord) return;
    const int k = stat_of(keys[2], kCostStatName);
    if (k < 0) return;
    if (keys[1] == key::record::kArgs)
      out->value[k] = count_value(l);
    else if (keys[1] == key::record::kXla)
      from_xla[k] = count_value(l);
  });
  for (int k = 0; k < kCostStats; ++k)
    if (std::isnan(out->value[k])) out->value[k] = from_xla[k];
  return have_dur;
}

void add_op_cost_sample(OpCosts* c, const OpCostSample& s) {
  ++c->read;
  c->time_ns += s.dur_ns;
  for (int k = 0; k < kCostStats; ++k) {
    const double v = s.value[k];
    if (std::isnan(v)) continue;
    OpCostTotal& t = c->stat[k];
    t.min = t.count ? std::min(t.min, v) : v;
    t.max = t.count ? std::max(t.max, v) : v;
    ++t.count;
    t.total += v;
    t.time_ns += s.dur_ns;
  }
}

std::string op_costs_json(const OpCosts& c) {
  std::string o = "{\"name\":";
  json_append_string(&o, c.name);
  o += ",\"occurrences\":" + std::to_string(c.occurrences);
  o += ",\"read\":" + std::to_string(c.read);
  o += ",\"timeNs\":";
  json_append_number(&o, c.time_ns);
  for (int k = 0; k < kCostStats; ++k) {
    o += ",\"";
    o += kCostStatKey[k];
    o += "\":";
    append_total(&o, c.stat[k]);
  }
  o += '}';
  return o;
}

bool read_op_costs_json(std::string_view json, OpCosts* out) {
  std::vector<JsonLine> lines;
  std::string error;
  if (!json_flatten(json, &lines, &error)) return false;
  *out = OpCosts();
  bool named = false;
  json_walk(lines, [&](const std::vector<std::string>& keys, const JsonLine& l) {
    const double v = json_number(l);
    if (l.depth == 0) {
      if (keys[0] == "name" && l.kind == 's') out->name = l.value, named = true;
      if (keys[0] == "occurrences" && std::isfinite(v)) out->occurrences = static_cast<int64_t>(v);
      if (keys[0] == "read" && std::isfinite(v)) out->read = static_cast<uint32_t>(v);
      if (keys[0] == "timeNs" && std::isfinite(v)) out->time_ns = v;
      return;
    }
    const int k = l.depth == 1 ? stat_of(keys[0], kCostStatKey) : -1;
    if (k < 0 || !std::isfinite(v)) return;
    OpCostTotal& t = out->stat[k];
    if (keys[1] == "count") t.count = static_cast<uint32_t>(v);
    if (keys[1] == "total") t.total = v;
    if (keys[1] == "min") t.min = v;
    if (keys[1] == "max") t.max = v;
    if (keys[1] == "timeNs") t.time_ns = v;
  });
  return named;
}

std::string si_number(double v) {
  if (!std::isfinite(v)) return "-";
  static const char* const kPrefix[] = {"", " k", " M", " G", " T", " P", " E"};
  int p = 0;
  double a = std::fabs(v);
  while (a >= 999.5 && p < 6) a /= 1000, v /= 1000, ++p;
  char buf[32];
  if (p == 0 && v == std::floor(v))
    std::snprintf(buf, sizeof buf, "%.0f", v);  // small counts stay exact
  else
    std::snprintf(buf, sizeof buf,
                  a >= 99.95   ? "%.0f%s"
                  : a >= 9.995 ? "%.1f%s"
                               : "%.2f%s",
                  v, kPrefix[p]);
  return buf;
}

}  // namespace strata::graph
