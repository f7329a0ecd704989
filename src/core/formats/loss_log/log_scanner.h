// Streams a training log through the tag matcher: chunks of any size, split anywhere. A line
// cut by a chunk boundary is carried over (only its bytes), so memory is the points, not the
// file. Speed: a line without the Loss Tag cannot yield a point (rule 3), so the scanner looks
// for the Loss Tag across the whole chunk (memchr on its first byte + compare) and only cuts
// out the lines that contain it; everything else is skipped without finding line ends.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/formats/loss_log/tag_match.h"

namespace strata {

// A file's points, as columns, in file order (duplicated iterations are kept).
struct LossSeries {
  std::vector<int64_t> iteration;
  std::vector<double> loss;
  size_t size() const { return iteration.size(); }
};

class LossScanner {
 public:
  // Longest line examined whole; the rest of a longer line is ignored (a binary blob or a
  // log without newlines must not make us hold the file).
  static constexpr size_t kMaxLine = 1 << 20;

  explicit LossScanner(LossTags tags) : tags_(std::move(tags)) {}
  void feed(const uint8_t* data, size_t n);
  void finish();  // the last line, when the file does not end in '\n'
  const LossSeries& points() const { return points_; }
  LossSeries take_points() { return std::move(points_); }
  uint64_t bytes() const { return bytes_; }

 private:
  void line(const char* p, size_t n);
  void scan_complete_lines(const char* p, size_t n);  // p[n - 1] == '\n'

  LossTags tags_;
  LossSeries points_;
  std::string carry_;  // the current line's bytes so far (capped at kMaxLine)
  uint64_t bytes_ = 0;
};

// Scans a whole text in memory (tests, tag guessing).
LossSeries scan_loss_text(std::string_view text, const LossTags& tags);

}  // namespace strata
