// What the lazy pod tests share: a host's bundle as the page reaches it, the hosts opened into an
// engine as pod.js opens them (whole or lazily), and feeding the tiles a lazy pod asks for from
// the host each is in, as bundle.js does.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/formats/sqlite/byte_reader.h"
#include "engine/engine.h"
#include "engine/lazy_tiles.h"
#include "pod_test_util.h"
#include "tools/pack/bundle_file.h"

namespace strata::testing {

// A host's bundle as the page reaches it: its bytes (a split host's manifest.strata), and its
// tiles by index (a split host's tiles/<i>.zst).
struct HostFiles {
  std::string name, bytes;
  bundle::BundleFile file;
  bool split = false;
};

inline void host_files(const Pod& p, const std::string& name, HostFiles* h) {
  h->name = name;
  std::string error;
  h->split = !read_file(p.dir + "/" + name + ".strata", &h->bytes);
  if (h->split) {
    ASSERT_TRUE(read_file(p.dir + "/" + name + "/manifest.strata", &h->bytes));
  }
  ASSERT_TRUE(h->file.open(p.dir + "/" + name + (h->split ? "" : ".strata"), &error)) << error;
}

// Opens `hosts` into `e` as pod.js does: whole (every tile read) or lazy (indices only).
inline void open_hosts(Engine* e, std::vector<HostFiles>* hosts, bool lazy) {
  e->load_hosts_begin("pod.json", lazy);
  for (HostFiles& h : *hosts) {
    MemoryByteReader reader(reinterpret_cast<const uint8_t*>(h.bytes.data()), h.bytes.size());
    const bundle::BundleFile& f = h.file;
    const SplitTileReader tiles = [&f](uint32_t i, uint32_t length, std::vector<uint8_t>* out) {
      *out = f.tile_bytes(i);
      return out->size() == length;
    };
    EXPECT_TRUE(e->load_host(h.name, &reader, h.split ? tiles : SplitTileReader()))
        << e->last_error();
  }
  ASSERT_TRUE(e->load_hosts_end()) << e->last_error();
}

// Feeds the tiles `want` lists from the host each is in (tile_part); `corrupt`: that tile's
// bytes are replaced by garbage.
inline size_t feed(Engine* e, std::vector<HostFiles>* hosts, const std::vector<uint32_t>& want,
                   uint32_t corrupt = kNone) {
  LazyTiles* t = e->lazy_tiles();
  EXPECT_NE(t, nullptr);
  for (uint32_t i : want) {
    uint32_t local = 0;
    const int part = t->tile_part(i, &local);
    EXPECT_GE(part, 0);
    EXPECT_LT(static_cast<size_t>(part), hosts->size());
    std::vector<uint8_t> b = (*hosts)[static_cast<size_t>(part)].file.tile_bytes(local);
    uint64_t offset = 0;
    uint32_t length = 0;
    EXPECT_TRUE(t->tile_range(i, &offset, &length));
    EXPECT_EQ(length, b.size());
    if (i == corrupt) std::fill(b.begin(), b.end(), 0x5a);
    t->feed(i, b.data(), b.size());
  }
  return want.size();
}

}  // namespace strata::testing
