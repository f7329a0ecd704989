// Is this input a plain-text log (for the loss view) rather than a trace? Decided on the
// first bytes, next to formats/format_sniffer (which chooses among trace formats):
//   gzip/zstd magic, JSON ('{"', '{}', '[{', '[]' first, spaces allowed), or any control byte other
//   than tab, CR, LF, FF, VT, ESC (colour codes) in the first 64 KB → not a log (an XSpace has
//   binary varints and field tags there); otherwise a log. Empty input is not a log.
#pragma once
#include <cstddef>
#include <cstdint>

namespace strata {

bool looks_like_text_log(const uint8_t* data, size_t n);

}  // namespace strata
