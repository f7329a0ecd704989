// Bytes in, chunks split anywhere; plain bytes out. The first 4 bytes tell gzip / zstd by their
// magic (sniff_compression); compressed input is inflated as it comes, anything else passes
// through. For readers that are not importers (whole-file HLO and CSV text, the loss scan).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/formats/compression/stream_decoder.h"

namespace strata {

class InflatingFeed {
 public:
  void feed(const uint8_t* data, size_t n, const ByteSink& sink);
  // End of input: hands on a head shorter than the magic.
  void finish(const ByteSink& sink);

  Compression compression() const { return compression_; }
  // Compressed input only: the decoder's error (empty while it is sound), and whether the
  // input so far ends a complete stream (plain input: always).
  const std::string& error() const;
  bool complete() const { return !decoder_ || decoder_->complete(); }
  uint64_t consumed() const { return decoder_ ? decoder_->consumed() : 0; }

 private:
  void start(const ByteSink& sink);
  void pass(const uint8_t* data, size_t n, const ByteSink& sink);

  uint8_t head_[4] = {};
  size_t head_n_ = 0;
  bool started_ = false;
  Compression compression_ = Compression::kNone;
  std::unique_ptr<StreamDecoder> decoder_;
};

}  // namespace strata
