// libFuzzer target for the CSV/TSV training-log reader and its sniffer. Built only with
// -DSTRATA_FUZZ=ON and clang (see scripts/fuzz.sh).
#include "fuzz_target.h"
#include "loss_log_fuzz.h"

STRATA_FUZZ_TARGET(loss_csv) { strata::fuzz::fuzz_csv_logs(data, size); }
