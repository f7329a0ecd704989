#include "tools/pack/pod_open.h"

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/formats/sqlite/byte_reader.h"
#include "engine/engine.h"
#include "engine/pod/pod_session.h"

namespace strata::bundle {

int open_pod(const std::string& manifest_path) {
  std::ifstream in(manifest_path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "strata-pack: %s cannot be read\n", manifest_path.c_str());
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  PodSession pod;
  const bool ok = pod.load(text.str());
  for (const std::string& e : pod.errors())
    std::fprintf(stderr, "strata-pack: %s: %s\n", manifest_path.c_str(), e.c_str());
  if (!ok) return 1;
  size_t stragglers = 0;
  for (const PodHost& h : pod.hosts()) stragglers += h.straggler;
  std::printf(
      "%s: %zu hosts, base %s ns, median step %.3f ms, median busy %.1f%%, %zu stragglers\n",
      manifest_path.c_str(), pod.hosts().size(), pod.base().c_str(), pod.median_step_ns() / 1e6,
      pod.median_busy_pct(), stragglers);
  std::printf("  %-16s %10s %10s %9s %6s %6s %6s %9s\n", "host", "offset ms", "span ms", "events",
              "tracks", "busy%", "steps", "step ms");
  for (const PodHost& h : pod.hosts())
    std::printf("  %-16s %10.3f %10.3f %9llu %6u %6.1f %6u %9.3f%s%s\n", h.name.c_str(),
                h.offset_ns / 1e6, h.span_ns / 1e6, static_cast<unsigned long long>(h.events),
                h.tracks, h.busy_pct, h.steps, h.step_ns / 1e6, h.straggler ? "  straggler: " : "",
                h.why.c_str());

  const size_t slash = manifest_path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : manifest_path.substr(0, slash);
  Engine engine;
  engine.load_hosts_begin(manifest_path);
  uint64_t events = 0, tracks = 0;
  size_t opened = 0;
  for (size_t i = 0; i < pod.hosts().size(); ++i) {
    const PodHost& h = pod.hosts()[i];
    // A split host bundle is a folder: its manifest.strata, its tiles in tiles/<i>.zst.
    const std::string path = dir + "/" + h.bundle;
    struct stat st {};
    const bool split = ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    FileByteReader reader(split ? path + "/manifest.strata" : path);
    const SplitTileReader tiles = [&path](uint32_t tile, uint32_t length,
                                          std::vector<uint8_t>* out) {
      FileByteReader f(path + "/tiles/" + std::to_string(tile) + ".zst");
      if (!f.ok() || f.size() < length) return false;
      out->resize(length);
      return length == 0 || f.read(0, out->data(), length);
    };
    if (!reader.ok()) {
      engine.load_host_fail(h.name, h.bundle + " cannot be read");
    } else if (engine.load_host(h.name, &reader, split ? tiles : SplitTileReader())) {
      ++opened, events += h.events, tracks += h.tracks;
      continue;
    }
    pod.mark(i, engine.last_error());
    std::fprintf(stderr, "strata-pack: %s\n", engine.last_error().c_str());
  }
  if (!engine.load_hosts_end()) {
    std::fprintf(stderr, "strata-pack: %s\n", engine.last_error().c_str());
    return 1;
  }
  const TraceStore& s = *engine.store();
  std::printf(
      "opened %zu of %zu hosts as one trace: %zu events, %zu tracks, %zu processes, "
      "%.3f ms\n",
      opened, pod.hosts().size(), s.events.size(), s.tracks.size(), s.processes.size(),
      (s.end_ns - s.start_ns) / 1e6);
  int status = opened == pod.hosts().size() ? 0 : 1;
  if (s.events.size() != events || s.tracks.size() != tracks) {
    std::fprintf(stderr,
                 "strata-pack: the trace holds %zu events and %zu tracks, pod.json lists %llu "
                 "and %llu for the hosts opened\n",
                 s.events.size(), s.tracks.size(), static_cast<unsigned long long>(events),
                 static_cast<unsigned long long>(tracks));
    status = 1;
  }
  for (const std::string& e : s.errors) std::fprintf(stderr, "strata-pack: %s\n", e.c_str());
  return status;
}

}  // namespace strata::bundle
