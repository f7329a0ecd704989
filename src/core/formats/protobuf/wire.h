// A minimal protobuf wire-format reader over one contiguous byte range, and the streaming reader
// of a file's top-level field headers that the XSpace and Perfetto importers share (their chunks
// may cut a header). The xplane importer walks XSpace with it instead of generated classes: the big
// repeated fields (lines, events, stats) go straight into the event store without a message object
// per event, and the reader knows every field's byte offset, which error messages and the details
// pane (re-reading one XEvent from the file) need. Every read is bounds-checked; nothing here
// allocates but read_ints.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace strata::wire {

enum WireType : uint8_t {
  kVarint = 0,
  kFixed64 = 1,
  kLen = 2,  // strings, bytes, embedded messages, packed repeated fields
  kFixed32 = 5,
};

enum class Status : uint8_t {
  kOk,
  kEnd,        // no more fields: the range is exhausted exactly at a field boundary
  kTruncated,  // the range ends inside a field (a cut file, or a bad length)
  kMalformed,  // bytes no encoder writes: overlong varint, field number 0, group wire types
};

// One field as read: number, wire type and either a scalar or the payload of a kLen field.
struct Field {
  uint32_t number = 0;
  uint8_t type = 0;
  uint64_t value = 0;             // kVarint, kFixed64, kFixed32
  const uint8_t* data = nullptr;  // kLen payload
  size_t size = 0;
  std::string_view text() const { return {reinterpret_cast<const char*>(data), size}; }
};

// Reads a base-128 varint. False when the range ends first or it has more than 10 bytes.
[[gnu::always_inline]] inline bool read_varint(const uint8_t*& p, const uint8_t* end,
                                               uint64_t* out) {
  if (p < end && *p < 0x80) {  // the common case: one byte
    *out = *p++;
    return true;
  }
  uint64_t v = 0;
  const uint8_t* q = p;
  for (int shift = 0; shift < 70; shift += 7) {
    if (q == end) return false;
    const uint8_t b = *q++;
    v |= static_cast<uint64_t>(b & 0x7f) << (shift < 64 ? shift : 63);
    if (b < 0x80) {
      *out = v;
      p = q;
      return true;
    }
  }
  return false;
}

// A cursor over [p, end). `why` says what went wrong when a call returns an error status; the
// failing field starts at `field_start`.
struct Reader {
  const uint8_t* p;
  const uint8_t* end;
  const uint8_t* field_start = nullptr;
  const char* why = "";

  Reader(const uint8_t* begin, const uint8_t* stop) : p(begin), end(stop) {}
  Reader(const uint8_t* begin, size_t n) : p(begin), end(begin + n) {}

  bool done() const { return p >= end; }

  // Reads the next field. Does not interpret the payload of kLen fields. Always inlined: it is
  // the inner loop of the importer, and clang leaves it out of line in wasm otherwise.
  [[gnu::always_inline]] Status next(Field* f) {
    field_start = p;
    if (p >= end) return Status::kEnd;
    uint64_t tag;
    if (!read_varint(p, end, &tag)) return fail_varint("field tag");
    f->number = static_cast<uint32_t>(tag >> 3);
    f->type = static_cast<uint8_t>(tag & 7);
    if ((tag >> 3) == 0 || (tag >> 3) > 0x1fffffff) {
      why = "field number 0 or out of range";
      return Status::kMalformed;
    }
    switch (f->type) {
      case kVarint:
        if (!read_varint(p, end, &f->value)) return fail_varint("varint value");
        return Status::kOk;
      case kFixed64:
        if (end - p < 8) return truncated("8-byte value");
        std::memcpy(&f->value, p, 8);
        p += 8;
        return Status::kOk;
      case kFixed32: {
        if (end - p < 4) return truncated("4-byte value");
        uint32_t v;
        std::memcpy(&v, p, 4);
        f->value = v;
        p += 4;
        return Status::kOk;
      }
      case kLen: {
        uint64_t n;
        if (!read_varint(p, end, &n)) return fail_varint("length");
        if (n > static_cast<uint64_t>(end - p)) return truncated("length-delimited field");
        f->data = p;
        f->size = static_cast<size_t>(n);
        p += n;
        return Status::kOk;
      }
      default:
        why = "unsupported wire type (groups or a corrupt tag)";
        return Status::kMalformed;
    }
  }

