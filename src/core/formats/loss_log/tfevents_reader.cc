#include "core/formats/loss_log/tfevents_reader.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/formats/loss_log/crc32c.h"
#include "core/formats/protobuf/wire.h"

namespace strata {

namespace {

uint32_t le32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}
uint64_t le64(const uint8_t* p) {
  return static_cast<uint64_t>(le32(p)) | static_cast<uint64_t>(le32(p + 4)) << 32;
}

float as_float(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

double half_to_double(uint32_t h) {
  const int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0)
    v = std::ldexp(mant, -24);
  else if (exp == 31)
    v = mant ? std::nan("") : INFINITY;
  else
    v = std::ldexp(mant + 1024, exp - 25);
  return sign ? -v : v;
}

// TensorFlow DataType values a scalar summary can hold.
enum DType : uint64_t {
  kFloat = 1,
  kDouble = 2,
  kInt32 = 3,
  kInt64 = 9,
  kBfloat16 = 14,
  kHalf = 19,
};

// A TensorProto holding exactly one number, or false.
bool tensor_scalar(const uint8_t* p, size_t n, double* out) {
  wire::Reader r(p, n);
  wire::Field f;
  uint64_t dtype = 0, elements = 1;
  bool have = false;
  double first = 0;
  std::string_view content;
  wire::Status st;
  while ((st = r.next(&f)) == wire::Status::kOk) {
    switch (f.number) {
      case 1:
        dtype = f.value;
        break;
      case 2: {  // TensorShapeProto: dim = 2 { size = 1 }
        wire::Reader s(f.data, f.size);
        wire::Field d;
        while (s.next(&d) == wire::Status::kOk) {
          if (d.number != 2 || d.type != wire::kLen) continue;
          wire::Reader dim(d.data, d.size);
          wire::Field sz;
          while (dim.next(&sz) == wire::Status::kOk)
            if (sz.number == 1 && sz.type == wire::kVarint)
              elements = std::min<uint64_t>(elements * std::min<uint64_t>(sz.value, 1u << 20),
                                            uint64_t{1} << 40);
        }
        break;
      }
      case 4:
        if (f.type == wire::kLen) content = f.text();
        break;
      case 5:  // float_val, packed or not
        if (!have && f.type == wire::kFixed32) first = as_float(static_cast<uint32_t>(f.value));
        if (!have && f.type == wire::kLen && f.size >= 4) first = as_float(le32(f.data));
        have = have || f.type == wire::kFixed32 || (f.type == wire::kLen && f.size >= 4);
        break;
      case 6:  // double_val
        if (!have && f.type == wire::kFixed64) first = wire::as_double(f.value);
        if (!have && f.type == wire::kLen && f.size >= 8) first = wire::as_double(le64(f.data));
        have = have || f.type == wire::kFixed64 || (f.type == wire::kLen && f.size >= 8);
        break;
      case 7:     // int_val
      case 10:    // int64_val
      case 13: {  // half_val (the half's bits in an int32)
        uint64_t v = 0;
        bool got = false;
        if (f.type == wire::kVarint) v = f.value, got = true;
        if (f.type == wire::kLen) {
          const uint8_t* q = f.data;
          got = wire::read_varint(q, f.data + f.size, &v);
        }
        if (!have && got)
          first = f.number == 13  ? half_to_double(static_cast<uint32_t>(v))
                  : f.number == 7 ? static_cast<double>(static_cast<int32_t>(v))
                                  : static_cast<double>(static_cast<int64_t>(v));
        have = have || got;
        break;
      }
      default:
        break;
    }
  }
  if (st != wire::Status::kEnd || elements != 1) return false;
  if (dtype != kFloat && dtype != kDouble && dtype != kHalf && dtype != kBfloat16 &&
      dtype != kInt32 && dtype != kInt64)
    return false;
  if (!content.empty()) {
    const auto* c = reinterpret_cast<const uint8_t*>(content.data());
    const size_t want = dtype == kDouble || dtype == kInt64    ? 8
                        : dtype == kHalf || dtype == kBfloat16 ? 2
                                                               : 4;
    if (content.size() != want) return false;
    switch (dtype) {
      case kFloat:
        *out = as_float(le32(c));
        break;
      case kDouble:
        *out = wire::as_double(le64(c));
        break;
      case kInt32:
        *out = static_cast<int32_t>(le32(c));
        break;
      case kInt64:
        *out = static_cast<double>(static_cast<int64_t>(le64(c)));
        break;
      case kHalf:
        *out = half_to_double(c[0] | c[1] << 8);
        break;
      default:  // bfloat16: the top half of a float
        *out = as_float(static_cast<uint32_t>(c[0] | c[1] << 8) << 16);
        break;
    }
    return true;
  }
  if (!have) return false;
  *out = first;
  return true;
}

// SummaryMetadata: the scalars plugin's, data_class = scalar, or naming no plugin at all?
bool metadata_scalar(const uint8_t* p, size_t n) {
  wire::Reader r(p, n);
  wire::Field f;
  std::string_view plugin;
  uint64_t data_class = 0;
  while (r.next(&f) == wire::Status::kOk) {
    if (f.number == 1 && f.type == wire::kLen) {
      wire::Reader pd(f.data, f.size);
      wire::Field g;
      while (pd.next(&g) == wire::Status::kOk)
        if (g.number == 1 && g.type == wire::kLen) plugin = g.text();
    } else if (f.number == 4 && f.type == wire::kVarint) {
      data_class = f.value;
    }
  }
  return plugin == "scalars" || (plugin.empty() && data_class <= 1) || data_class == 1;
}

}  // namespace

