// Perfetto's compressed packet bundles (TracePacket.compressed_packets) and the legacy async
// phases of TrackEvent legacy events, on the generated bundled trace, against a walk of its
// packets here (zlib's own inflate, a hand-written protobuf reader).
#include <gtest/gtest.h>
#include <zlib.h>

#include <map>
#include <string>

#include "core/formats/perfetto/perfetto_importer.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "tools/perfetto_trace_writer.h"

namespace strata {
namespace {

std::string zlib_deflate(const std::string& in) {
  uLongf n = compressBound(in.size());
  std::string out(n, '\0');
  EXPECT_EQ(compress2(reinterpret_cast<Bytef*>(out.data()), &n,
                      reinterpret_cast<const Bytef*>(in.data()), in.size(), Z_BEST_SPEED),
            Z_OK);
  out.resize(n);
  return out;
}

std::string zlib_inflate(const std::string& in) {
  std::string out(in.size() * 64 + 4096, '\0');
  uLongf n = out.size();
  EXPECT_EQ(uncompress(reinterpret_cast<Bytef*>(out.data()), &n,
                       reinterpret_cast<const Bytef*>(in.data()), in.size()),
            Z_OK);
  out.resize(n);
  return out;
}

uint64_t varint(const std::string& s, size_t* i) {
  uint64_t v = 0;
  for (int sh = 0; *i < s.size() && sh < 64; sh += 7) {
    const uint8_t x = static_cast<uint8_t>(s[(*i)++]);
    v |= uint64_t{x & 0x7fu} << sh;
    if (!(x & 0x80)) break;
  }
  return v;
}

// Calls fn(field, value, payload) for each varint or length-delimited field of s.
template <class Fn>
void walk(const std::string& s, Fn fn) {
  size_t i = 0;
  while (i < s.size()) {
    const uint64_t tag = varint(s, &i);
    const uint32_t type = tag & 7;
    uint64_t v = 0;
    std::string payload;
    if (type == 0) {
      v = varint(s, &i);
    } else if (type == 2) {
      const uint64_t n = varint(s, &i);
      payload = s.substr(i, n);
      i += n;
    } else if (type == 1 || type == 5) {
      i += type == 1 ? 8 : 4;
    } else {
      return;
    }
    fn(static_cast<uint32_t>(tag >> 3), v, payload);
  }
}

struct Decoded {
  uint64_t bundled_begins = 0, bundled_instants = 0;
  std::map<std::string, uint64_t> async_begins;  // legacy b / S, by name
};

void decode_packet(const std::string& packet, bool bundled, Decoded* d) {
  walk(packet, [&](uint32_t f, uint64_t, const std::string& m) {
    if (f == 50) {
      walk(zlib_inflate(m), [&](uint32_t g, uint64_t, const std::string& inner) {
        if (g == 1) decode_packet(inner, true, d);
      });
    }
    if (f != 11) return;
    uint64_t type = 0, phase = 0;
    std::string name;
    walk(m, [&](uint32_t g, uint64_t v, const std::string& p) {
      if (g == 9) type = v;
      if (g == 23) name = p;
      if (g == 6)
        walk(p, [&](uint32_t h, uint64_t w, const std::string&) {
          if (h == 2) phase = w;
        });
    });
    if (bundled && type == 1) ++d->bundled_begins;
    if (bundled && type == 3) ++d->bundled_instants;
    if (phase == 'b' || phase == 'S') ++d->async_begins[name];
  });
}

Decoded decode(const std::string& trace) {
  Decoded d;
  walk(trace, [&](uint32_t f, uint64_t, const std::string& packet) {
    if (f == 1) decode_packet(packet, false, &d);
  });
  return d;
}

int64_t find_event(const TraceStore& s, std::string_view name) {
  for (size_t e = 0; e < s.events.size(); ++e)
    if (s.strings.get(s.events.name[e]) == name) return static_cast<int64_t>(e);
  return -1;
}

TEST(PerfettoBundle, CompressedPacketsAndLegacyAsyncMatchAnIndependentDecode) {
  const std::string trace = perfetto_writer::bundled_trace(zlib_deflate);
  const perfetto_writer::BundledCounts want;
  const Decoded d = decode(trace);
  EXPECT_EQ(d.bundled_begins, want.bundled_slices);
  EXPECT_EQ(d.bundled_instants, want.bundled_instants);
  uint64_t async_begins = 0;
  for (const auto& [name, n] : d.async_begins) async_begins += n;
  EXPECT_EQ(async_begins, want.async_slices);
  for (size_t chunk : {size_t{0}, size_t{1}, size_t{7}, size_t{100}}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    testing::ImportResult r = testing::import_with(make_perfetto_importer, trace, chunk);
    ASSERT_FALSE(r.failed) << r.failure;
    const TraceStore& s = *r.store;
    EXPECT_TRUE(s.errors.empty()) << (s.errors.empty() ? "" : s.errors.front());
    std::map<std::string, uint64_t> async;
    uint64_t bundled_slices = 0, bundled_instants = 0;
    for (size_t e = 0; e < s.events.size(); ++e) {
      const std::string name(s.strings.get(s.events.name[e]));
      const char ph = s.events.phase[e];
      if (ph == 'b' || ph == 'S') ++async[name];
      if (name == "bundled" || name == "inner") ++bundled_slices;
      if (name == "mark") ++bundled_instants;
    }
    EXPECT_EQ(async, d.async_begins);
    EXPECT_EQ(bundled_slices, d.bundled_begins);
    EXPECT_EQ(bundled_instants, d.bundled_instants);
    // Begins pair with their ends by id: the unscoped and the local id 5 are two slices.
    const int64_t request = find_event(s, "request");
    ASSERT_GE(request, 0);
    EXPECT_EQ(s.events.dur[request], 6'000);
    const int64_t bundled_request = find_event(s, "bundled request");
    ASSERT_GE(bundled_request, 0);
    EXPECT_EQ(s.events.dur[bundled_request], 1'000);
    uint64_t loads = 0;
    for (size_t e = 0; e < s.events.size(); ++e)
      if (s.strings.get(s.events.name[e]) == "load" && s.events.dur[e] == 4'000) ++loads;
    EXPECT_EQ(loads, 2u);
    // The bundled slices nest on their thread, named by its descriptor.
    const int64_t outer = find_event(s, "bundled"), inner = find_event(s, "inner");
    ASSERT_GE(outer, 0);
    ASSERT_GE(inner, 0);
    EXPECT_EQ(s.events.dur[outer], 4'000);
    EXPECT_EQ(s.events.dur[inner], 2'000);
    EXPECT_EQ(s.events.track[outer], s.events.track[inner]);
    EXPECT_EQ(s.strings.get(s.tracks[s.events.track[outer]].name), "bundled thread");
    // Their bytes are not in the file: no record to re-read.
    EXPECT_EQ(s.events.src_len[outer], 0u);
    testing::expect_valid_layout(s);
  }
  // The engine shows a bundled slice's details without a record.
  Engine e;
  ASSERT_TRUE(testing::load_trace(&e, "bundled.pftrace", trace)) << e.last_error();
  const int64_t ev = find_event(*e.store(), "bundled");
  ASSERT_GE(ev, 0);
  uint64_t off = 0;
  uint32_t len = 0;
  EXPECT_FALSE(e.event_source(static_cast<uint32_t>(ev), &off, &len));
  const std::string details = e.details_json(static_cast<uint32_t>(ev), "");
  EXPECT_NE(details.find("\"bundled\""), std::string::npos) << details;
}

TEST(PerfettoBundle, ADamagedBundleIsCountedAndThePacketsAroundItStay) {
  std::string trace = perfetto_writer::bundled_trace(zlib_deflate);
  // The bundle is the last packet: corrupt its deflate stream past the zlib header.
  const size_t at = trace.size() - 20;
  for (size_t i = at; i < at + 8; ++i) trace[i] = static_cast<char>(trace[i] ^ 0x5a);
  testing::ImportResult r = testing::import_with(make_perfetto_importer, trace);
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  EXPECT_GE(find_event(s, "request"), 0);  // before the bundle: kept
  // The bundle, or the garbage packets it inflated to before its checksum failed, is counted.
  bool said = false;
  for (const std::string& m : s.errors) said |= m.find("do not decode") != std::string::npos;
  EXPECT_TRUE(said) << (s.errors.empty() ? "no error" : s.errors.front());
}

}  // namespace
}  // namespace strata
