// libFuzzer target for the CSV reader, the Ascend CSV kinds (by first line and by header), the
// number readers on every cell, and the memory viewer's Ascend reader (memory_record.csv,
// npu_module_mem.csv, operator_memory.csv) up to the finished chart data.
#include <string>
#include <string_view>

#include "core/formats/ascend_csv/ascend_csv_kind.h"
#include "core/formats/ascend_csv/csv_reader.h"
#include "core/memory/ascend_memory.h"
#include "core/memory/memory_data.h"
#include "fuzz_target.h"

STRATA_FUZZ_TARGET(ascend_csv) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const size_t eol = text.find('\n');
  strata::ascend_csv_kind(text.substr(0, eol));

  strata::CsvTable table;
  std::string error;
  strata::csv_parse(text, &table, &error);
  strata::ascend_csv_table_kind(table);
  for (size_t r = 0; r < table.rows.size() && r < 256; ++r) {
    for (size_t c = 0; c < table.header.size(); ++c) {
      const std::string& cell = table.cell(r, static_cast<int>(c));
      int64_t ns = 0;
      double v = 0;
      strata::csv_parse_us_to_ns(cell, &ns);
      strata::csv_parse_number(cell, &v);
    }
  }
  if (!table.header.empty()) table.column(table.header.back());

  strata::MemoryData memory;
  strata::parse_ascend_memory_csv(text, &memory, &error);
  strata::memory_finish(&memory);
}
