#include "engine/wasm/browser_byte_reader.h"

#include <emscripten/emscripten.h>

// 1 when n bytes at `offset` were copied to dst. Offsets are doubles: exact to 2^53 bytes.
// HEAPU8 is looked up after the read. The body is preprocessor tokens: clang-format splits
// "!==", so comparisons here avoid it.
EM_JS(int, strata_db_read, (double offset, uint32_t n, uint8_t* dst), {
  const read = self.strataDbRead;
  if (!read) return 0;
  try {
    const bytes = read(offset, n);
    if (bytes.length < n) return 0;
    HEAPU8.set(bytes, dst >>> 0);
    return 1;
  } catch (e) {
    return 0;
  }
});

EM_JS(int, strata_tile_read, (uint32_t index, uint32_t n, uint8_t* dst), {
  const read = self.strataTileRead;
  if (!read) return 0;
  try {
    const bytes = read(index, n);
    if (bytes.length < n) return 0;
    HEAPU8.set(bytes.subarray(0, n), dst >>> 0);
    return 1;
  } catch (e) {
    return 0;
  }
});

namespace strata {

bool BrowserByteReader::read(uint64_t offset, uint8_t* dst, size_t n) {
  if (offset > size_ || n > size_ - offset) return false;
  return strata_db_read(static_cast<double>(offset), static_cast<uint32_t>(n), dst) == 1;
}

bool browser_read_split_tile(uint32_t index, uint32_t length, std::vector<uint8_t>* out) {
  out->resize(length);
  return length == 0 || strata_tile_read(index, length, out->data()) == 1;
}

}  // namespace strata
