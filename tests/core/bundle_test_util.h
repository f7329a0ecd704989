// What the bundle tests share: a generated trace to pack, a trace packed into a bundle beside
// the same trace loaded whole (the answers a bundle must give), and feeding a lazy bundle the
// tiles it asks for, as the worker does.
#pragma once
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "core/formats/sqlite/byte_reader.h"
#include "engine/bundle_session.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "tools/pack/bundle_file.h"
#include "tools/pack/bundle_writer.h"
#include "tools/pack/pack_analyses.h"

namespace strata::testing {

// A Chrome trace with nested slices on several threads, instants, long and short events (so the
// pyramid keeps levels with bins and long events) and two counters; `base_us` shifts its clock.
inline std::string generated_trace(int threads, int per_thread, int64_t base_us = 1000) {
  std::string j = "{\"traceEvents\":[\n";
  char buf[256];
  for (int t = 0; t < threads; ++t) {
    int64_t ts = base_us + t * 3;
    for (int i = 0; i < per_thread; ++i) {
      const int64_t dur = 2 + (i * 7919 + t * 31) % (i % 50 == 0 ? 5000 : 40);
      std::snprintf(buf, sizeof(buf),
                    "{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%lld,\"dur\":%lld,"
                    "\"name\":\"op%d\",\"cat\":\"c%d\",\"args\":{\"i\":%d}},\n",
                    t, static_cast<long long>(ts), static_cast<long long>(dur), i % 37, i % 3, i);
      j += buf;
      if (dur > 3) {  // a child inside
        std::snprintf(
            buf, sizeof(buf),
            "{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%lld,\"dur\":1,\"name\":\"k%d\"},\n", t,
            static_cast<long long>(ts + 1), i % 11);
        j += buf;
      }
      if (i % 97 == 0) {
        std::snprintf(
            buf, sizeof(buf),
            "{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":%d,\"ts\":%lld,\"name\":\"mark\"},\n", t,
            static_cast<long long>(ts));
        j += buf;
      }
      if (t == 0 && i % 5 == 0) {
        std::snprintf(buf, sizeof(buf),
                      "{\"ph\":\"C\",\"pid\":1,\"ts\":%lld,\"name\":\"mem\",\"args\":{\"a\":%d,"
                      "\"b\":%d}},\n",
                      static_cast<long long>(ts), i % 1000, (i * 3) % 17);
        j += buf;
      }
      ts += dur + 1 + i % 4;
    }
  }
  j += "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"host\"}}]}\n";
  return j;
}

// A trace loaded whole (`loaded`) and packed into a bundle (`file`, at `path`) of small tiles,
// several per row and level, with its analyses as strata-pack packs them.
struct PackedTrace {
  Engine loaded;
  bundle::BundleFile file;
  std::string path;
};

inline void pack_trace(PackedTrace* p, const std::string& name, const std::string& bytes,
                       bool split = false, uint32_t tile_items = 257) {
  ASSERT_TRUE(load_trace(&p->loaded, name, bytes)) << p->loaded.last_error();
  bundle::PackOptions o;
  o.out = scratch_path(name + (split ? ".split" : ".strata"));
  o.split = split;
  o.tile_items = tile_items;
  bundle::pack_analyses(p->loaded, &o);
  bundle::PackStats stats;
  std::string error;
  ASSERT_TRUE(bundle::write_bundle(*p->loaded.store(), p->loaded.pyramid(), o, &stats, &error))
      << error;
  ASSERT_TRUE(p->file.open(o.out, &error)) << error;
  p->path = o.out;
}

// Opens the bundle of `p` lazily in `e` (its header, index and search blob only).
inline void open_lazy(Engine* e, const PackedTrace& p) {
  FileByteReader r(p.path);
  ASSERT_TRUE(e->open_bundle_lazy(p.path.substr(p.path.rfind('/') + 1), &r)) << e->last_error();
}

// Feeds the lazy bundle of `e` what `wanted()` lists, again while it lists more (a query planned
// in rounds, as the worker's fetchWanted does, at most `rounds` times); the tiles fed.
template <typename Wanted>
size_t feed_rounds(Engine* e, const bundle::BundleFile& f, Wanted wanted, int rounds = 3) {
  size_t fed = 0;
  for (int k = 0; k < rounds; ++k) {
    const std::vector<uint32_t> want = wanted();
    if (want.empty()) break;
    for (uint32_t i : want) {
      const std::vector<uint8_t> b = f.tile_bytes(i);
      e->bundle_session()->feed(i, b.data(), b.size());
    }
    fed += want.size();
  }
  return fed;
}

// Feeds the lazy bundle of `e` the tiles listed, read from `f`; the number fed.
inline size_t feed_tiles(Engine* e, const bundle::BundleFile& f,
                         const std::vector<uint32_t>& tiles) {
  for (uint32_t i : tiles) {
    const std::vector<uint8_t> b = f.tile_bytes(i);
    e->bundle_session()->feed(i, b.data(), b.size());
  }
  return tiles.size();
}

// A region select's args: [t0, t1) (display ns) over rows given as {display track, depth from,
// depth to}.
inline std::string region_args(double t0, double t1, const std::vector<std::vector<int>>& rows) {
  std::string a = "{\"t0\":" + std::to_string(static_cast<int64_t>(t0)) +
                  ",\"t1\":" + std::to_string(static_cast<int64_t>(t1)) + ",\"rows\":[";
  for (size_t i = 0; i < rows.size(); ++i)
    a += (i ? ",[" : "[") + std::to_string(rows[i][0]) + "," + std::to_string(rows[i][1]) + "," +
         std::to_string(rows[i][2]) + "]";
  return a + "]}";
}

// Details JSON without the note a lazy trace adds when an event's record is not read (a trace
// read whole has none for an unread record).
inline std::string without_record_note(std::string d) {
  const size_t note = d.find(",\"recordNote\":");
  if (note != std::string::npos) d = d.substr(0, note) + "}";
  return d;
}

}  // namespace strata::testing
