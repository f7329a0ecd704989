// strata-pack: one trace in (any format Strata loads, compressed too), one static tile bundle
// out (docs/BUNDLE.md); or the pod manifest of a directory of bundles. SQLite exports (Nsight
// Systems, Ascend) are read in place, every other format streamed as the page streams it.
//   strata-pack IN [IN2 ...] [-o OUT] [--split] [--tile-items N] [--verify]
//   strata-pack --merge-pod DIR [-o DIR/pod.json]
//   strata-pack --open-pod DIR/pod.json
//   strata-pack --verify BUNDLE
//   strata-pack --tiles BUNDLE
// Several INs load as one trace, as the page loads a run's files. OUT defaults to IN without
// its extensions plus ".strata", beside IN. --verify re-reads every tile of what it wrote.
// --open-pod opens a pod's hosts as the page does (tools/pack/pod_open.h) and checks them.
// --tiles prints a bundle's tile index, a line per tile: index, kind, level, row (or series),
// first and last time (ns), items, offset and length (bytes).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "core/formats/sqlite/byte_reader.h"
#include "engine/engine.h"
#include "tools/pack/bundle_file.h"
#include "tools/pack/bundle_writer.h"
#include "tools/pack/pack_analyses.h"
#include "tools/pack/pod_manifest.h"
#include "tools/pack/pod_open.h"
#include "tools/stream_load.h"

