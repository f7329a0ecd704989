// Perfetto Trace framing. The top level of a Trace is `repeated TracePacket packet = 1`; this
// importer reads each field header as the chunks arrive, decodes a packet that lies within one
// chunk in place and collects the bytes of one that does not.
//
// Damage: a packet that does not decode is skipped and counted; a top-level header no writer
// produces (a field other than a length-delimited one, an overlong varint, a length past the
// end of the file) stops the import there and keeps the packets before it; a file cut inside a
// packet keeps everything before that packet. Every message names the byte offset. A trace
// with nothing Strata draws (ftrace, process stats, atoms, ...) fails with a message naming
// what it holds, so the previous trace stays.
#include "core/formats/perfetto/perfetto_importer.h"

#include <algorithm>
#include <vector>

#include "core/base/text.h"
#include "core/formats/perfetto/perfetto_decoder.h"
#include "core/formats/perfetto/perfetto_fields.h"
#include "core/formats/perfetto/perfetto_sniff.h"
#include "core/formats/protobuf/field_body.h"
#include "core/formats/protobuf/wire.h"
#include "core/store/trace_builder.h"
#include "core/store/trace_store.h"

namespace strata {

namespace {

// Perfetto writes packets of at most a few MB (chunks of the trace buffer); a bigger length
// is corrupt.
constexpr uint64_t kMaxPacket = uint64_t{1} << 28;

class PerfettoImporter final : public Importer {
 public:
  explicit PerfettoImporter(TraceStore* store)
      : store_(store),
        builder_(store),
        tables_(std::make_shared<PerfettoTables>()),
        decoder_(&builder_, tables_.get()) {
    if (!store->files.empty()) {
      store->files[0].format = "perfetto";
      if (store->files[0].compression == "none") known_size_ = store->files[0].bytes;
    }
  }

  void feed(const uint8_t* data, size_t n) override {
    while (n > 0 && !stopped_) {
      const size_t used = state_ == State::kHeader ? header(data, n) : body(data, n);
      data += used, n -= used, pos_ += used;
    }
    builder_.set_input_progress(pos_);
  }

  void finish() override {
    if (finished_) return;
    finished_ = true;
    if (!stopped_ && state_ == State::kBody) {
      builder_.error("the file ends at byte " + std::to_string(pos_) + " inside packet " +
                     std::to_string(decoder_.packets() + 1) + ", which declares " +
                     std::to_string(body_.len()) + " bytes from byte " +
                     std::to_string(body_.at()) +
                     ": the file is cut off (or that length is corrupt); the packets before "
                     "it are kept");
    } else if (!stopped_ && head_.pending()) {
      builder_.error("the file ends at byte " + std::to_string(pos_) +
                     " in the middle of a packet header: the file is cut off");
    }
    body_.release();
    decoder_.finish();
    if (decoder_.malformed())
      builder_.error(plural(decoder_.malformed(), "packet does not decode and was",
                            "packets do not decode and were") +
                     " skipped (first at byte " + std::to_string(decoder_.malformed_at()) + ": " +
                     decoder_.malformed_why() + ")");
    const bool drawn = decoder_.events() > 0 || !store_->samples.ts.empty();
    if (pos_ == 0) {
      fail("the file is empty");
    } else if (decoder_.events() == 0 && !store_->errors.empty() && decoder_.packets() == 0) {
      fail("no packet could be read from this Perfetto trace: " + store_->errors.front());
    } else if (!drawn) {
      fail(perfetto::describe_undrawn(decoder_.packets(), decoder_.undrawn()));
    } else if (!decoder_.undrawn().empty()) {
      const std::string also = perfetto::undrawn_list(decoder_.undrawn());
      if (!also.empty()) builder_.warning("not shown: " + also + " (Strata draws TrackEvents)");
    }
    builder_.finish();
    store_->perfetto = tables_;
  }

  bool failed() const override { return failed_; }
  const std::string& failure() const override { return failure_; }
  uint64_t records() const override { return decoder_.events(); }

 private:
  enum class State { kHeader, kBody };

  void fail(std::string message) {
    if (failed_) return;
    failed_ = true;
    failure_ = std::move(message);
  }

  void corrupt(uint64_t at, const std::string& why) {
    stopped_ = true;
    builder_.error("the Perfetto trace is corrupt at byte " + std::to_string(at) + " (" + why +
                   "): " +
                   (decoder_.packets() == 0 ? std::string("not a valid Perfetto trace")
                                            : plural(decoder_.packets(), "packet before it is kept",
                                                     "packets before it are kept") +
                                                  ", what follows is lost"));
  }

  // Reads a top-level field header from the stashed bytes plus `data`; returns the bytes of
  // `data` it used.
  size_t header(const uint8_t* data, size_t n) {
    if (!head_.pending()) field_start_ = pos_;
    wire::FieldHeader h;
    size_t from_data = 0;
    using R = wire::HeaderReader::Result;
    // A trace is a run of packets: length-delimited field 1 (others are skipped).
    const R r = head_.read(data, n, &h, &from_data, [](const wire::FieldHeader& f) {
      return (f.tag >> 3) != 0 && f.type == wire::kLen;
    });
    if (r == R::kRejected) {
      corrupt(field_start_, "field " + std::to_string(h.tag >> 3) + " of wire type " +
                                std::to_string(h.type) + " where a packet was expected");
      return n;
    }
    if (r == R::kLongVarint) {
      corrupt(field_start_, "a varint longer than 10 bytes");
      return n;
    }
    if (r != R::kHeader) return from_data;  // kMore: wait for more bytes
    number_ = h.number;
    const uint64_t at = pos_ + from_data;
    if (h.len > kMaxPacket || (known_size_ && h.len > known_size_ - std::min(known_size_, at))) {
      corrupt(field_start_, "a packet declares " + std::to_string(h.len) + " bytes" +
                                (known_size_ ? ", past the end of the file" : ""));
      return n;
    }
    body_.start(h.len, at, h.len);
    if (h.len == 0)
      field(data, 0);
    else
      state_ = State::kBody;
    return from_data;
  }

  size_t body(const uint8_t* data, size_t n) {
    return body_.take(data, n, [&](const uint8_t* b, size_t len) {
      field(b, len);
      state_ = State::kHeader;
    });
  }

  void field(const uint8_t* data, size_t n) {
    if (number_ == perfetto::trace::kPacket) decoder_.packet(data, n, body_.at());
  }

  TraceStore* store_;
  TraceBuilder builder_;
  std::shared_ptr<PerfettoTables> tables_;
  perfetto::PacketDecoder decoder_;
  uint64_t known_size_ = 0;

  State state_ = State::kHeader;
  uint64_t pos_ = 0, field_start_ = 0;
  wire::HeaderReader head_;  // a header split across chunks
  uint32_t number_ = 0;
  wire::FieldBody body_;  // the packet being read
  bool stopped_ = false, finished_ = false, failed_ = false;
  std::string failure_;
};

}  // namespace

std::unique_ptr<Importer> make_perfetto_importer(TraceStore* store) {
  return std::make_unique<PerfettoImporter>(store);
}

}  // namespace strata
