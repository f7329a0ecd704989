#include "core/formats/compression/stream_decoder.h"

#include <zlib.h>
#include <zstd.h>

#include <vector>

namespace strata {

namespace {

// Decompressed bytes handed to the sink at a time: a block is wasm memory of the worker for the
// whole load (and it never shrinks); 256 KB blocks cost no more CPU than 1 MB ones.
constexpr size_t kOutBlock = 256 << 10;

class GzipDecoder final : public StreamDecoder {
 public:
  GzipDecoder() : out_(kOutBlock) {
    // 16 + MAX_WBITS: gzip wrapper, not raw deflate or zlib.
    ok_ = inflateInit2(&z_, 16 + MAX_WBITS) == Z_OK;
    if (!ok_) error_ = "could not start the gzip decoder";
  }
  ~GzipDecoder() override { inflateEnd(&z_); }

  bool feed(const uint8_t* in, size_t n, const ByteSink& sink) override {
    if (!ok_) return false;
    const uint64_t before = consumed_;
    z_.next_in = const_cast<Bytef*>(in);
    z_.avail_in = static_cast<uInt>(n);
    while (z_.avail_in > 0) {
      if (ended_) {
        // Another member follows (files made by concatenating .gz files, or pigz -i).
        if (inflateReset(&z_) != Z_OK) return fail("could not restart the gzip decoder");
        ended_ = false;
      }
      z_.next_out = out_.data();
      z_.avail_out = static_cast<uInt>(out_.size());
      int rc = inflate(&z_, Z_NO_FLUSH);
      size_t produced = out_.size() - z_.avail_out;
      consumed_ = before + static_cast<uint64_t>(z_.next_in - in);
      if (produced) sink(out_.data(), produced);
      if (rc == Z_STREAM_END) {
        ended_ = true;
      } else if (rc == Z_BUF_ERROR) {
        if (produced == 0) break;  // needs more input
      } else if (rc != Z_OK) {
        return fail(std::string("corrupt gzip data (") + (z_.msg ? z_.msg : "inflate error") + ")");
      }
    }
    consumed_ = before + (n - z_.avail_in);
    return true;
  }
  bool complete() const override { return ok_ && ended_; }
  const std::string& error() const override { return error_; }
  uint64_t consumed() const override { return consumed_; }

 private:
  bool fail(std::string msg) {
    ok_ = false;
    error_ = std::move(msg) + " at compressed byte " + std::to_string(consumed_);
    return false;
  }
  z_stream z_{};
  std::vector<uint8_t> out_;
  bool ok_ = false, ended_ = false;
  uint64_t consumed_ = 0;
  std::string error_;
};

class ZstdDecoder final : public StreamDecoder {
 public:
  ZstdDecoder() : out_(ZSTD_DStreamOutSize()) {
    ds_ = ZSTD_createDStream();
    ok_ = ds_ != nullptr && !ZSTD_isError(ZSTD_initDStream(ds_));
    // Traces compressed with --long use windows up to 2 GB; allow them (memory is only
    // committed for the window the file actually uses).
    if (ok_) ZSTD_DCtx_setParameter(ds_, ZSTD_d_windowLogMax, 31);
    if (!ok_) error_ = "could not start the zstd decoder";
  }
  ~ZstdDecoder() override { ZSTD_freeDStream(ds_); }

  bool feed(const uint8_t* in, size_t n, const ByteSink& sink) override {
    if (!ok_) return false;
    const uint64_t before = consumed_;
    ZSTD_inBuffer ib{in, n, 0};
    while (ib.pos < ib.size || more_output_) {
      ZSTD_outBuffer ob{out_.data(), out_.size(), 0};
      size_t rc = ZSTD_decompressStream(ds_, &ob, &ib);
      if (ZSTD_isError(rc)) {
        ok_ = false;
        error_ = std::string("corrupt zstd data (") + ZSTD_getErrorName(rc) +
                 ") near compressed byte " + std::to_string(before + ib.pos);
        return false;
      }
      consumed_ = before + ib.pos;
      if (ob.pos) sink(out_.data(), ob.pos);
      frame_done_ = rc == 0;
      // A full output buffer may mean more is pending without more input.
      more_output_ = ob.pos == ob.size;
      if (ib.pos == ib.size && !more_output_) break;
    }
    consumed_ = before + n;
    return true;
  }
  bool complete() const override { return ok_ && frame_done_; }
  const std::string& error() const override { return error_; }
  uint64_t consumed() const override { return consumed_; }

 private:
  ZSTD_DStream* ds_ = nullptr;
  std::vector<uint8_t> out_;
  bool ok_ = false, frame_done_ = false, more_output_ = false;
  uint64_t consumed_ = 0;
  std::string error_;
};

}  // namespace

Compression sniff_compression(const uint8_t* p, size_t n) {
  if (n >= 2 && p[0] == 0x1F && p[1] == 0x8B) return Compression::kGzip;
  if (n >= 4 && p[0] == 0x28 && p[1] == 0xB5 && p[2] == 0x2F && p[3] == 0xFD)
    return Compression::kZstd;
  return Compression::kNone;
}

Compression compression_named(std::string_view name) {
  return name == "gzip"   ? Compression::kGzip
         : name == "zstd" ? Compression::kZstd
                          : Compression::kNone;
}

const char* compression_name(Compression c) {
  switch (c) {
    case Compression::kGzip:
      return "gzip";
    case Compression::kZstd:
      return "zstd";
    default:
      return "none";
  }
}

std::unique_ptr<StreamDecoder> make_stream_decoder(Compression c) {
  switch (c) {
    case Compression::kGzip:
      return std::make_unique<GzipDecoder>();
    case Compression::kZstd:
      return std::make_unique<ZstdDecoder>();
    default:
      return nullptr;
  }
}

}  // namespace strata
