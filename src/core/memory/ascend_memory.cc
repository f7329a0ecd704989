#include "core/memory/ascend_memory.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/formats/ascend_csv/csv_reader.h"

namespace strata {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kKiB = 1024.0;

double mb_or_nan(const std::string& cell) {
  double v = 0;
  return csv_parse_number(cell, &v) ? v * kMiB : std::nan("");
}

}  // namespace

bool parse_ascend_memory_csv(std::string_view text, MemoryData* out, std::string* error) {
  CsvTable t;
  if (!csv_parse(text, &t, error)) return false;
  const AscendCsvKind kind = ascend_csv_table_kind(t);
  if (kind == AscendCsvKind::kOther) {
    *error =
        "not an Ascend memory CSV (expected the header of memory_record.csv, npu_module_mem.csv or "
        "operator_memory.csv)";
    return false;
  }
  size_t bad = 0;
  int device_col = t.column("Device Type");
  if (device_col < 0) device_col = t.column("Device");
  if (kind == AscendCsvKind::kOperatorMemory) {
    const int name = t.column("Name"), size = t.column("Size(KB)"),
              at = t.column("Allocation Time(us)"), rt = t.column("Release Time(us)");
    for (size_t r = 0; r < t.rows.size(); ++r) {
      double kb = 0;
      int64_t t0 = 0, t1 = kNoRelease;
      if (!csv_parse_number(t.cell(r, size), &kb) || !csv_parse_us_to_ns(t.cell(r, at), &t0)) {
        ++bad;
        continue;
      }
      if (!t.cell(r, rt).empty() && !csv_parse_us_to_ns(t.cell(r, rt), &t1)) {
        ++bad;
        continue;
      }
      out->allocations.add(t.cell(r, name), t.cell(r, device_col), kb * kKiB, t0, t1);
    }
  } else {
    const int comp = t.column("Component"), ts = t.column("Timestamp(us)"),
              alloc = t.column("Total Allocated(MB)"), resv = t.column("Total Reserved(MB)");
    std::map<std::pair<std::string, std::string>, size_t> index;  // (device, component) → series
    for (size_t r = 0; r < t.rows.size(); ++r) {
      int64_t ns = 0;
      if (!csv_parse_us_to_ns(t.cell(r, ts), &ns)) {
        ++bad;
        continue;
      }
      auto key = std::make_pair(t.cell(r, device_col), t.cell(r, comp));
      auto [it, added] = index.emplace(key, out->series.size());
      if (added) {
        out->series.emplace_back();
        out->series.back().device = key.first;
        out->series.back().component = key.second;
      }
      out->series[it->second].add(ns, alloc >= 0 ? mb_or_nan(t.cell(r, alloc)) : std::nan(""),
                                  mb_or_nan(t.cell(r, resv)));
    }
  }
  if (bad)
    out->warnings.push_back(std::to_string(bad) +
                            " rows of the Ascend CSV were malformed and skipped");
  out->sources.push_back("ascend-csv");
  return true;
}

}  // namespace strata
