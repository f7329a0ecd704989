// libFuzzer target for the HLO text parser through the HLO importer (input split into up to
// three feed() calls; gzip/zstd heads are inflated as in the browser), then the graph viewer's
// reads of every parsed module (hlo_fuzz_util.h).
#include "core/formats/hlo/hlo_importer.h"
#include "core/formats/hlo/hlo_text_parser.h"
#include "fuzz_target.h"
#include "hlo_fuzz_util.h"

namespace {
// Large enough for any interesting module, small enough that a fuzzed run stays fast.
constexpr size_t kFuzzHloCap = size_t{1} << 20;
}  // namespace

STRATA_FUZZ_TARGET(hlo_text) {
  if (size < 2) return;
  const size_t n = size - 2;
  const uint8_t* body = data + 2;
  size_t a = 0, b = 0;
  strata::fuzz::split_points(data[0], data[1], n, &a, &b);
  strata::hlo::looks_like_hlo_text(std::string_view(reinterpret_cast<const char*>(body), n));

  strata::hlo::HloImporter importer(strata::hlo::HloFileKind::kText, 7, kFuzzHloCap);
  importer.feed(body, a);
  importer.feed(body + a, b - a);
  importer.feed(body + b, n - b);
  importer.finish();
  for (const strata::hlo::HloModule& m : importer.modules()) strata::fuzz::check_hlo_module(m);
}