namespace {

using strata::bundle::BundleFile;
using strata::bundle::TileKind;

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool ends_with(const std::string& s, const char* suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

std::string default_out(std::string in) {
  for (const char* ext : {".gz", ".zst", ".json", ".pb", ".xplane", ".pftrace", ".perfetto-trace"})
    if (ends_with(in, ext)) in.resize(in.size() - std::strlen(ext));
  return in + ".strata";
}

// A profiler's SQLite export is opened where it is, as the worker does (Engine::load_sqlite).
bool is_sqlite(const std::string& path) {
  char head[16] = {};
  FILE* f = std::fopen(path.c_str(), "rb");
  const bool ok = f && std::fread(head, 1, sizeof(head), f) == sizeof(head) &&
                  std::memcmp(head, "SQLite format 3", 16) == 0;
  if (f) std::fclose(f);
  return ok;
}

// Loads the files as one trace, in 32 MB chunks as the worker feeds them.
bool load(strata::Engine* engine, const std::vector<std::string>& paths, uint64_t* bytes) {
  if (paths.size() == 1 && is_sqlite(paths[0])) {
    strata::FileByteReader reader(paths[0]);
    *bytes = reader.size();
    if (reader.ok() && engine->load_sqlite(paths[0], &reader)) return true;
    std::fprintf(stderr, "strata-pack: the load failed: %s\n", engine->last_error().c_str());
    return false;
  }
  engine->set_preview(UINT64_MAX, 0);  // no early partial store: the pack needs the whole one
  return strata::tools::stream_files(engine, paths, bytes, "strata-pack");
}

// What a reader fetches for a first view (the whole trace) and a zoom to a thousandth of it
// around the middle, 1920 px wide: the header, the index, then the tiles view_tiles() picks.
void print_views(const strata::bundle::Manifest& m) {
  if (!m.has_time) return;
  const int64_t span = m.end_ns - m.start_ns, mid = m.start_ns + span / 2;
  const struct {
    const char* name;
    int64_t t0, t1;
  } views[] = {{"whole trace", m.start_ns, m.end_ns},
               {"1/1000 zoom", mid - span / 2000, mid + span / 2000}};
  for (const auto& v : views) {
    const std::vector<uint32_t> tiles = strata::bundle::view_tiles(m, v.t0, v.t1, 1920);
    uint64_t bytes = strata::bundle::kHeaderBytes + m.header.index_length;
    for (uint32_t i : tiles) bytes += m.tiles[i].length;
    std::printf("  view %s: %zu tiles, %.1f KB fetched (header + index %.1f KB)\n", v.name,
                tiles.size(), bytes / 1e3,
                (strata::bundle::kHeaderBytes + m.header.index_length) / 1e3);
  }
}

// Decodes every tile; prints each failure. The number of tiles that failed.
size_t verify(const std::string& path) {
  BundleFile b;
  std::string error;
  if (!b.open(path, &error)) {
    std::fprintf(stderr, "strata-pack: %s: %s\n", path.c_str(), error.c_str());
    return 1;
  }
  size_t bad = 0;
  uint64_t items = 0;
  for (uint32_t i = 0; i < b.manifest().tiles.size(); ++i) {
    const strata::bundle::Tile& t = b.manifest().tiles[i];
    const std::vector<uint8_t> bytes = b.tile_bytes(i);
    bool ok;
    if (t.kind == TileKind::kEvents) {
      strata::bundle::EventTile e;
      ok = decode_events(t, bytes.data(), bytes.size(), &e, &error);
    } else if (t.kind == TileKind::kLevel) {
      strata::bundle::LevelTile l;
      ok = decode_level(t, bytes.data(), bytes.size(), &l, &error);
    } else if (t.kind == TileKind::kFlows || t.kind == TileKind::kFlowsIn) {
      strata::bundle::FlowTile f;
      ok = decode_flows(t, bytes.data(), bytes.size(), &f, &error);
    } else if (t.kind == TileKind::kAnalysis) {
      std::string text;
      ok = decode_text(t, bytes.data(), bytes.size(), &text, &error);
    } else {
      strata::bundle::CounterTile c;
      ok = decode_counter(t, bytes.data(), bytes.size(), &c, &error);
    }
    if (!ok) {
      ++bad;
      std::fprintf(stderr, "strata-pack: %s: tile %u: %s\n", path.c_str(), i, error.c_str());
    }
    items += t.count;
  }
  if (!b.search(&error)) {
    ++bad;
    std::fprintf(stderr, "strata-pack: %s: %s\n", path.c_str(), error.c_str());
  }
  std::printf("verified %s: %zu tiles, %llu items, %zu bad\n", path.c_str(),
              b.manifest().tiles.size(), static_cast<unsigned long long>(items), bad);
  print_views(b.manifest());
  return bad;
}

// The tile index, tab-separated, a line per tile. 0, or 1 when the bundle cannot be read.
int list_tiles(const std::string& path) {
  BundleFile b;
  std::string error;
  if (!b.open(path, &error)) {
    std::fprintf(stderr, "strata-pack: %s: %s\n", path.c_str(), error.c_str());
    return 1;
  }
  std::printf("tile\tkind\tlevel\trow\tt0\tt1\tcount\toffset\tlength\n");
  for (uint32_t i = 0; i < b.manifest().tiles.size(); ++i) {
    const strata::bundle::Tile& t = b.manifest().tiles[i];
    const char* kind = t.kind == TileKind::kEvents     ? "events"
                       : t.kind == TileKind::kLevel    ? "level"
                       : t.kind == TileKind::kCounter  ? "counter"
                       : t.kind == TileKind::kFlows    ? "flows"
                       : t.kind == TileKind::kFlowsIn  ? "flows-in"
                       : t.kind == TileKind::kAnalysis ? "analysis"
                                                       : "unknown";
    std::printf("%u\t%s\t%u\t%u\t%lld\t%lld\t%u\t%llu\t%u\n", i, kind, t.level, t.row,
                static_cast<long long>(t.t0), static_cast<long long>(t.t1), t.count,
                static_cast<unsigned long long>(t.offset), t.length);
  }
  return 0;
}

double cpu_s() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

int usage() {
  std::fprintf(
      stderr,
      "usage: strata-pack IN [IN2 ...] [-o OUT] [--split] [--tile-items N] [--no-analyses]\n"
      "                   [--verify]\n"
      "       strata-pack --merge-pod DIR [-o DIR/pod.json]\n"
      "       strata-pack --open-pod DIR/pod.json\n"
      "       strata-pack --verify BUNDLE\n"
      "       strata-pack --tiles BUNDLE\n");
  return 2;
}

int merge(const std::string& dir, std::string out) {
  if (out.empty()) out = dir + "/pod.json";
  const strata::bundle::PodMergeResult r = strata::bundle::merge_pod(dir);
  for (const std::string& e : r.errors) std::fprintf(stderr, "strata-pack: %s\n", e.c_str());
  if (r.hosts == 0) {
    std::fprintf(stderr, "strata-pack: no readable bundle in %s\n", dir.c_str());
    return 1;
  }
  FILE* f = std::fopen(out.c_str(), "wb");
  if (!f || std::fwrite(r.json.data(), 1, r.json.size(), f) != r.json.size()) {
    std::perror(out.c_str());
    if (f) std::fclose(f);
    return 1;
  }
  std::fclose(f);
  std::printf("%s: %zu hosts, %zu unreadable\n", out.c_str(), r.hosts, r.errors.size());
  return r.errors.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> inputs;
  strata::bundle::PackOptions o;
  std::string merge_dir, open_manifest, tiles_of;
  bool check = false, analyses = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-o" && i + 1 < argc) {
      o.out = argv[++i];
    } else if (a == "--split") {
      o.split = true;
    } else if (a == "--verify") {
      check = true;
    } else if (a == "--no-analyses") {  // a lazy bundle's analyses then need Load whole
      analyses = false;
    } else if (a == "--tile-items" && i + 1 < argc) {
      o.tile_items = static_cast<uint32_t>(std::strtoul(argv[++i], nullptr, 10));
    } else if (a == "--merge-pod" && i + 1 < argc) {
      merge_dir = argv[++i];
    } else if (a == "--open-pod" && i + 1 < argc) {
      open_manifest = argv[++i];
    } else if (a == "--tiles" && i + 1 < argc) {
      tiles_of = argv[++i];
    } else if (a.size() > 1 && a[0] == '-') {
      return usage();
    } else {
      inputs.push_back(a);
    }
  }
  if (!tiles_of.empty()) return inputs.empty() ? list_tiles(tiles_of) : usage();
  if (!open_manifest.empty())
    return inputs.empty() ? strata::bundle::open_pod(open_manifest) : usage();
  if (!merge_dir.empty()) return inputs.empty() ? merge(merge_dir, o.out) : usage();
  if (inputs.empty()) return usage();
  // A bundle given with --verify and nothing to pack: check it.
  if (check && inputs.size() == 1 && o.out.empty() &&
      (ends_with(inputs[0], ".strata") || ends_with(inputs[0], "/")))
    return verify(inputs[0]) ? 1 : 0;
  if (o.out.empty()) o.out = default_out(inputs[0]);

