#include "core/formats/loss_log/text_sniff.h"

namespace strata {

bool looks_like_text_log(const uint8_t* p, size_t n) {
  if (n == 0) return false;
  if (n >= 2 && p[0] == 0x1F && p[1] == 0x8B) return false;                                  // gzip
  if (n >= 4 && p[0] == 0x28 && p[1] == 0xB5 && p[2] == 0x2F && p[3] == 0xFD) return false;  // zstd
  size_t i = 0;
  if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) i = 3;
  size_t j = i;
  while (j < n && (p[j] == ' ' || p[j] == '\t' || p[j] == '\r' || p[j] == '\n')) ++j;
  if (j < n && (p[j] == '{' || p[j] == '[')) {
    // A JSON trace opens with '{"' or '[{' (or an empty container); a log line may well start
    // with "[2024-01-01 12:00:00]" or "[INFO]".
    size_t k = j + 1;
    while (k < n && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r' || p[k] == '\n')) ++k;
    if (k == n) return false;
    if (p[j] == '{' && (p[k] == '"' || p[k] == '}')) return false;
    if (p[j] == '[' && (p[k] == '{' || p[k] == ']')) return false;
  }
  const size_t limit = n < (64u << 10) ? n : (64u << 10);
  for (; i < limit; ++i) {
    const uint8_t c = p[i];
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1B)
      return false;
    if (c == 0x7F) return false;
  }
  return true;
}

}  // namespace strata
