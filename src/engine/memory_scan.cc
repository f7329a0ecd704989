#include "engine/memory_scan.h"

#include <algorithm>

namespace strata {

void MemoryScan::begin(Compression c, std::vector<Want> wants) {
  std::sort(wants.begin(), wants.end(),
            [](const Want& a, const Want& b) { return a.offset < b.offset; });
  wants_ = std::move(wants);
  records_.assign(wants_.size(), std::string());
  decoder_ = make_stream_decoder(c);
  next_ = 0;
  pos_ = 0;
  done_ = wants_.empty();
}

// Bytes [pos_, pos_ + n) of the decompressed stream: copy the parts of wanted spans.
void MemoryScan::take(const uint8_t* p, size_t n) {
  const uint64_t end = pos_ + n;
  for (size_t i = next_; i < wants_.size() && wants_[i].offset < end; ++i) {
    const Want& w = wants_[i];
    const uint64_t a = std::max(pos_, w.offset), b = std::min(end, w.offset + w.length);
    if (b > a) records_[i].append(reinterpret_cast<const char*>(p) + (a - pos_), b - a);
    if (w.offset + w.length <= end && i == next_) ++next_;
  }
  pos_ = end;
  if (next_ >= wants_.size()) done_ = true;
}

bool MemoryScan::feed(const uint8_t* data, size_t n) {
  if (done_) return true;
  if (!decoder_) {
    take(data, n);
  } else if (!decoder_->feed(data, n, [this](const uint8_t* out, size_t m) { take(out, m); }) ||
             decoder_->complete()) {
    done_ = true;
  }
  if (done_) decoder_.reset();
  return done_;
}

}  // namespace strata
