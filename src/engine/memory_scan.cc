#include "engine/memory_scan.h"

#include <algorithm>

namespace strata {

void MemoryScan::begin(std::vector<Want> wants) {
  std::sort(wants.begin(), wants.end(),
            [](const Want& a, const Want& b) { return a.offset < b.offset; });
  wants_ = std::move(wants);
  records_.assign(wants_.size(), std::string());
  decoder_.reset();
  next_ = 0;
  pos_ = 0;
  done_ = file_done_ = wants_.empty();
}

void MemoryScan::begin_file(Compression c, uint64_t stream_base, uint64_t stream_end) {
  decoder_ = make_stream_decoder(c);
  pos_ = stream_base;
  file_end_ = stream_end;
  // Records cut by the previous file's end are not in this one.
  while (next_ < wants_.size() && wants_[next_].offset < stream_base) ++next_;
  done_ = next_ >= wants_.size();
  file_done_ = done_ || wants_[next_].offset >= stream_end;
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
  if (next_ >= wants_.size())
    done_ = file_done_ = true;
  else if (wants_[next_].offset >= file_end_)
    file_done_ = true;
}

bool MemoryScan::feed(const uint8_t* data, size_t n) {
  if (file_done_) return true;
  if (!decoder_) {
    take(data, n);
  } else if (!decoder_->feed(data, n, [this](const uint8_t* out, size_t m) { take(out, m); }) ||
             decoder_->complete()) {
    file_done_ = true;
  }
  if (file_done_) decoder_.reset();
  return file_done_;
}

}  // namespace strata