bool looks_like_tfevents(const uint8_t* p, size_t n) {
  if (n < 12) return false;
  return crc32c_mask(crc32c(p, 8)) == le32(p + 8) && le64(p) < (uint64_t{1} << 40);
}

void TfEventsReader::fail(const std::string& why) {
  result_.error = why + " (the " + std::to_string(result_.records) + " records before it are read)";
  stopped_ = true;
}

void TfEventsReader::feed(const uint8_t* p, size_t n) {
  while (n && !stopped_) {
    if (part_ == Part::kHeader) {
      if (have_ == 0) record_start_ = offset_;
      const size_t k = std::min(n, size_t{12} - have_);
      std::memcpy(frame_ + have_, p, k);
      have_ += k, p += k, n -= k, offset_ += k;
      if (have_ < 12) return;
      length_ = le64(frame_);
      if (crc32c_mask(crc32c(frame_, 8)) != le32(frame_ + 8)) {
        fail("tfevents: the length of the record at byte " + std::to_string(record_start_) +
             " fails its CRC check");
        return;
      }
      part_ = Part::kData, have_ = 0, data_crc_ = 0;
      data_.clear();
      if (length_ <= kMaxDecoded) data_.reserve(static_cast<size_t>(length_));
      continue;
    }
    if (part_ == Part::kData) {
      const uint64_t left = length_ - have_;
      const size_t k = static_cast<size_t>(std::min<uint64_t>(n, left));
      data_crc_ = crc32c_extend(data_crc_, p, k);
      if (length_ <= kMaxDecoded) data_.append(reinterpret_cast<const char*>(p), k);
      have_ += k, p += k, n -= k, offset_ += k;
      if (have_ < length_) return;
      part_ = Part::kFooter, have_ = 0;
      continue;
    }
    const size_t k = std::min(n, size_t{4} - have_);
    std::memcpy(frame_ + have_, p, k);
    have_ += k, p += k, n -= k, offset_ += k;
    if (have_ < 4) return;
    if (crc32c_mask(data_crc_) != le32(frame_)) {
      fail("tfevents: the data of the record at byte " + std::to_string(record_start_) +
           " fails its CRC check");
      return;
    }
    record_done();
    part_ = Part::kHeader, have_ = 0;
  }
}

void TfEventsReader::finish() {
  if (!stopped_ && !(part_ == Part::kHeader && have_ == 0))
    fail("tfevents: the file ends inside the record at byte " + std::to_string(record_start_));
  choose();
}

void TfEventsReader::record_done() {
  ++result_.records;
  if (length_ <= kMaxDecoded) event(reinterpret_cast<const uint8_t*>(data_.data()), data_.size());
}

void TfEventsReader::event(const uint8_t* p, size_t n) {
  wire::Reader r(p, n);
  wire::Field f;
  int64_t step = 0;
  const uint8_t* summary = nullptr;
  size_t summary_n = 0;
  wire::Status st;
  while ((st = r.next(&f)) == wire::Status::kOk) {
    if (f.number == 2 && f.type == wire::kVarint) step = wire::as_int64(f.value);
    if (f.number == 5 && f.type == wire::kLen) summary = f.data, summary_n = f.size;
  }
  if (st != wire::Status::kEnd) {
    skip("the Event in the record at byte " + std::to_string(record_start_) + " is malformed (" +
         r.why + ")");
    return;
  }
  if (!summary) return;
  wire::Reader s(summary, summary_n);
  while (s.next(&f) == wire::Status::kOk)
    if (f.number == 1 && f.type == wire::kLen) value(f.data, f.size, step);
}

void TfEventsReader::value(const uint8_t* p, size_t n, int64_t step) {
  wire::Reader r(p, n);
  wire::Field f;
  std::string_view tag;
  const uint8_t* tensor = nullptr;
  size_t tensor_n = 0;
  bool simple = false, has_metadata = false, metadata_says_scalar = false;
  double v = 0;
  while (r.next(&f) == wire::Status::kOk) {
    if (f.number == 1 && f.type == wire::kLen) tag = f.text();
    if (f.number == 2 && f.type == wire::kFixed32)
      simple = true, v = as_float(static_cast<uint32_t>(f.value));
    if (f.number == 8 && f.type == wire::kLen) tensor = f.data, tensor_n = f.size;
    if (f.number == 9 && f.type == wire::kLen)
      has_metadata = true, metadata_says_scalar = metadata_scalar(f.data, f.size);
  }
  if (tag.empty()) return;
  const std::string key(tag);
  auto known = tag_is_scalar_.find(key);
  if (known == tag_is_scalar_.end() && has_metadata)
    known = tag_is_scalar_.emplace(key, metadata_says_scalar).first;
  if (known != tag_is_scalar_.end() && !known->second) return;
  if (!simple && !(tensor && tensor_scalar(tensor, tensor_n, &v))) return;
  keys_.add(key, &result_.series_keys);
  LossSeries& s = by_tag_[key];
  s.iteration.push_back(step);
  s.loss.push_back(v);
}

void TfEventsReader::choose() {
  // A series the user (or the head's guess) named is kept even when absent, so the note says
  // so; only no name at all (a head with no scalars yet) is guessed from the whole file.
  result_.series =
      !sel_.series.empty() ? sel_.series : guess_metrics_selection(result_, "step").series;
  const auto chosen = by_tag_.find(result_.series);
  if (chosen != by_tag_.end()) result_.points = std::move(chosen->second);
  by_tag_.clear();
}

}  // namespace strata
