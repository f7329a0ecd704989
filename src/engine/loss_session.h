// The loss view's scans in the engine worker: one streaming scan of a training log at a time
// (the worker runs loads one after another). The log's bytes may be plain, gzip or zstd (told by
// their magic bytes, inflated as they come), so a compressed log streams like a plain one; its
// format (text, JSON lines, CSV, TensorBoard events) is told by core/formats/loss_log/log_scan.
// A log never touches the Engine or its TraceStore. engine/wasm/loss_exports.cc forwards here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/compression/inflating_feed.h"
#include "core/formats/loss_log/log_scan.h"

namespace strata {

class LossSession {
 public:
  // {"lossTag": ..., "iterationTag": ...} guessed from a log's first bytes (plain, gzip or zstd).
  static std::string guess_tags_json(std::string_view head);

  void scan_begin(LossTags tags);
  uint8_t* buffer(size_t n);  // where the caller writes the next chunk
  void scan_commit(size_t n);
  // Ends the scan; returns the number of points, as [iteration, loss] doubles at points().
  size_t scan_end();
  const double* points() const { return points_.data(); }
  // After scan_end: {"lossTag", "iterationTag" (as read: a reader may have chosen the series),
  // "format", "seriesKeys", "stepKeys", "note"}.
  const std::string& detail_json() const { return detail_; }
  // Frees the chunk buffer and points between scans (a 4 MB buffer per log would add up).
  void release();

 private:
  std::unique_ptr<LogScan> scan_;
  InflatingFeed in_;
  std::vector<uint8_t> buf_;
  std::vector<double> points_;
  std::string detail_;
};

}  // namespace strata
