// CSV / TSV metrics with a header row (pandas, Lightning's CSVLogger, TensorBoard's "download
// CSV": `Wall time,Step,Value`): each column that holds numbers is a series, named by its header.
// The delimiter is the header's most frequent of tab, semicolon and comma (outside quotes).
// Fields may be quoted ("a ""b"", c"), a quoted field may hold the delimiter and newlines. A row
// gives a point when its series and step fields are numbers (or the step is the row's number).
#pragma once
#include <string>
#include <vector>

#include "core/formats/loss_log/metrics_reader.h"

namespace strata {

// A header row of at least two names (not all numbers) and a next row with as many fields, at
// least one a number, in the same delimiter. Is that what these first bytes start with?
bool looks_like_delimited_metrics(const uint8_t* p, size_t n);

class DelimitedReader : public MetricsReader {
 public:
  static constexpr size_t kMaxField = 64u << 10;  // longer fields are cut (not held whole)
  static constexpr size_t kMaxFields = 4096;

  explicit DelimitedReader(MetricsSelection sel) : sel_(std::move(sel)) {}
  void feed(const uint8_t* data, size_t n) override;
  void finish() override;

 private:
  void end_field();
  void end_row();
  void header(std::vector<std::string>& names);

  MetricsSelection sel_;
  KeyList keys_;
  char delim_ = 0;    // chosen from the header row
  std::string head_;  // the header row's raw bytes until the delimiter is known
  std::vector<std::string> names_, fields_;
  std::vector<bool> listed_;  // a column's name is in series_keys already
  std::string field_;
  bool quoted_ = false, after_quote_ = false, field_started_ = false;
  int series_col_ = -1, step_col_ = -1;
  uint64_t row_no_ = 0;
};

}  // namespace strata
