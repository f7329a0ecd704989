// What the structured training-log readers (JSON lines, CSV/TSV, TensorBoard event files) have
// in common: they are fed a file's (inflated) bytes in chunks split anywhere, list every series
// they find (numeric keys, columns, scalar tags) and the step candidates, and keep the points of
// the one series selected, so memory is that curve, not the file. A reader never throws: a
// broken record is skipped and counted, a broken frame ends the read with `error` and the
// points before it kept.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/formats/loss_log/log_scanner.h"

namespace strata {

// The series to keep and its step. `step` empty: the reader's own (a tfevents Event's step),
// or for records without one kLineStep.
struct MetricsSelection {
  std::string series;
  std::string step;
};

// A step that is the record's 1-based number in the file (no step key in the records).
inline constexpr std::string_view kLineStep = "(line)";

struct MetricsResult {
  std::vector<std::string> series_keys;  // first-seen order, at most kMaxKeys
  std::vector<std::string> step_keys;    // the series keys a step can be read from
  LossSeries points;                     // the selected series, file order
  std::string series;                    // the series `points` are (a reader may choose one)
  uint64_t records = 0;                  // records read (lines, rows, events)
  uint64_t skipped = 0;                  // records that could not be read
  std::string first_skip;                // why the first skipped one was
  std::string error;                     // reading stopped here ("" = read to the end)
};

inline constexpr size_t kMaxKeys = 4096;

// Keys as a reader meets them: each listed once, in order, up to kMaxKeys.
struct KeyList {
  std::unordered_set<std::string> seen;
  void add(std::string_view key, std::vector<std::string>* out) {
    if (out->size() >= kMaxKeys) return;
    if (seen.emplace(key).second) out->emplace_back(key);
  }
};

class MetricsReader {
 public:
  virtual ~MetricsReader() = default;
  virtual void feed(const uint8_t* data, size_t n) = 0;
  virtual void finish() = 0;  // the file ended: a cut last record is reported here
  const MetricsResult& result() const { return result_; }
  MetricsResult take_result() { return std::move(result_); }

 protected:
  void skip(std::string why) {
    if (result_.skipped++ == 0) result_.first_skip = std::move(why);
  }
  MetricsResult result_;
};

// Is `key` a usual name for a step (step, global_step, iteration, iter, _step, epoch, any case)?
// `rank` gets its preference (0 = best).
bool is_step_name(std::string_view key, int* rank = nullptr);
// Is it a clock rather than a metric (wall time, timestamp, _runtime)? Never guessed as the loss.
bool is_time_name(std::string_view key);
// The default selection for what a reader found in a file's head: a series named like a loss
// ("loss" exactly, then "*loss" / "*loss*", shortest first) else the first that is neither a step
// nor a clock; the best-ranked step key, else `fallback_step`.
MetricsSelection guess_metrics_selection(const MetricsResult& found,
                                         std::string_view fallback_step);

}  // namespace strata
