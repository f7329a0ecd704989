// XLA's HLO text format as XLA prints it (`HloModule name, ...`, computations, one instruction
// per statement), e.g. *.hlo, *.txt, module_*.after_optimizations.txt. A file may hold several
// modules (hlo-opt's `// -----` split files). Unknown attributes are kept as text only.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/hlo/hlo_module.h"

namespace strata::hlo {

// Appends every module of `text` to `out`. On malformed input returns false with `error` naming
// the line ("line 12: expected '=' after the instruction name"); modules completed before the
// error stay in `out`. Never reads out of `text`.
bool parse_hlo_text(std::string_view text, std::vector<HloModule>* out, std::string* error);

// True when `bytes` look like HLO text (after blank and `//` comment lines, "HloModule ").
bool looks_like_hlo_text(std::string_view bytes);

}  // namespace strata::hlo
