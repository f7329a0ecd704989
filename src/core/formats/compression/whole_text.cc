#include "core/formats/compression/whole_text.h"

namespace strata {

void WholeText::feed(const uint8_t* data, size_t n) {
  if (!started_) {
    // The magic needs 4 bytes, and a chunk may be shorter.
    while (n > 0 && head_n_ < 4) head_[head_n_++] = *data++, --n;
    if (head_n_ < 4) return;
    start();
  }
  append(data, n);
}

void WholeText::start() {
  started_ = true;
  compression_ = sniff_compression(head_, head_n_);
  decoder_ = make_stream_decoder(compression_);
  append(head_, head_n_);
}

void WholeText::append(const uint8_t* data, size_t n) {
  if (n == 0 || too_big_) return;
  const auto add = [this](const uint8_t* p, size_t k) {
    if (too_big_) return;
    if (text_.size() + k > cap_) {
      too_big_ = true;
      std::string().swap(text_);
      return;
    }
    text_.append(reinterpret_cast<const char*>(p), k);
  };
  if (decoder_)
    decoder_->feed(data, n, add);
  else
    add(data, n);
}

bool WholeText::finish() {
  if (!started_) start();
  if (too_big_) {
    error_ = too_big_message_;
    return false;
  }
  if (decoder_) {
    const std::string name = compression_name(compression_);
    if (!decoder_->error().empty()) {
      if (text_.empty()) {
        error_ = decoder_->error();
        return false;
      }
      warning_ = decoder_->error() + "; what precedes it is read";
    } else if (!decoder_->complete()) {
      warning_ = "the " + name + " stream ends early: the file is cut off after " +
                 std::to_string(decoder_->consumed()) + " compressed bytes";
    }
    decoder_.reset();
  }
  return true;
}

}  // namespace strata
