#include "core/formats/ascend_csv/ascend_csv_kind.h"

#include <algorithm>
#include <initializer_list>
#include <string>

namespace strata {

namespace {

bool has(const CsvTable& t, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (t.column(n) < 0) return false;
  return true;
}

}  // namespace

AscendCsvKind ascend_csv_table_kind(const CsvTable& t) {
  if (has(t, {"Name", "Size(KB)", "Allocation Time(us)", "Release Time(us)"}))
    return AscendCsvKind::kOperatorMemory;
  if (has(t, {"Component", "Timestamp(us)", "Total Allocated(MB)", "Total Reserved(MB)"}))
    return AscendCsvKind::kMemoryRecord;
  if (has(t, {"Component", "Timestamp(us)", "Total Reserved(MB)"}))
    return AscendCsvKind::kModuleMem;
  return AscendCsvKind::kOther;
}

AscendCsvKind ascend_csv_kind(std::string_view first_line) {
  CsvTable t;
  std::string err;
  const size_t nl = first_line.find('\n');
  if (!csv_parse(first_line.substr(0, std::min<size_t>(nl, 4096)), &t, &err))
    return AscendCsvKind::kOther;
  return ascend_csv_table_kind(t);
}

}  // namespace strata