  const double t0 = now_s();
  strata::Engine engine;
  uint64_t bytes = 0;
  if (!load(&engine, inputs, &bytes)) return 1;
  const strata::TraceStore& s = *engine.store();
  for (const std::string& e : s.errors)
    std::fprintf(stderr, "strata-pack: warning: %s\n", e.c_str());
  const double t1 = now_s();
  strata::bundle::PackStats st;
  std::string error;
  if (analyses) strata::bundle::pack_analyses(engine, &o);
  if (!write_bundle(s, engine.pyramid(), o, &st, &error)) {
    std::fprintf(stderr, "strata-pack: %s\n", error.c_str());
    return 1;
  }
  const double t2 = now_s();
  static const char* kKinds[] = {"events", "levels", "counters", "flows", "flows in", "analyses"};
  static_assert(std::size(kKinds) == strata::bundle::kTileKinds);
  std::printf("%s: %zu events, %zu samples, %zu tracks from %.1f MB\n", o.out.c_str(),
              s.events.size(), s.samples.size(), s.tracks.size(), bytes / 1e6);
  for (int k = 0; k < strata::bundle::kTileKinds; ++k)
    std::printf("  %-8s %7llu tiles %10.1f MB (%.1f MB raw)\n", kKinds[k],
                static_cast<unsigned long long>(st.tiles[k]), st.tile_bytes[k] / 1e6,
                st.raw_bytes[k] / 1e6);
  std::printf("  index %.1f KB, search %.1f KB, bundle %.1f MB (%.1f%% of the source)\n",
              st.index_bytes / 1e3, st.search_bytes / 1e3, st.total_bytes / 1e6,
              bytes ? 100.0 * static_cast<double>(st.total_bytes) / static_cast<double>(bytes) : 0);
  std::printf("  load %.2f s, pack %.2f s, %.1f MB/s of source, %.1f CPU s (%.1f MB/s per core)\n",
              t1 - t0, t2 - t1, bytes / 1e6 / (t2 - t0), cpu_s(), bytes / 1e6 / cpu_s());
  if (check && verify(o.out)) return 1;
  return 0;
}
