// Labels the views share: byte sizes in decimal units (file sizes: 1 MB = 10^6 B, as the page
// and the loss view show them) or binary ones (memory: 1 MiB = 2^20 B, as allocators count).
#pragma once
#include <string>

namespace strata {

enum class ByteUnits { kDecimal, kBinary };

// "1.23 GB", "45.6 MB", "7.8 KB", "12 B" (or GiB / MiB / KiB); MB (MiB) to `mb_decimals` places.
std::string byte_label(double bytes, ByteUnits units, int mb_decimals = 1);

}  // namespace strata