 private:
  Status truncated(const char* what) {
    why = what;
    return Status::kTruncated;
  }
  // A varint cut by the end of the range is a truncation; 11+ continuation bytes are garbage.
  Status fail_varint(const char* what) {
    why = what;
    const uint8_t* q = p;
    int n = 0;
    while (q < end && (*q & 0x80) && n < 10) ++q, ++n;
    return (q == end && n < 10) ? Status::kTruncated : Status::kMalformed;
  }
};

// A file's top-level field: its number and wire type, and `len`: a kLen field's length, a kVarint
// field's value, 8 or 4 for the fixed types.
struct FieldHeader {
  uint64_t tag = 0;
  uint32_t number = 0;
  uint8_t type = 0;
  uint64_t len = 0;
};

// Reads top-level field headers from a stream given in chunks: a header cut by a chunk's end is
// stashed (at most 20 bytes: a tag and a length of 10 each) and completed from the next chunk.
class HeaderReader {
 public:
  enum class Result : uint8_t {
    kHeader,      // *h is the header; `used` bytes of the chunk were its last bytes
    kMore,        // the chunk ended inside the header: `used` bytes were stashed, give more
    kLongVarint,  // a varint of 10 continuation bytes: no encoder writes it
    kRejected,    // `accept(h)` refused the tag (h->tag, number and type are set)
    kBadType,     // a wire type that has no length (groups, 3, 4, 6, 7)
  };

  // Whether part of a header is stashed (the next field does not start in the next chunk).
  bool pending() const { return size_ > 0; }
  void reset() { size_ = 0; }

  // Reads the header that starts in the stash (if any) and goes on in data[0, n). `accept`
  // sees the tag before its length is read (a caller's rules: which numbers and types it
  // takes).
  template <typename Accept>
  Result read(const uint8_t* data, size_t n, FieldHeader* h, size_t* used, Accept&& accept) {
    const size_t had = size_;
    const uint8_t* p;
    const uint8_t* end;
    size_t take = 0;
    if (had == 0) {  // in place when nothing is stashed
      p = data, end = data + n;
    } else {
      take = n < sizeof head_ - had ? n : sizeof head_ - had;
      std::memcpy(head_ + had, data, take);
      size_ += take;
      p = head_, end = head_ + size_;
    }
    const uint8_t* q = p;
    bool ok = read_varint(q, end, &h->tag);
    if (ok) {
      h->number = static_cast<uint32_t>(h->tag >> 3);
      h->type = static_cast<uint8_t>(h->tag & 7);
      if (!accept(*h)) {
        size_ = 0;
        *used = n;
        return Result::kRejected;
      }
      switch (h->type) {
        case kLen:
        case kVarint:
          ok = read_varint(q, end, &h->len);
          break;
        case kFixed64:
          h->len = 8;
          break;
        case kFixed32:
          h->len = 4;
          break;
        default:
          size_ = 0;
          *used = n;
          return Result::kBadType;
      }
    }
    if (!ok) {
      // q is where the varint that could not be read starts: too long, or not all here yet.
      int run = 0;
      while (q + run < end && (q[run] & 0x80) && run < 10) ++run;
      if (run == 10) {
        size_ = 0;
        *used = n;
        return Result::kLongVarint;
      }
      if (had == 0) {  // wait for more bytes, keeping these (fewer than a header's 20)
        take = n < sizeof head_ ? n : sizeof head_;
        std::memcpy(head_, data, take);
        size_ = take;
        *used = n;
      } else {
        *used = take;
      }
      return Result::kMore;
    }
    *used = static_cast<size_t>(q - p) - had;
    size_ = 0;
    return Result::kHeader;
  }

 private:
  uint8_t head_[20] = {};
  size_t size_ = 0;
};

// Appends v as a base-128 varint (the writing side, for the few places that emit wire bytes).
inline void append_varint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

inline int64_t as_int64(uint64_t v) { return static_cast<int64_t>(v); }

// Appends a repeated int64 field to `out`: one varint, or a packed run of them. False for
// another wire type or a packed run cut inside a varint.
inline bool read_ints(const Field& f, std::vector<int64_t>* out) {
  if (f.type == kVarint) {
    out->push_back(as_int64(f.value));
    return true;
  }
  if (f.type != kLen) return false;
  const uint8_t* p = f.data;
  const uint8_t* end = f.data + f.size;
  while (p < end) {
    uint64_t v;
    if (!read_varint(p, end, &v)) return false;
    out->push_back(as_int64(v));
  }
  return true;
}

inline double as_double(uint64_t v) {
  double d;
  std::memcpy(&d, &v, 8);
  return d;
}

}  // namespace strata::wire
