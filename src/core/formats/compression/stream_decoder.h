// Streaming decompression of gzip (.gz, multi-member too) and zstd (.zst) input, chunk by
// chunk, so a compressed trace is never held whole, compressed or not. Formats are told apart
// by magic bytes, not file names.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace strata {

// GCC's -Wshadow takes a scoped enumerator for a shadow of strata::kNone (the id sentinel).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
enum class Compression : uint8_t { kNone = 0, kGzip = 1, kZstd = 2 };
#pragma GCC diagnostic pop

// Needs the first 4 bytes of a file (fewer: kNone).
Compression sniff_compression(const uint8_t* p, size_t n);
const char* compression_name(Compression c);  // "none", "gzip", "zstd"
// The inverse of compression_name (SourceFile::compression); anything else is kNone.
Compression compression_named(std::string_view name);

using ByteSink = std::function<void(const uint8_t* data, size_t n)>;

class StreamDecoder {
 public:
  virtual ~StreamDecoder() = default;
  // Decompresses `n` more input bytes, handing every produced block to `sink`. Returns false
  // once the input is found corrupt (error() says where); further calls do nothing.
  virtual bool feed(const uint8_t* in, size_t n, const ByteSink& sink) = 0;
  // True when the input so far ends exactly at the end of a complete stream.
  virtual bool complete() const = 0;
  virtual const std::string& error() const = 0;
  // Compressed bytes consumed so far; while `sink` runs, those that produced its block.
  virtual uint64_t consumed() const = 0;
};

// Null for kNone.
std::unique_ptr<StreamDecoder> make_stream_decoder(Compression c);

}  // namespace strata
