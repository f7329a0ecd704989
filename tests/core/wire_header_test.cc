// wire::HeaderReader, the top-level field header reader the XSpace and Perfetto importers share:
// a header read whole or cut at every byte across two or three chunks is the same header, a
// 10-byte continuation run is refused, and the caller's rule sees the tag before its length.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/formats/protobuf/wire.h"

namespace strata {
namespace {

using R = wire::HeaderReader::Result;

std::vector<uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

// Field 3, length-delimited, 300 bytes long (the length takes two bytes), then a payload byte.
std::vector<uint8_t> len_header() {
  std::string s;
  wire::append_varint(&s, (3u << 3) | wire::kLen);
  wire::append_varint(&s, 300);
  s += 'x';
  return bytes(s);
}

auto any_tag = [](const wire::FieldHeader&) { return true; };

// Feeds `in` cut at `cuts` (ascending) until a header is read; the bytes used in all.
R read_cut(const std::vector<uint8_t>& in, const std::vector<size_t>& cuts, wire::FieldHeader* h,
           size_t* used_total) {
  wire::HeaderReader r;
  size_t at = 0;
  *used_total = 0;
  std::vector<size_t> ends = cuts;
  ends.push_back(in.size());
  for (size_t end : ends) {
    size_t used = 0;
    const R got = r.read(in.data() + at, end - at, h, &used, any_tag);
    *used_total += used;
    at += used;
    if (got != R::kMore) return got;
    EXPECT_EQ(r.pending(), *used_total > 0);  // what came so far is stashed
    at = end;                                 // kMore took the chunk (stashed)
  }
  return R::kMore;
}

TEST(WireHeader, ReadWholeOrCutAtEveryByte) {
  const std::vector<uint8_t> in = len_header();
  for (size_t a = 0; a <= 3; ++a)
    for (size_t b = a; b <= 3; ++b) {
      wire::FieldHeader h;
      size_t used = 0;
      ASSERT_EQ(read_cut(in, {a, b}, &h, &used), R::kHeader) << a << " " << b;
      EXPECT_EQ(h.number, 3u);
      EXPECT_EQ(h.type, wire::kLen);
      EXPECT_EQ(h.len, 300u);
      EXPECT_EQ(used, 3u) << "the header's three bytes, never the payload";
    }
}

TEST(WireHeader, FixedAndVarintFieldsGiveTheirSize) {
  std::string s;
  wire::append_varint(&s, (5u << 3) | wire::kFixed64);
  wire::HeaderReader r;
  wire::FieldHeader h;
  size_t used = 0;
  ASSERT_EQ(r.read(reinterpret_cast<const uint8_t*>(s.data()), s.size(), &h, &used, any_tag),
            R::kHeader);
  EXPECT_EQ(h.len, 8u);
  s.clear();
  wire::append_varint(&s, (6u << 3) | wire::kVarint);
  wire::append_varint(&s, 123456);
  ASSERT_EQ(r.read(reinterpret_cast<const uint8_t*>(s.data()), s.size(), &h, &used, any_tag),
            R::kHeader);
  EXPECT_EQ(h.len, 123456u);  // a varint field's value
  EXPECT_EQ(used, s.size());
}

TEST(WireHeader, HostileHeaders) {
  wire::HeaderReader r;
  wire::FieldHeader h;
  size_t used = 0;
  const std::vector<uint8_t> run(11, 0xff);
  EXPECT_EQ(r.read(run.data(), run.size(), &h, &used, any_tag), R::kLongVarint);
  EXPECT_FALSE(r.pending());
  // A group wire type has no length.
  const std::vector<uint8_t> group = {(7u << 3) | 3};
  EXPECT_EQ(r.read(group.data(), group.size(), &h, &used, any_tag), R::kBadType);
  // The caller's rule sees the tag first: a packet stream takes length-delimited fields only.
  const std::vector<uint8_t> varint = {(1u << 3) | wire::kVarint, 0x80};
  EXPECT_EQ(r.read(varint.data(), varint.size(), &h, &used,
                   [](const wire::FieldHeader& f) { return f.type == wire::kLen; }),
            R::kRejected);
  EXPECT_EQ(h.number, 1u);
  // A header cut by the end of the data waits; it is pending until completed.
  const std::vector<uint8_t> in = len_header();
  EXPECT_EQ(r.read(in.data(), 2, &h, &used, any_tag), R::kMore);
  EXPECT_EQ(used, 2u);
  EXPECT_TRUE(r.pending());
  r.reset();
  EXPECT_FALSE(r.pending());
}

}  // namespace
}  // namespace strata
