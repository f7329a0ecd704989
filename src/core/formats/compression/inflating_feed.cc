#include "core/formats/compression/inflating_feed.h"

namespace strata {

void InflatingFeed::feed(const uint8_t* data, size_t n, const ByteSink& sink) {
  if (!started_) {
    // The magic needs 4 bytes, and a chunk may be shorter.
    while (n > 0 && head_n_ < 4) head_[head_n_++] = *data++, --n;
    if (head_n_ < 4) return;
    start(sink);
  }
  pass(data, n, sink);
}

void InflatingFeed::finish(const ByteSink& sink) {
  if (!started_) start(sink);
}

void InflatingFeed::start(const ByteSink& sink) {
  started_ = true;
  compression_ = sniff_compression(head_, head_n_);
  decoder_ = make_stream_decoder(compression_);
  pass(head_, head_n_, sink);
}

void InflatingFeed::pass(const uint8_t* data, size_t n, const ByteSink& sink) {
  if (n == 0) return;
  if (decoder_)
    decoder_->feed(data, n, sink);
  else
    sink(data, n);
}

const std::string& InflatingFeed::error() const {
  static const std::string kNoError;
  return decoder_ ? decoder_->error() : kNoError;
}

}  // namespace strata
