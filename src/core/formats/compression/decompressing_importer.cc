#include "core/formats/compression/decompressing_importer.h"

#include <string>
#include <vector>

#include "core/store/trace_store.h"

namespace strata {

namespace {

class DecompressingImporter final : public Importer {
 public:
  DecompressingImporter(TraceStore* store, std::unique_ptr<Importer> inner)
      : store_(store), inner_(std::move(inner)) {}

  void feed(const uint8_t* data, size_t n) override {
    if (!sniffed_) {
      // The magic needs 4 bytes, and a chunk may be shorter.
      while (n > 0 && head_.size() < 4) head_.push_back(*data++), --n;
      if (head_.size() < 4) return;
      start(head_.data(), head_.size());
    }
    pass(data, n);
  }

  void finish() override {
    end_of_file();
    // The decoder's window and output block are not needed by the inner finish(), which is
    // the load's peak of memory: keep only its error.
    if (decoder_) error_ = decoder_->error();
    decoder_.reset();
    inner_->finish();
  }

  bool failed() const override {
    return inner_->failed() || (!decode_error().empty() && inner_->records() == 0);
  }
  const std::string& failure() const override {
    if (!decode_error().empty() && inner_->records() == 0) return decode_error();
    return inner_->failure();
  }
  uint64_t records() const override { return inner_->records(); }
  // Each file has its own compression (or none): the next one is sniffed again.
  bool next_file() override {
    end_of_file();
    decoder_.reset();
    error_.clear();
    sniffed_ = reported_ = false;
    decoded_ = 0;
    kind_ = Compression::kNone;
    return inner_->next_file();
  }

 private:
  void end_of_file() {
    if (!sniffed_) start(head_.data(), head_.size());
    if (decoder_ && decoder_->error().empty() && !decoder_->complete() && decoded_ > 0)
      store_->errors.push_back(std::string("the ") + compression_name(kind_) +
                               " stream ends early: the file is cut off after " +
                               std::to_string(decoder_->consumed()) + " compressed bytes");
  }

  const std::string& decode_error() const { return decoder_ ? decoder_->error() : error_; }

  void start(const uint8_t* head, size_t n) {
    sniffed_ = true;
    kind_ = sniff_compression(head, n);
    if (!store_->files.empty()) store_->files.back().compression = compression_name(kind_);
    decoder_ = make_stream_decoder(kind_);
    pass(head, n);
    std::vector<uint8_t>().swap(head_);
  }

  void pass(const uint8_t* data, size_t n) {
    if (n == 0) return;
    if (!decoder_) {
      if (!store_->files.empty()) store_->files.back().loaded += n;
      inner_->feed(data, n);
      return;
    }
    bool ok = decoder_->feed(data, n, [this](const uint8_t* out, size_t m) {
      decoded_ += m;
      // The compressed bytes behind this block: the builder sizes columns by them.
      if (!store_->files.empty()) store_->files.back().loaded = decoder_->consumed();
      inner_->feed(out, m);
    });
    if (!ok && !reported_ && inner_->records() > 0) {
      reported_ = true;  // keep what decoded before the damage
      store_->errors.push_back(decoder_->error() + "; the events before it are loaded");
    }
  }

  TraceStore* store_;
  std::unique_ptr<Importer> inner_;
  std::unique_ptr<StreamDecoder> decoder_;
  std::string error_;  // the decoder's, once it is released
  std::vector<uint8_t> head_;
  Compression kind_ = Compression::kNone;
  bool sniffed_ = false, reported_ = false;
  uint64_t decoded_ = 0;
};

}  // namespace

std::unique_ptr<Importer> make_decompressing_importer(TraceStore* store,
                                                      std::unique_ptr<Importer> inner) {
  return std::make_unique<DecompressingImporter>(store, std::move(inner));
}

}  // namespace strata
