// Which Ascend PyTorch profiler (torch_npu) memory output a CSV is, told by its header names:
//   memory_record.csv    Component, Timestamp(us), Total Allocated(MB), Total Reserved(MB), ...
//   npu_module_mem.csv   Component, Timestamp(us), Total Reserved(MB), Device
//   operator_memory.csv  Name, Size(KB), Allocation Time(us), Release Time(us), ...
// Parsing only: core/memory/ascend_memory builds the memory chart's data from them.
#pragma once
#include <cstdint>
#include <string_view>

#include "core/formats/ascend_csv/csv_reader.h"

namespace strata {

enum class AscendCsvKind : uint8_t { kOther, kMemoryRecord, kModuleMem, kOperatorMemory };
// From the first line of a file.
AscendCsvKind ascend_csv_kind(std::string_view first_line);
// From a parsed table's header.
AscendCsvKind ascend_csv_table_kind(const CsvTable& t);

}  // namespace strata
