// The Memory tab's model from an Ascend PyTorch profiler db, as the text export's memory CSVs
// give it (core/memory/ascend_memory.h), devices named "NPU:<deviceId>" as those files do:
//   MEMORY_RECORD   a series per (device, component from STRING_IDS): allocated, reserved
//   NPU_MEM         the "app" rows as the "APP" series (reserved = HBM + DDR), as
//                   memory_record.csv writes them
//   NPU_MODULE_MEM  reserved-only series per (device, module from ENUM_MODULE)
//   OP_MEMORY       one allocation per row (operator name from STRING_IDS, bytes, allocation and
//                   release time; no release time = not released in the profile)
//   NPU_INFO        the device's chip name, as a capacity of 0 bytes saying so (the db states
//                   no HBM size)
#pragma once
#include "core/formats/sqlite/sqlite_db.h"
#include "core/memory/memory_data.h"

namespace strata {

// Appends to `out` (call memory_finish after). False when the db holds no memory table.
bool ascend_db_memory(SqliteDb* db, MemoryData* out);

}  // namespace strata
