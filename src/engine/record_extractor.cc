#include "engine/record_extractor.h"

#include <algorithm>

namespace strata {

std::string_view RecordExtractor::cached(uint64_t offset, uint32_t length) const {
  if (!done_ || offset < win_start_ || offset + length > win_start_ + window_.size()) return {};
  return std::string_view(window_).substr(offset - win_start_, length);
}

void RecordExtractor::begin(Compression c, uint64_t offset, uint32_t length) {
  decoder_ = make_stream_decoder(c);
  window_.clear();
  win_start_ = offset > kWindow ? offset - kWindow : 0;
  win_end_ = offset + length + kWindow;
  pos_ = 0;
  done_ = decoder_ == nullptr;
}

bool RecordExtractor::feed(const uint8_t* data, size_t n) {
  if (done_) return true;
  bool ok = decoder_->feed(data, n, [this](const uint8_t* out, size_t m) {
    uint64_t a = std::max(pos_, win_start_), b = std::min(pos_ + m, win_end_);
    if (b > a) window_.append(reinterpret_cast<const char*>(out) + (a - pos_), b - a);
    pos_ += m;
  });
  if (!ok || pos_ >= win_end_ || decoder_->complete()) {
    done_ = true;
    decoder_.reset();
  }
  return done_;
}

}  // namespace strata
