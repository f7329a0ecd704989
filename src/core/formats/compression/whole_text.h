// The bytes of a file that is parsed whole (an Ascend memory CSV, an HLO module), collected in
// chunks split anywhere and inflated as they come when the file is gzip or zstd (told by its
// magic bytes). A cap on the inflated size turns a file too big to hold into a clear error
// instead of an out-of-memory abort.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "core/formats/compression/inflating_feed.h"

namespace strata {

class WholeText {
 public:
  // `cap` is in inflated bytes; `too_big` is the error once the text would pass it.
  WholeText(size_t cap, std::string too_big) : cap_(cap), too_big_message_(std::move(too_big)) {}

  void feed(const uint8_t* data, size_t n) { in_.feed(data, n, sink()); }
  // End of input. False when the text is unusable (too big, or the stream is corrupt before
  // any byte came out); error() says why. A stream cut short or broken keeps what inflated and
  // sets warning().
  bool finish();

  const std::string& text() const { return text_; }
  std::string take_text() { return std::move(text_); }
  const std::string& error() const { return error_; }
  const std::string& warning() const { return warning_; }
  Compression compression() const { return in_.compression(); }

 private:
  ByteSink sink();

  size_t cap_;
  std::string too_big_message_;
  std::string text_, error_, warning_;
  bool too_big_ = false;
  InflatingFeed in_;
};

}  // namespace strata
