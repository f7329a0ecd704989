// strata_hlo_stats: parses an HLO file (text, HloProto binary, or an XSpace with "Hlo Proto"
// stats) and prints per module its computations, instructions, operand edges and the parse
// time, for scripts/bench-* and for checking a dump by hand.
//   strata_hlo_stats FILE [--repeat N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "core/formats/hlo/hlo_proto_parser.h"
#include "core/formats/hlo/hlo_text_parser.h"
#include "core/formats/hlo/xplane_hlo.h"

namespace {

bool read_file(const char* path, std::string* out) {
  FILE* f = std::fopen(path, "rb");
  if (!f) return false;
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) out->append(buf, n);
  std::fclose(f);
  return true;
}

double cpu_ms() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

bool ends_with(const std::string& s, const char* suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [--repeat N]\n", argv[0]);
    return 2;
  }
  int repeat = 1;
  for (int i = 2; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--repeat") == 0) repeat = std::max(1, std::atoi(argv[i + 1]));
  std::string bytes;
  if (!read_file(argv[1], &bytes)) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  using namespace strata::hlo;
  const std::string path = argv[1];
  const char* kind = looks_like_hlo_text(bytes)      ? "text"
                     : ends_with(path, ".xplane.pb") ? "xplane"
                                                     : "proto";
  std::vector<HloModule> modules;
  std::vector<std::string> errors;
  double best_ms = 1e300, best_cpu_ms = 1e300;
  for (int r = 0; r < repeat; ++r) {
    modules.clear();
    errors.clear();
    std::string error;
    const double c0 = cpu_ms();
    auto t0 = std::chrono::steady_clock::now();
    bool ok;
    const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
    if (kind[0] == 't') {
      ok = parse_hlo_text(bytes, &modules, &error);
    } else if (kind[0] == 'x') {
      ok = parse_xplane_hlo(data, bytes.size(), &modules, &errors);
    } else {
      modules.emplace_back();
      ok = parse_hlo_proto(data, bytes.size(), &modules.back(), &error);
      if (!ok) modules.pop_back();
    }
    auto t1 = std::chrono::steady_clock::now();
    best_ms = std::min(best_ms, std::chrono::duration<double, std::milli>(t1 - t0).count());
    best_cpu_ms = std::min(best_cpu_ms, cpu_ms() - c0);
    if (!ok && !error.empty()) errors.push_back(error);
  }
  std::printf("file %s (%s, %zu bytes)\n", path.c_str(), kind, bytes.size());
  size_t instructions = 0;
  for (const HloModule& m : modules) {
    size_t fused = 0;
    for (uint8_t f : m.comp_is_fusion) fused += f;
    instructions += m.instruction_count();
    std::printf(
        "module %s program_id %lld: %u computations (%zu fused), %u instructions, %zu "
        "operand edges, entry %s\n",
        m.module_name.c_str(), static_cast<long long>(m.program_id), m.computation_count(), fused,
        m.instruction_count(), m.operands.size(),
        m.entry == strata::kNone ? "-" : std::string(m.str(m.comp_name[m.entry])).c_str());
  }
  for (const std::string& e : errors) std::printf("error: %s\n", e.c_str());
  // CPU time as well as wall time: on a shared machine the wall time includes waiting.
  std::printf(
      "parse %.3f ms wall, %.3f ms cpu (best of %d), %.1f MB/s by cpu, %zu modules, %zu "
      "instructions\n",
      best_ms, best_cpu_ms, repeat, bytes.size() / 1e6 / (best_cpu_ms / 1e3), modules.size(),
      instructions);
  return errors.empty() ? 0 : 1;
}
