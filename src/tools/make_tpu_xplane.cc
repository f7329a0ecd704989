// strata_make_tpu_xplane <out.xplane.pb> <million events> [cores] [big share] [big lines]
//
// Writes a TPU-shaped XSpace for scripts/bench-analysis: `cores` TensorCore planes
// ("/device:TPU:N") with the plane's peak stats, and on each an XLA Modules row (one module
// event per step), a Steps row and an XLA Ops row of back-to-back ops, every 8th one with an
// op nested in it, whose event metadata carry hlo_category, flops, bytes_accessed, long_name,
// deduplicated_name and a program id above 2^63, as XProf's TPU planes do. The wire format is
// written by hand, plane by plane, so a 10 M-event file needs no protobuf objects.
// `big share` (0-1) gives the first plane that share of the events, the rest split evenly, and
// `big lines` spreads its ops over that many XLA Ops lines, for scripts/bench-parallel --xspace
// (a plane that dominates the file, cut at its lines).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/formats/protobuf/wire.h"

namespace {

using strata::wire::append_varint;

void tag(std::string* o, uint32_t field, uint32_t type) { append_varint(o, field << 3 | type); }
void len_field(std::string* o, uint32_t field, const std::string& payload) {
  tag(o, field, 2);
  append_varint(o, payload.size());
  o->append(payload);
}
void varint_field(std::string* o, uint32_t field, uint64_t v) {
  tag(o, field, 0);
  append_varint(o, v);
}

std::string stat_uint(int64_t id, uint64_t v) {
  std::string s;
  varint_field(&s, 1, static_cast<uint64_t>(id));
  varint_field(&s, 3, v);
  return s;
}
std::string stat_double(int64_t id, double v) {
  std::string s;
  varint_field(&s, 1, static_cast<uint64_t>(id));
  tag(&s, 2, 1);
  char b[8];
  std::memcpy(b, &v, 8);
  s.append(b, 8);
  return s;
}
std::string stat_str(int64_t id, const std::string& v) {
  std::string s;
  varint_field(&s, 1, static_cast<uint64_t>(id));
  len_field(&s, 5, v);
  return s;
}

const char* const kCategories[] = {"convolution fusion",     "loop fusion", "data formatting",
                                   "non-fusion elementwise", "custom-call", "all-reduce"};
enum Stat : int64_t {
  kCategory = 1,
  kFlops,
  kBytes,
  kLongName,
  kDedup,
  kProgramId,
  kPeakFlops,
  kPeakBw,
};
const char* const kStatNames[] = {"",
                                  "hlo_category",
                                  "flops",
                                  "bytes_accessed",
                                  "long_name",
                                  "deduplicated_name",
                                  "program_id",
                                  "peak_teraflops_per_second",
                                  "peak_hbm_bw_gigabytes_per_second"};

constexpr int kOps = 4000;  // distinct HLO ops per program
constexpr int kPrograms = 2;
constexpr int64_t kModuleMeta = kOps * kPrograms + 1;

std::string plane(int core, uint64_t events, int op_lines) {
  std::string p;
  varint_field(&p, 1, static_cast<uint64_t>(core + 1));
  len_field(&p, 2, "/device:TPU:" + std::to_string(core));
  // Lines: ops back to back (1-3 µs), every 8th with a nested op; a module event per 1000 ops.
  std::vector<std::string> op_rows(static_cast<size_t>(op_lines));
  for (int k = 0; k < op_lines; ++k) {
    varint_field(&op_rows[k], 1, k == 0 ? 2 : 100 + static_cast<uint64_t>(k));
    len_field(&op_rows[k], 2, k == 0 ? std::string("XLA Ops") : "XLA Ops " + std::to_string(k));
    varint_field(&op_rows[k], 3, 1000);
  }
  std::string modules, steps;
  varint_field(&modules, 1, 1);
  len_field(&modules, 2, "XLA Modules");
  varint_field(&modules, 3, 1000);
  varint_field(&steps, 1, 3);
  len_field(&steps, 2, "Steps");
  varint_field(&steps, 3, 1000);
  uint64_t offset = 0, written = 0, module_start = 0, in_module = 0;
  uint64_t rng = 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(core);
  int program = 0;
  std::string e;
  auto event = [&](std::string* line, int64_t meta, uint64_t at, uint64_t dur) {
    e.clear();
    varint_field(&e, 1, static_cast<uint64_t>(meta));
    varint_field(&e, 2, at);
    varint_field(&e, 3, dur);
    len_field(line, 4, e);
    ++written;
  };
  while (written < events) {
    std::string& ops = op_rows[written * op_rows.size() / events];
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    const int op = static_cast<int>((rng >> 33) % kOps);
    const uint64_t dur = 1'000'000 + (rng >> 20) % 2'000'000;  // ps
    const int64_t meta = 1 + program * kOps + op;
    event(&ops, meta, offset, dur);
    if (op % 8 == 0 && written < events)
      event(&ops, 1 + program * kOps + (op + 1) % kOps, offset + dur / 4, dur / 2);
    offset += dur + 100'000;
    if (++in_module == 1000 || written >= events) {
      event(&modules, kModuleMeta + program, module_start, offset - module_start);
      event(&steps, kModuleMeta + kPrograms, module_start, offset - module_start);
      module_start = offset, in_module = 0, program = (program + 1) % kPrograms;
    }
  }
  len_field(&p, 3, modules);
  for (const std::string& ops : op_rows) len_field(&p, 3, ops);
  len_field(&p, 3, steps);
  // Event metadata: the ops of each program, the modules, the step.
  std::string meta, entry, stats;
  auto add_meta = [&](int64_t id, const std::string& name, const std::vector<std::string>& st) {
    meta.clear();
    varint_field(&meta, 1, static_cast<uint64_t>(id));
    len_field(&meta, 2, name);
    for (const std::string& s : st) len_field(&meta, 5, s);
    entry.clear();
    varint_field(&entry, 1, static_cast<uint64_t>(id));
    len_field(&entry, 2, meta);
    len_field(&p, 4, entry);
  };
  for (int pr = 0; pr < kPrograms; ++pr) {
    const uint64_t program_id = (uint64_t{1} << 63) + 1000 + static_cast<uint64_t>(pr);
    for (int op = 0; op < kOps; ++op) {
      const std::string name = "fusion." + std::to_string(op);
      add_meta(1 + pr * kOps + op, name,
               {stat_str(kCategory, kCategories[op % 6]),
                stat_uint(kFlops, static_cast<uint64_t>(op) * 1'000'000),
                stat_uint(kBytes, 4096 + static_cast<uint64_t>(op) * 512),
                stat_str(kLongName, "%" + name + " = bf16[128,1024] fusion(...)"),
                stat_str(kDedup, "fusion." + std::to_string(op - op % 4)),
                stat_uint(kProgramId, program_id)});
    }
    add_meta(kModuleMeta + pr,
             "jit_step_" + std::to_string(pr) + "(" + std::to_string(program_id) + ")", {});
  }
  add_meta(kModuleMeta + kPrograms, "step", {});
  for (int64_t id = 1; id <= kPeakBw; ++id) {
    meta.clear();
    varint_field(&meta, 1, static_cast<uint64_t>(id));
    len_field(&meta, 2, kStatNames[id]);
    entry.clear();
    varint_field(&entry, 1, static_cast<uint64_t>(id));
    len_field(&entry, 2, meta);
    len_field(&p, 5, entry);
  }
  len_field(&p, 6, stat_double(kPeakFlops, 197));
  len_field(&p, 6, stat_double(kPeakBw, 819));
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: %s <out.xplane.pb> <million events> [cores] [big share] [big lines]\n",
                 argv[0]);
    return 2;
  }
  const double millions = std::atof(argv[2]);
  const int cores = argc > 3 ? std::atoi(argv[3]) : 4;
  const double big = argc > 4 ? std::atof(argv[4]) : 0;
  const int big_lines = argc > 5 ? std::atoi(argv[5]) : 1;
  if (millions <= 0 || cores <= 0 || big < 0 || big >= 1 || big_lines <= 0) return 2;
  FILE* f = std::fopen(argv[1], "wb");
  if (!f) {
    std::perror(argv[1]);
    return 1;
  }
  const double total = millions * 1e6;
  const auto per_core = static_cast<uint64_t>(total / cores);
  const auto first = big > 0 ? static_cast<uint64_t>(total * big) : per_core;
  const auto rest =
      big > 0 && cores > 1 ? static_cast<uint64_t>(total * (1 - big) / (cores - 1)) : per_core;
  for (int c = 0; c < cores; ++c) {
    std::string out;
    len_field(&out, 1, plane(c, c == 0 ? first : rest, c == 0 ? big_lines : 1));
    std::fwrite(out.data(), 1, out.size(), f);
  }
  std::fclose(f);
  return 0;
}
