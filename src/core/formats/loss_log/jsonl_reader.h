// JSON training logs: JSON lines (one object a line, as W&B, MLflow, Lightning, DeepSpeed and
// Megatron's json loggers write) and a JSON document holding an array of such objects (the
// Hugging Face Trainer's trainer_state.json `log_history`, or a top-level array of records).
// Every numeric leaf of a record is a series (nested keys joined with '/'); a record gives a
// point when it has the selected series and step (or the step is the record's number). A line
// that is not an object is skipped and counted; blank lines are not records.
#pragma once
#include <string>

#include "core/formats/loss_log/metrics_reader.h"

namespace strata {

// JSON lines: the first line holding something is one whole object (not a Chrome trace's
// opening). Is that what these first bytes are?
bool looks_like_json_lines(const uint8_t* p, size_t n);
// A JSON document of records: '{' with a "log_history" key in the head, or '[' then '{' whose
// first object has a numeric step or loss key (a Chrome trace's events have none: ts, dur).
bool looks_like_json_records(const uint8_t* p, size_t n);

// The numeric leaves of records, to points: shared by both readers.
class JsonRecordTaker {
 public:
  explicit JsonRecordTaker(MetricsSelection sel) : sel_(std::move(sel)) {}
  // One record's text (an object); `number`: its 1-based record or line number.
  void take(std::string_view object, uint64_t number, MetricsResult* out);

 private:
  MetricsSelection sel_;
  KeyList series_, steps_;
};

class JsonLinesReader : public MetricsReader {
 public:
  static constexpr size_t kMaxLine = 1 << 20;  // longer lines are skipped, not held
  explicit JsonLinesReader(MetricsSelection sel) : taker_(std::move(sel)) {}
  void feed(const uint8_t* data, size_t n) override;
  void finish() override;

 private:
  void line(std::string_view text);
  JsonRecordTaker taker_;
  std::string carry_;
  bool carry_too_long_ = false;
  uint64_t line_no_ = 0;
};

// The whole document is held (these are small: one object per logging step) and read at the end.
class JsonRecordsReader : public MetricsReader {
 public:
  static constexpr size_t kMaxBytes = 256u << 20;
  explicit JsonRecordsReader(MetricsSelection sel) : taker_(std::move(sel)) {}
  void feed(const uint8_t* data, size_t n) override;
  void finish() override;

 private:
  JsonRecordTaker taker_;
  std::string text_;
  bool too_big_ = false;
};

}  // namespace strata
