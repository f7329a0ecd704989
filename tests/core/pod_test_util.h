// A generated pod for the pod tests: four hosts' traces, each packed into a bundle (one file, or
// a split folder) in a scratch directory, and their pod.json as strata-pack --merge-pod writes it.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "tools/pack/bundle_writer.h"
#include "tools/pack/pod_manifest.h"

namespace strata::testing {

// Host h: `threads` threads of nested slices in process 7 named "trainer", starting at base_us,
// with "step" slices (ProfilerStep#k) of step_us each so the pack finds training steps.
inline std::string host_trace(int threads, int steps, int64_t base_us, int64_t step_us) {
  std::string j = "{\"traceEvents\":[\n";
  char buf[256];
  for (int s = 0; s < steps; ++s) {
    const int64_t ts = base_us + s * (step_us + 10);
    std::snprintf(buf, sizeof(buf),
                  "{\"ph\":\"X\",\"pid\":7,\"tid\":1,\"ts\":%lld,\"dur\":%lld,"
                  "\"name\":\"ProfilerStep#%d\",\"cat\":\"user_annotation\"},\n",
                  static_cast<long long>(ts), static_cast<long long>(step_us), s);
    j += buf;
    for (int t = 1; t <= threads; ++t)
      for (int k = 0; k < 20; ++k) {
        std::snprintf(buf, sizeof(buf),
                      "{\"ph\":\"X\",\"pid\":7,\"tid\":%d,\"ts\":%lld,\"dur\":%lld,"
                      "\"name\":\"op%d\",\"cat\":\"cpu_op\"},\n",
                      t, static_cast<long long>(ts + 1 + k * (step_us / 20)),
                      static_cast<long long>(step_us / 40), k % 5);
        j += buf;
      }
  }
  j += "{\"ph\":\"C\",\"pid\":7,\"ts\":" + std::to_string(base_us) +
       ",\"name\":\"mem\",\"args\":{\"a\":1}},\n";
  j += "{\"ph\":\"M\",\"pid\":7,\"name\":\"process_name\",\"args\":{\"name\":\"trainer\"}}]}\n";
  return j;
}

// Packs host_trace(...) into dir/<name>.strata; its store in *loaded.
// With `split`, dir/<name>/ gets manifest.strata and tiles/ (strata-pack --split).
inline void pack_host(const std::string& dir, const std::string& name, int64_t base_us,
                      int64_t step_us, Engine* loaded, bool split = false) {
  ASSERT_TRUE(load_trace(loaded, name + ".json", host_trace(2, 6, base_us, step_us)))
      << loaded->last_error();
  bundle::PackOptions o;
  o.out = dir + "/" + name + (split ? "" : ".strata");
  o.split = split;
  o.tile_items = 64;
  bundle::PackStats stats;
  std::string error;
  ASSERT_TRUE(bundle::write_bundle(*loaded->store(), loaded->pyramid(), o, &stats, &error))
      << error;
}

struct Pod {
  std::string dir;
  Engine alone[4];  // each host's trace loaded on its own
  std::string manifest;
};

// Four hosts 1 ms apart; host 2's steps are 1.5x the others'. `split`: the hosts whose bundles
// are split folders.
inline void make_pod(Pod* p, const std::string& name = "podsession",
                     const std::vector<int>& split = {}) {
  p->dir = scratch_path(name);
  ASSERT_EQ(::system(("rm -rf '" + p->dir + "' && mkdir -p '" + p->dir + "'").c_str()), 0);
  for (int h = 0; h < 4; ++h)
    pack_host(p->dir, "rank" + std::to_string(h), 10000 + h * 1000, h == 2 ? 1500 : 1000,
              &p->alone[h], std::find(split.begin(), split.end(), h) != split.end());
  const bundle::PodMergeResult r = bundle::merge_pod(p->dir);
  ASSERT_EQ(r.hosts, 4u);
  p->manifest = r.json;
}

}  // namespace strata::testing
