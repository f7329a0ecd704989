// Ascend PyTorch profiler (torch_npu) memory outputs, ASCEND_PROFILER_OUTPUT/:
//   memory_record.csv    Component, Timestamp(us), Total Allocated(MB), Total Reserved(MB),
//                        ..., Device Type   → a series per (device, component)
//   npu_module_mem.csv   Component, Timestamp(us), Total Reserved(MB), Device
//                        → reserved-only series per (device, module)
//   operator_memory.csv  Name, Size(KB), Allocation Time(us), Release Time(us), ..., Device Type
//                        → allocations (an empty release time = not released in the profile)
// Told apart by their header names, matched by name. MB and KB are binary (MiB, KiB), as the
// values show (2109.6015625 MB).
#pragma once
#include <string>
#include <string_view>

#include "core/formats/ascend_csv/ascend_csv_kind.h"
#include "core/memory/memory_data.h"

namespace strata {

// Parses one of the three files into `out` (appending; call memory_finish after). False with a
// message when the text is not one of them; malformed rows are skipped and counted in
// out->warnings.
bool parse_ascend_memory_csv(std::string_view text, MemoryData* out, std::string* error);

}  // namespace strata
