// One training log, whatever its format: the first inflated bytes (up to kSniffBytes) decide
// between a TensorBoard event file, JSON lines, a JSON document of records, CSV/TSV with a
// header and plain text, and the rest streams into that format's reader. For the structured
// formats the Loss Tag names the series (a key, column or tag) and the Iteration Tag the step
// (a key or column, kLineStep, or "step" for an event file); plain text keeps the seed's rules
// (log_scanner). The engine's LossSession feeds it; tests and the fuzzers use it directly.
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "core/formats/loss_log/log_scanner.h"
#include "core/formats/loss_log/metrics_reader.h"

namespace strata {

enum class LogFormat : uint8_t { kText, kJsonLines, kJsonRecords, kDelimited, kTfEvents };

// On a file's first (inflated) bytes.
LogFormat sniff_log_format(const uint8_t* p, size_t n);
// "text", "jsonl", "json", "csv", "tfevents".
const char* log_format_name(LogFormat f);

// Tags for a new log from its first bytes: the seed's guess for text, else the series named like a
// loss and the usual step key (guess_metrics_selection).
LossTags guess_log_tags(std::string_view head);

class LogScan {
 public:
  static constexpr size_t kSniffBytes = 64u << 10;

  explicit LogScan(LossTags tags) : tags_(std::move(tags)) {}
  void feed(const uint8_t* data, size_t n);
  void finish();
  LogFormat format() const { return format_; }
  LossSeries take_points();
  // Read after finish(): the series and step read (the tags, or what a reader chose).
  const LossTags& tags() const { return tags_; }
  // After finish(): what the tag dialog lists (the step keys with kLineStep for JSON and CSV)
  // and what went wrong ("" when nothing did), for the worker's message.
  const std::vector<std::string>& series_keys() const { return result_.series_keys; }
  std::vector<std::string> step_keys() const;
  std::string note() const;

 private:
  void start(const uint8_t* p, size_t n);

  LossTags tags_;
  LogFormat format_ = LogFormat::kText;
  std::string head_;  // held until kSniffBytes or the end decide the format
  bool started_ = false, finished_ = false;
  std::unique_ptr<LossScanner> text_;
  std::unique_ptr<MetricsReader> reader_;
  MetricsResult result_;    // after finish()
  size_t points_read_ = 0;  // result_.points.size() before take_points()
};

}  // namespace strata
