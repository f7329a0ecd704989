// A small CSV reader for the profilers' tabular outputs (Ascend ASCEND_PROFILER_OUTPUT/*.csv):
// RFC 4180 quoting ("a,b", "" for a quote), LF or CRLF line ends, a UTF-8 BOM, and fields
// trimmed of spaces and tabs (Ascend writes timestamps as "1736408883573957.920\t" so that
// spreadsheets keep them as text). Columns are found by header name, never by position.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // rows shorter than the header read as empty cells
  // Index of the column named `name` (case-insensitive, trimmed), or -1.
  int column(std::string_view name) const;
  const std::string& cell(size_t row, int col) const;
};

// Parses the whole text. False (with a message) when there is no header line or a quote is
// left open; rows before the problem are kept.
bool csv_parse(std::string_view text, CsvTable* out, std::string* error);

// "1736408883573957.920" µs → ns without going through a double (epoch µs × 1000 does not fit
// a double's 53 bits). False on anything but [-]digits[.digits].
bool csv_parse_us_to_ns(std::string_view s, int64_t* ns);
// A plain decimal number; false when empty or malformed.
bool csv_parse_number(std::string_view s, double* v);

}  // namespace strata
