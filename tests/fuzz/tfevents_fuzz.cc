// libFuzzer target for the TensorBoard event-file reader. Random bytes almost never pass a
// CRC-32C, so the input is read as records to frame: each a 2-byte little-endian length and
// that many Event bytes, framed here with correct CRCs; the first byte, when odd, then flips
// one bit of the framed file (so the CRC and cut-record paths run too). Built only with
// -DSTRATA_FUZZ=ON and clang (see scripts/fuzz.sh).

#include "fuzz_target.h"
#include "loss_log_fuzz.h"

STRATA_FUZZ_TARGET(tfevents) { strata::fuzz::fuzz_tfevents(data, size); }
