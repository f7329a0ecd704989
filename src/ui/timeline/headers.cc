#include "ui/timeline/headers.h"

#include <map>

namespace strata {

std::string process_header_text(const UiProcess& p) {
  // The file's own pid text when it has one (a string pid such as "Spans" stays as written).
  const std::string pid = !p.key.empty() ? p.key : std::to_string(p.pid);
  const bool numeric = !pid.empty() && pid.find_first_not_of("-0123456789") == std::string::npos;
  std::string s;
  if (p.name.empty())
    s = "Process " + pid;
  else if ((p.key.empty() && p.pid == 0) || pid == p.name)
    s = p.name;  // synthetic processes (Global) and planes named by their key
  else if (numeric)
    s = p.name + " (pid " + pid + ")";
  else
    s = p.name + " (" + pid + ")";
  if (!p.labels.empty()) s += ": " + p.labels;
  return s;
}

std::vector<std::string> process_header_texts(const TraceData& d) {
  std::vector<std::string> out;
  out.reserve(d.processes.size());
  std::map<std::string, int> seen;
  for (const UiProcess& p : d.processes) {
    std::string s = process_header_text(p);
    int n = ++seen[s];
    if (n > 1) s += " #" + std::to_string(n);
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<std::string> track_label_texts(const TraceData& d) {
  std::vector<std::string> out(d.tracks.size());
  std::map<std::pair<uint32_t, std::string>, int> count;
  for (const UiTrack& t : d.tracks) ++count[{t.process, t.name}];
  for (size_t i = 0; i < d.tracks.size(); ++i) {
    const UiTrack& t = d.tracks[i];
    const bool thread = t.kind == 0;  // TrackKind::kThread
    if (t.name.empty() && thread)
      out[i] = "thread " + std::to_string(t.tid);
    else if (thread && count[{t.process, t.name}] > 1)
      out[i] = t.name + " (tid " + std::to_string(t.tid) + ")";
    else
      out[i] = t.name;
  }
  return out;
}

}  // namespace strata
