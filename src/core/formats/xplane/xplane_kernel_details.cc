#include "core/formats/xplane/xplane_kernel_details.h"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace strata {

namespace {

// Bounds no real launch exceeds (NVIDIA: 255 registers per thread, 228 KiB of shared memory
// per block on sm_90; AMD CDNA: 512 VGPRs, 64 KiB of LDS); a value beyond is an unset field.
constexpr uint64_t kMaxRegisters = 512;
constexpr uint64_t kMaxSharedMemory = 1u << 20;
constexpr uint64_t kMaxGridDim = (uint64_t{1} << 31) - 1;
constexpr uint64_t kMaxBlockThreads = 1024;

bool parse_u64(std::string_view t, uint64_t* v) {
  if (t.empty() || t.size() > 20) return false;
  uint64_t n = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return false;
    const uint64_t next = n * 10 + static_cast<uint64_t>(c - '0');
    if (next < n) return false;
    n = next;
  }
  *v = n;
  return true;
}

bool parse_dims(std::string_view t, uint64_t d[3]) {
  for (int i = 0; i < 3; ++i) {
    const size_t comma = i < 2 ? t.find(',') : t.size();
    if (comma == std::string_view::npos || !parse_u64(t.substr(0, comma), &d[i])) return false;
    t = i < 2 ? t.substr(comma + 1) : std::string_view();
  }
  return true;
}

}  // namespace

bool parse_kernel_details(std::string_view text, KernelLaunch* out) {
  bool any = false, shared_seen = false;
  uint64_t shared = 0;
  bool shared_bad = false;
  while (!text.empty()) {
    const size_t space = text.find(' ');
    const std::string_view field = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
    const size_t colon = field.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = field.substr(0, colon), value = field.substr(colon + 1);
    uint64_t v = 0, d[3] = {0, 0, 0};
    if (key == "regs") {
      any = true;
      if (parse_u64(value, &v) && v <= kMaxRegisters) {
        out->registers = static_cast<uint32_t>(v);
        out->has |= KernelLaunch::kRegisters;
      } else {
        out->has |= kUnsetRegisters;
      }
    } else if (key == "static_shared" || key == "dynamic_shared" || key == "shm") {
      any = shared_seen = true;
      if (parse_u64(value, &v) && v <= kMaxSharedMemory)
        shared += v;
      else
        shared_bad = true;
    } else if (key == "grid" || key == "block") {
      any = true;
      const bool grid = key == "grid";
      bool ok = parse_dims(value, d);
      for (uint64_t x : d) ok = ok && x >= 1 && x <= kMaxGridDim;
      if (ok && !grid) ok = d[0] * d[1] * d[2] <= kMaxBlockThreads;
      const uint8_t bit = grid ? KernelLaunch::kGrid : KernelLaunch::kBlock;
      if (!ok) {
        out->has |= kUnsetShape;
        continue;
      }
      uint32_t* dst = grid ? out->grid : out->block;
      for (int i = 0; i < 3; ++i) dst[i] = static_cast<uint32_t>(d[i]);
      out->has |= bit;
    } else if (key == "occ_pct") {
      any = true;
      const std::string s(value);
      char* end = nullptr;
      const double pct = std::strtod(s.c_str(), &end);
      if (!s.empty() && end == s.c_str() + s.size() && pct > 0 && pct <= 100) {
        out->occupancy_pct = static_cast<float>(pct);
        out->has |= KernelLaunch::kOccupancy;
      } else {
        out->has |= kUnsetOccupancy;
      }
    }
  }
  if (shared_seen) {
    if (!shared_bad && shared <= kMaxSharedMemory) {
      out->shared_memory = shared;
      out->has |= KernelLaunch::kSharedMemory;
    } else {
      out->has |= kUnsetShape;
    }
  }
  return any;
}

}  // namespace strata
