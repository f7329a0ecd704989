#include "ui/labels.h"

#include <cmath>
#include <cstdio>

namespace strata {

std::string byte_label(double b, ByteUnits units, int mb_decimals) {
  const bool binary = units == ByteUnits::kBinary;
  const double k = binary ? 1024.0 : 1000.0;
  const char* const names[3] = {binary ? "KiB" : "KB", binary ? "MiB" : "MB",
                                binary ? "GiB" : "GB"};
  char buf[32];
  const double a = std::fabs(b);
  if (a >= k * k * k)
    std::snprintf(buf, sizeof buf, "%.2f %s", b / (k * k * k), names[2]);
  else if (a >= k * k)
    std::snprintf(buf, sizeof buf, "%.*f %s", mb_decimals, b / (k * k), names[1]);
  else if (a >= k)
    std::snprintf(buf, sizeof buf, "%.1f %s", b / k, names[0]);
  else
    std::snprintf(buf, sizeof buf, "%.0f B", b);
  return buf;
}

}  // namespace strata
