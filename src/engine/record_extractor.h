// Re-reading one event's record from a compressed source. A gzip/zstd stream cannot be entered
// in the middle, so the worker streams the file again from its start and this decompresses it
// until the record has passed, keeping a window of bytes around it: selections near the last
// one are then answered from the window without reading the file again.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/formats/compression/stream_decoder.h"

namespace strata {

class RecordExtractor {
 public:
  static constexpr uint64_t kWindow = 1 << 20;  // bytes kept either side of the wanted record

  // The record [offset, offset + length) of the decompressed stream, or empty when it is not
  // in the cached window.
  std::string_view cached(uint64_t offset, uint32_t length) const;
  // Starts a pass over the source for [offset, offset + length).
  void begin(Compression c, uint64_t offset, uint32_t length);
  // Feeds the next compressed bytes; true once the window is complete (or the stream ended
  // or broke: then cached() says whether the record made it).
  bool feed(const uint8_t* data, size_t n);

 private:
  std::unique_ptr<StreamDecoder> decoder_;
  std::string window_;  // decompressed bytes [win_start_, win_start_ + window_.size())
  uint64_t win_start_ = 0, win_end_ = 0;
  uint64_t pos_ = 0;  // decompressed bytes seen in this pass
  bool done_ = true;
};

}  // namespace strata
