// Loading files through the Engine as the worker does: in chunks through load_buffer /
// load_commit, the first file opening the load and the others joining it as one trace. Shared
// by strata-pack and the engine benchmarks (native, and bench_analysis as a node program).
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/engine.h"

namespace strata::tools {

// False, with the reason on stderr after `who`, when a file cannot be read or the load fails;
// *bytes: the files' sizes.
inline bool stream_files(Engine* engine, const std::vector<std::string>& paths, uint64_t* bytes,
                         const char* who) {
  constexpr size_t kChunk = 32u << 20;
  *bytes = 0;
  for (size_t i = 0; i < paths.size(); ++i) {
    FILE* f = std::fopen(paths[i].c_str(), "rb");
    if (!f) {
      std::perror(paths[i].c_str());
      if (i) engine->load_fail("cannot read " + paths[i]);
      return false;
    }
    std::fseek(f, 0, SEEK_END);
    const auto size = static_cast<uint64_t>(std::ftell(f));
    std::fseek(f, 0, SEEK_SET);
    *bytes += size;
    if (i == 0)
      engine->load_begin(paths[i], size);
    else if (!engine->load_next_file(paths[i], size))
      std::fprintf(stderr, "%s: %s\n", who, engine->last_error().c_str());
    for (;;) {
      uint8_t* buf = engine->load_buffer(kChunk);
      const size_t n = std::fread(buf, 1, kChunk, f);
      if (n == 0) break;
      engine->load_commit(n);
    }
    std::fclose(f);
  }
  if (!engine->load_end()) {
    std::fprintf(stderr, "%s: the load failed: %s\n", who, engine->last_error().c_str());
    return false;
  }
  return true;
}

}  // namespace strata::tools
