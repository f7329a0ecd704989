// libFuzzer target for the JSON training-log readers (JSON lines and JSON documents of records)
// and their sniffers. Built only with -DSTRATA_FUZZ=ON and clang (see scripts/fuzz.sh).
#include "fuzz_target.h"
#include "loss_log_fuzz.h"

STRATA_FUZZ_TARGET(loss_jsonl) { strata::fuzz::fuzz_json_logs(data, size); }
