// libFuzzer target for the HloProto / HloModuleProto parser (the bounds-checked wire reader),
// then the graph viewer's reads of the parsed module (hlo_fuzz_util.h).
#include <string>

#include "core/formats/hlo/hlo_proto_parser.h"
#include "fuzz_target.h"
#include "hlo_fuzz_util.h"

STRATA_FUZZ_TARGET(hlo_proto) {
  strata::hlo::HloModule module;
  std::string error;
  if (strata::hlo::parse_hlo_proto(data, size, &module, &error))
    strata::fuzz::check_hlo_module(module);
}
