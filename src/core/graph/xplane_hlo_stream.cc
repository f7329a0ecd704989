#include "core/graph/xplane_hlo_stream.h"

#include <algorithm>

#include "core/formats/hlo/hlo_proto_parser.h"

namespace strata::graph {

void XplaneHloStream::begin(std::vector<HloProtoSpan> spans) {
  std::stable_sort(spans.begin(), spans.end(), [](const HloProtoSpan& a, const HloProtoSpan& b) {
    return a.src_offset < b.src_offset;
  });
  spans_ = std::move(spans);
  modules_.clear();
  modules_.resize(spans_.size());
  parsed_.assign(spans_.size(), 0);
  errors_.clear();
  decoder_.reset();
  compression_ = Compression::kNone;
  head_.clear();
  sniffed_ = false;
  buf_.clear();
  next_ = 0;
  pos_ = 0;
  peak_ = 0;
  done_ = spans_.empty();
}

// Span i's bytes are all in buf_: parse them and let them go.
void XplaneHloStream::complete(size_t i) {
  const HloProtoSpan& s = spans_[i];
  std::string error;
  if (hlo::parse_hlo_proto(reinterpret_cast<const uint8_t*>(buf_.data()), buf_.size(), &modules_[i],
                           &error)) {
    modules_[i].program_id = s.program_id;
    parsed_[i] = 1;
  } else {
    errors_.push_back(s.module + ": " + error);
  }
  buf_.clear();
  buf_.shrink_to_fit();  // a big module's bytes are not kept for the next one
}

// Decompressed bytes [pos_, pos_ + n): gather the parts of the spans they cover. Spans from
// one XSpace never overlap (each is one stat's bytes), so one is gathered at a time; a span
// starting inside the previous one (a damaged table) is reported, not read.
void XplaneHloStream::take(const uint8_t* p, size_t n) {
  const uint64_t end = pos_ + n;
  while (next_ < spans_.size()) {
    const HloProtoSpan& s = spans_[next_];
    const uint64_t s_end = s.src_offset + s.src_len;
    if (s.src_offset >= end) break;
    if (s.src_offset < pos_ && buf_.empty() && s.src_len > 0) {
      errors_.push_back(s.module + ": its bytes overlap another module's; not read");
      ++next_;
      continue;
    }
    const uint64_t a = std::max(pos_, s.src_offset), b = std::min(end, s_end);
    if (b > a) buf_.append(reinterpret_cast<const char*>(p) + (a - pos_), b - a);
    peak_ = std::max<uint64_t>(peak_, buf_.size());
    if (s_end > end) break;  // continues in the next block
    complete(next_++);
  }
  pos_ = end;
  if (next_ >= spans_.size()) done_ = true;
}

bool XplaneHloStream::feed(const uint8_t* data, size_t n) {
  if (done_) return true;
  if (!sniffed_) {
    // Four bytes tell gzip / zstd from a plain XSpace; hold the first ones until they are here.
    head_.append(reinterpret_cast<const char*>(data), n);
    if (head_.size() < 4) return false;
    sniffed_ = true;
    const auto* h = reinterpret_cast<const uint8_t*>(head_.data());
    compression_ = sniff_compression(h, head_.size());
    decoder_ = make_stream_decoder(compression_);
    std::string head = std::move(head_);
    head_.clear();
    return feed(reinterpret_cast<const uint8_t*>(head.data()), head.size());
  }
  if (!decoder_) {
    take(data, n);
  } else if (!decoder_->feed(data, n, [this](const uint8_t* out, size_t m) {
               if (!done_) take(out, m);
             })) {
    errors_.push_back("the " + std::string(compression_name(compression_)) + " stream broke (" +
                      decoder_->error() + ")");
    done_ = true;
  } else if (decoder_->complete()) {
    done_ = true;
  }
  if (done_) decoder_.reset();
  return done_;
}

std::vector<StreamedHlo> XplaneHloStream::finish(std::vector<std::string>* errors) {
  // A file shorter than 4 bytes never got sniffed: read what there is as plain.
  if (!sniffed_ && !head_.empty()) {
    sniffed_ = true;
    std::string head = std::move(head_);
    head_.clear();
    take(reinterpret_cast<const uint8_t*>(head.data()), head.size());
  }
  for (size_t i = next_; i < spans_.size(); ++i)
    errors_.push_back(spans_[i].module + ": not read: the data stops at decompressed byte " +
                      std::to_string(pos_) + ", before the module's bytes (" +
                      std::to_string(spans_[i].src_offset) + " to " +
                      std::to_string(spans_[i].src_offset + spans_[i].src_len) + ")");
  next_ = spans_.size();
  done_ = true;
  decoder_.reset();
  buf_.clear();
  std::vector<StreamedHlo> out;
  for (size_t i = 0; i < spans_.size(); ++i)
    if (parsed_[i]) out.push_back({spans_[i].module, std::move(modules_[i])});
  modules_.clear();
  parsed_.clear();
  if (errors) errors->insert(errors->end(), errors_.begin(), errors_.end());
  errors_.clear();
  return out;
}

}  // namespace strata::graph
