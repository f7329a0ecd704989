#include "engine/pod/pod_session.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/base/json_writer.h"
#include "core/formats/json/json_flat.h"
#include "protocol/pod_keys.h"
#include "protocol/reply_keys.h"

namespace strata {

namespace {

namespace mk = protocol::pod::manifest;
namespace hk = protocol::pod::host;

int64_t as_int(const JsonLine& l) {
  return l.kind == 'n' ? static_cast<int64_t>(std::llround(std::strtod(l.value.c_str(), nullptr)))
                       : 0;
}

// Decimal text of an integer (pod.json writes absolute times so), or "" when it is not one.
std::string decimal(const JsonLine& l) {
  if (l.kind != 's' || l.value.empty()) return {};
  for (size_t i = 0; i < l.value.size(); ++i)
    if (!(l.value[i] >= '0' && l.value[i] <= '9') && !(i == 0 && l.value[i] == '-')) return {};
  return l.value;
}

template <typename T>
double median(std::vector<T> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? static_cast<double>(v[m])
                      : (static_cast<double>(v[m - 1]) + static_cast<double>(v[m])) / 2;
}

std::string fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

}  // namespace

bool PodSession::safe_bundle_path(std::string_view path, std::string* why) {
  auto no = [why](const char* reason) {
    *why = reason;
    return false;
  };
  if (path.empty()) return no("no bundle path");
  if (path.front() == '/') return no("an absolute path (only paths beside pod.json are opened)");
  if (path.find('\\') != std::string_view::npos) return no("a backslash in the path");
  if (path.find(':') != std::string_view::npos)
    return no("a URL with a scheme (only paths beside pod.json are opened)");
  if (path.find_first_of("?#") != std::string_view::npos) return no("a query in the path");
  for (size_t at = 0; at <= path.size();) {
    size_t end = path.find('/', at);
    if (end == std::string_view::npos) end = path.size();
    if (path.substr(at, end - at) == "..")
      return no("a \"..\" in the path (it leaves pod.json's directory)");
    at = end + 1;
  }
  return true;
}

void PodSession::clear() {
  hosts_.clear();
  errors_.clear();
  base_.clear();
  median_step_ns_ = 0;
  median_busy_pct_ = 0;
}

bool PodSession::load(std::string_view json) {
  clear();
  std::vector<JsonLine> lines;
  std::string error;
  if (!json_flatten(json, &lines, &error)) {
    errors_.push_back("pod.json is not JSON: " + error);
    return false;
  }
  std::string format;
  int64_t version = -1;
  bool has_hosts = false;
  for (const JsonLine& l : lines) {
    if (l.depth != 0) continue;
    if (l.key == mk::kFormat && l.kind == 's') format = l.value;
    if (l.key == mk::kVersion && l.kind == 'n') version = as_int(l);
    if (l.key == mk::kBase) base_ = decimal(l);
    if (l.key == mk::kHosts && l.kind == 'a') has_hosts = true;
  }
  if (format != protocol::pod::kFormatName) {
    errors_.push_back("not a pod manifest (its \"format\" is not \"strata-pod\")");
    return false;
  }
  if (version != protocol::pod::kVersion) {
    errors_.push_back("pod manifest version " + std::to_string(version) +
                      ": this Strata reads version " + std::to_string(protocol::pod::kVersion));
    return false;
  }
  if (!has_hosts) {
    errors_.push_back("the pod manifest has no host list");
    return false;
  }
  // Walk the lines: depth 0 root members; hosts' entries at depth 1, their fields at depth 2,
  // their sources at depth 3.
  std::string parent;
  std::vector<PodHost> read;
  std::vector<bool> is_object;
  for (const JsonLine& l : lines) {
    if (l.depth == 0) {
      parent = l.key;
      continue;
    }
    if (parent == mk::kErrors && l.depth == 1 && l.kind == 's') {
      errors_.push_back(l.value);
      continue;
    }
    if (parent != mk::kHosts) continue;
    if (l.depth == 1) {
      read.emplace_back();
      is_object.push_back(l.kind == 'o');
      continue;
    }
    if (read.empty()) continue;
    PodHost& h = read.back();
    if (l.depth == 3 && l.kind == 's') {
      h.sources.push_back(l.value);  // only sources is an array of strings in a host
      continue;
    }
    if (l.depth != 2) continue;
    if (l.key == hk::kName && l.kind == 's') h.name = l.value;
    if (l.key == hk::kBundle && l.kind == 's') h.bundle = l.value;
    if (l.key == hk::kOrigin) h.origin = decimal(l);
    if (l.key == hk::kOffset) h.offset_ns = as_int(l);
    if (l.key == hk::kSpan) h.span_ns = std::max<int64_t>(0, as_int(l));
    if (l.key == hk::kEvents) h.events = static_cast<uint64_t>(std::max<int64_t>(0, as_int(l)));
    if (l.key == hk::kTracks) h.tracks = static_cast<uint32_t>(std::max<int64_t>(0, as_int(l)));
    if (l.key == hk::kBusy) h.busy_ns = std::max<int64_t>(0, as_int(l));
    if (l.key == hk::kSteps) h.steps = static_cast<uint32_t>(std::max<int64_t>(0, as_int(l)));
    if (l.key == hk::kStep) h.step_ns = std::max<int64_t>(0, as_int(l));
  }
  for (size_t k = 0; k < read.size(); ++k) {
    PodHost& h = read[k];
    const std::string which = "host " + std::to_string(k);
    std::string why;
    if (!is_object[k] || h.name.empty()) {
      errors_.push_back(which + ": no name, left out");
    } else if (find(h.name) >= 0) {
      errors_.push_back(which + ": the name \"" + h.name + "\" is listed twice, left out");
    } else if (!safe_bundle_path(h.bundle, &why)) {
      errors_.push_back(h.name + ": bundle \"" + h.bundle + "\": " + why + ", left out");
    } else {
      hosts_.push_back(std::move(h));
    }
  }
  judge();
  return true;
}

void PodSession::judge() {
  std::vector<int64_t> steps;
  std::vector<double> busy;
  for (PodHost& h : hosts_) {
    h.busy_pct = h.span_ns > 0 ? 100.0 * static_cast<double>(h.busy_ns) / h.span_ns : 0;
    if (h.steps > 0 && h.step_ns > 0) steps.push_back(h.step_ns);
    if (h.span_ns > 0) busy.push_back(h.busy_pct);
  }
  median_step_ns_ = static_cast<int64_t>(std::llround(median(steps)));
  median_busy_pct_ = median(busy);
  for (PodHost& h : hosts_) {
    h.straggler = false;
    h.why.clear();
    h.step_ratio = h.steps > 0 && h.step_ns > 0 && median_step_ns_ > 0
                       ? static_cast<double>(h.step_ns) / median_step_ns_
                       : 0;
    auto add = [&h](const std::string& reason) {
      h.straggler = true;
      h.why += h.why.empty() ? reason : "; " + reason;
    };
    if (steps.size() >= kMinHostsToJudge && h.step_ratio > kSlowStepRatio)
      add("median step " + fixed(h.step_ratio, 2) + "x the pod's");
    if (busy.size() >= kMinHostsToJudge && h.span_ns > 0 &&
        h.busy_pct < kLowBusyRatio * median_busy_pct_)
      add("busy " + fixed(h.busy_pct, 0) + "% of its span, the pod's median " +
          fixed(median_busy_pct_, 0) + "%");
  }
}

int PodSession::find(std::string_view name) const {
  for (size_t i = 0; i < hosts_.size(); ++i)
    if (hosts_[i].name == name) return static_cast<int>(i);
  return -1;
}

void PodSession::reset_open() {
  for (PodHost& h : hosts_) h.open = false, h.error.clear();
}

void PodSession::mark(size_t i, std::string error) {
  if (i >= hosts_.size()) return;
  hosts_[i].open = error.empty();
  hosts_[i].error = std::move(error);
}

std::string PodSession::table_json() const {
  namespace pk = protocol::keys::pod;
  namespace hr = protocol::keys::pod_host;
  using protocol::append_key;
  std::string o;
  append_key(&o, pk::kBase, '{');
  json_append_string(&o, base_);
  append_key(&o, pk::kMedianStepNs);
  json_append_int(&o, median_step_ns_);
  append_key(&o, pk::kMedianBusyPct);
  json_append_number(&o, median_busy_pct_);
  size_t stragglers = 0;
  for (const PodHost& h : hosts_) stragglers += h.straggler;
  append_key(&o, pk::kStragglers);
  json_append_int(&o, static_cast<int64_t>(stragglers));
  append_key(&o, pk::kHosts);
  o += '[';
  for (size_t i = 0; i < hosts_.size(); ++i) {
    const PodHost& h = hosts_[i];
    if (i) o += ',';
    append_key(&o, hr::kName, '{');
    json_append_string(&o, h.name);
    append_key(&o, hr::kBundle);
    json_append_string(&o, h.bundle);
    append_key(&o, hr::kOffsetNs);
    json_append_int(&o, h.offset_ns);
    append_key(&o, hr::kSpanNs);
    json_append_int(&o, h.span_ns);
    append_key(&o, hr::kEvents);
    json_append_int(&o, static_cast<int64_t>(h.events));
    append_key(&o, hr::kTracks);
    json_append_int(&o, h.tracks);
    append_key(&o, hr::kBusyNs);
    json_append_int(&o, h.busy_ns);
    append_key(&o, hr::kBusyPct);
    json_append_number(&o, h.busy_pct);
    append_key(&o, hr::kSteps);
    json_append_int(&o, h.steps);
    append_key(&o, hr::kStepMedianNs);
    json_append_int(&o, h.step_ns);
    append_key(&o, hr::kStepRatio);
    json_append_number(&o, h.step_ratio);
    append_key(&o, hr::kStraggler);
    o += h.straggler ? "true" : "false";
    append_key(&o, hr::kWhy);
    json_append_string(&o, h.why);
    append_key(&o, hr::kError);
    json_append_string(&o, h.error);
    append_key(&o, hr::kOpen);
    o += h.open ? "true" : "false";
    o += '}';
  }
  o += ']';
  append_key(&o, pk::kErrors);
  o += '[';
  for (size_t i = 0; i < errors_.size(); ++i) {
    if (i) o += ',';
    json_append_string(&o, errors_[i]);
  }
  o += "]}";
  return o;
}

}  // namespace strata
