#include "tools/pack/pod_manifest.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>

#include "core/base/json_writer.h"
#include "protocol/pod_keys.h"
#include "tools/pack/bundle_file.h"

namespace strata::bundle {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<std::string> bundles_in(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return names;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    struct stat st {};
    if (ends_with(name, ".strata") ||
        (::stat((dir + "/" + name + "/manifest.strata").c_str(), &st) == 0 && S_ISREG(st.st_mode)))
      names.push_back(name);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

void key(std::string* out, std::string_view k) {
  json_append_string(out, k);
  out->push_back(':');
}

}  // namespace

PodMergeResult merge_pod(const std::string& dir) {
  PodMergeResult r;
  struct Host {
    std::string name, bundle;
    Manifest m;
  };
  std::vector<Host> hosts;
  for (const std::string& b : bundles_in(dir)) {
    BundleFile f;
    std::string error;
    if (!f.open(dir + "/" + b, &error)) {
      r.errors.push_back(b + ": " + error);
      continue;
    }
    std::string name = b;
    if (ends_with(name, ".strata")) name.resize(name.size() - 7);
    hosts.push_back({name, b, f.manifest()});
  }
  // The pod's time base: the earliest host start; each host's offset is its start from there
  // (the hosts' clocks are taken as they are written: aligning them is the page's choice).
  int64_t base = INT64_MAX;
  for (const Host& h : hosts)
    if (h.m.has_time) base = std::min(base, h.m.start_ns);
  if (base == INT64_MAX) base = 0;
  namespace mk = protocol::pod::manifest;
  namespace hk = protocol::pod::host;
  std::string& o = r.json;
  o = "{";
  key(&o, mk::kFormat), json_append_string(&o, protocol::pod::kFormatName), o += ",";
  key(&o, mk::kVersion), json_append_int(&o, protocol::pod::kVersion), o += ",";
  key(&o, mk::kBase), json_append_string(&o, std::to_string(base)), o += ",";
  key(&o, mk::kHosts), o += "[";
  for (size_t i = 0; i < hosts.size(); ++i) {
    const Host& h = hosts[i];
    if (i) o += ",";
    o += "\n{";
    key(&o, hk::kName), json_append_string(&o, h.name), o += ",";
    key(&o, hk::kBundle), json_append_string(&o, h.bundle), o += ",";
    key(&o, hk::kOrigin), json_append_string(&o, std::to_string(h.m.start_ns)), o += ",";
    key(&o, hk::kOffset), json_append_int(&o, h.m.has_time ? h.m.start_ns - base : 0), o += ",";
    key(&o, hk::kSpan), json_append_int(&o, h.m.has_time ? h.m.end_ns - h.m.start_ns : 0), o += ",";
    key(&o, hk::kEvents), json_append_int(&o, static_cast<int64_t>(h.m.events)), o += ",";
    key(&o, hk::kTracks), json_append_int(&o, static_cast<int64_t>(h.m.tracks.size())), o += ",";
    key(&o, hk::kBusy), json_append_int(&o, h.m.summary.busy_ns), o += ",";
    key(&o, hk::kSteps), json_append_int(&o, h.m.summary.steps), o += ",";
    key(&o, hk::kStep), json_append_int(&o, h.m.summary.step_median_ns), o += ",";
    key(&o, hk::kSources), o += "[";
    for (size_t k = 0; k < h.m.sources.size(); ++k) {
      if (k) o += ",";
      json_append_string(&o, h.m.sources[k].name);
    }
    o += "]}";
  }
  o += "],\n";
  key(&o, mk::kErrors), o += "[";
  for (size_t i = 0; i < r.errors.size(); ++i) {
    if (i) o += ",";
    json_append_string(&o, r.errors[i]);
  }
  o += "]}\n";
  r.hosts = hosts.size();
  return r;
}

}  // namespace strata::bundle
