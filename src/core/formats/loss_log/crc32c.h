// CRC-32C (Castagnoli), as TFRecord frames use it: each record's length and data carry a
// "masked" CRC so that a CRC of bytes that hold CRCs is not itself trivially a CRC.
#pragma once
#include <cstddef>
#include <cstdint>

namespace strata {

// Continues `crc` (0 to start) over [p, p + n).
uint32_t crc32c_extend(uint32_t crc, const uint8_t* p, size_t n);
inline uint32_t crc32c(const uint8_t* p, size_t n) { return crc32c_extend(0, p, n); }
inline uint32_t crc32c_mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

}  // namespace strata
