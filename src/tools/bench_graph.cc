// scripts/bench-graph's native half: lays out generated HLO-shaped graphs of the given sizes
// (and, with --hlo, a real module through the HLO model) and prints one JSON line per case:
// {"case", "nodes", "edges", "ms", "cpuMs", "crossings", "dummies"}; the best of --runs runs.
// cpuMs is process CPU time: on a shared machine wall time also counts other people's work.
// --no-ports lays out without group ports (edges drawn straight into opened groups), to
// measure what routing edges through the groups' borders costs.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "core/formats/hlo/hlo_text_parser.h"
#include "core/graph/dag_gen.h"
#include "core/graph/graph_message.h"
#include "core/graph/hlo_graph.h"
#include "core/graph/layered_layout.h"

namespace {

using strata::graph::GraphLayout;
using strata::graph::LayoutInput;
strata::graph::LayoutOptions g_options;

void run_case(const std::string& name, const LayoutInput& in, int runs) {
  double best = 1e300, best_cpu = 1e300;
  GraphLayout out;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    out = strata::graph::layered_layout(in, g_options);
    const std::clock_t c1 = std::clock();
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
    best_cpu = std::min(best_cpu, 1000.0 * static_cast<double>(c1 - c0) / CLOCKS_PER_SEC);
  }
  std::printf(
      "{\"case\":\"%s\",\"nodes\":%zu,\"edges\":%zu,\"ms\":%.1f,\"cpuMs\":%.1f,\"crossings\":%lld,"
      "\"dummies\":%lld}\n",
      name.c_str(), in.width.size(), in.edge_src.size(), best, best_cpu,
      static_cast<long long>(out.crossings), static_cast<long long>(out.dummies));
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 3;
  std::vector<uint32_t> sizes;
  std::vector<std::string> hlo_files;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--no-ports")) {
      g_options.group_ports = false;
    } else if (!std::strcmp(argv[i], "--hlo") && i + 1 < argc) {
      hlo_files.push_back(argv[++i]);
    } else {
      sizes.push_back(static_cast<uint32_t>(std::strtoul(argv[i], nullptr, 10)));
    }
  }
  if (sizes.empty() && hlo_files.empty()) sizes = {10000, 50000};
  // Real modules: the entry computation as the tab first shows it (fusions collapsed), and with
  // every fusion and call opened (nested groups), the biggest graph one module gives.
  for (const std::string& path : hlo_files) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
      std::fprintf(stderr, "cannot read %s\n", path.c_str());
      return 1;
    }
    std::string text;
    char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    std::fclose(f);
    std::vector<strata::hlo::HloModule> modules;
    std::string error;
    if (!strata::hlo::parse_hlo_text(text, &modules, &error) || modules.empty()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), error.c_str());
      return 1;
    }
    const strata::hlo::HloModule& m = modules[0];
    const std::string base = path.substr(path.find_last_of('/') + 1);
    for (bool open : {false, true}) {
      strata::hlo::VisibleGraphRequest req;
      if (open)
        for (uint32_t i = 0; i < m.instruction_count(); ++i)
          if (!m.called_of(i).empty()) req.expanded.push_back(i);
      const auto vis = strata::hlo::build_visible_graph(m, req);
      run_case(base + (open ? " entry, all opened" : " entry"),
               strata::graph::hlo_layout_input(m, vis), runs);
    }
  }
  for (uint32_t n : sizes) {
    strata::graph::DagShape shape;
    shape.nodes = n;
    shape.seed = 7;
    shape.back_edge_share = 0.002;
    run_case("generated " + std::to_string(n), strata::graph::make_hlo_like_dag(shape), runs);
  }
  return 0;
}
