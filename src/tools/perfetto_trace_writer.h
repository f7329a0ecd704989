// Writes Perfetto protobuf traces for tests, fuzz seeds and benchmarks: a small message builder
// and two traces made with it.
//   feature_trace(): every TrackEvent feature the importer reads, with the counts it must find
//     (FeatureCounts) - what the real samples lack (interning, several sequences, incremental
//     state cleared and re-sent, clocks, counters, flows, legacy events, late descriptors);
//   bundled_trace(): compressed packet bundles and legacy async events (BundledCounts);
//   scaled_trace(): a Chrome-shaped trace of about `bytes` (threads on their own sequences,
//     interned names and categories, nested slices with debug annotations), for benchmarks.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace strata::perfetto_writer {

class Msg {
 public:
  Msg& varint(uint32_t field, uint64_t v) {
    tag(field, 0);
    put(v);
    return *this;
  }
  Msg& sint(uint32_t field, int64_t v) { return varint(field, static_cast<uint64_t>(v)); }
  Msg& fixed64(uint32_t field, uint64_t v) {
    tag(field, 1);
    char b[8];
    std::memcpy(b, &v, 8);
    bytes_.append(b, 8);
    return *this;
  }
  Msg& dbl(uint32_t field, double d) {
    uint64_t v;
    std::memcpy(&v, &d, 8);
    return fixed64(field, v);
  }
  Msg& str(uint32_t field, std::string_view s) {
    tag(field, 2);
    put(s.size());
    bytes_.append(s);
    return *this;
  }
  Msg& msg(uint32_t field, const Msg& m) { return str(field, m.bytes_); }
  const std::string& bytes() const { return bytes_; }

 private:
  void tag(uint32_t field, int type) { put((uint64_t{field} << 3) | static_cast<uint64_t>(type)); }
  void put(uint64_t v) {
    while (v >= 0x80) {
      bytes_.push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    bytes_.push_back(static_cast<char>(v));
  }
  std::string bytes_;
};

// Field numbers, as in protos/perfetto/trace (kept apart from the importer's own table so a
// mistake in one is not copied into the other unseen).
enum : uint32_t {
  kPacket = 1,
  // TracePacket
  kFtrace = 1,
  kSnapshot = 6,
  kTs = 8,
  kSeq = 10,
  kEvent = 11,
  kInterned = 12,
  kFlags = 13,
  kProcessDesc = 43,
  kCompressedPackets = 50,
  kThreadDesc = 44,
  kClockId = 58,
  kDefaults = 59,
  kTrackDesc = 60,
  // TrackEvent
  kDeltaUs = 1,
  kCatIids = 3,
  kDebug = 4,
  kLegacy = 6,
  kType = 9,
  kNameIid = 10,
  kTrack = 11,
  kExtraValues = 12,
  kCats = 22,
  kName = 23,
  kCounterValue = 30,
  kExtraUuids = 31,
  kLocationIid = 34,
  kDoubleCounter = 44,
  kFlowIds = 47,
  kTerminating = 48,
};

struct FeatureCounts {
  uint64_t slices = 7, instants = 3, counter_samples = 3, flows = 2, skipped_packets = 1;
  int64_t step_start_ns = 5'000'000'000 + 10'000;  // first slice, on the incremental clock
  int64_t monotonic_instant_ns = 5'000'000'000 + 51'000;
};

inline Msg debug_int(uint64_t name_iid, int64_t v) { return Msg().varint(1, name_iid).sint(4, v); }

inline std::string feature_trace() {
  std::string t;
  auto packet = [&t](const Msg& m) { t += Msg().msg(kPacket, m).bytes(); };
  const uint64_t process = 100, thread = 101, lane = 102, counter = 103, global = 104, late = 999;
  // Sequence 1: Perfetto SDK style, interned, an incremental clock 64 in microseconds.
  auto sdk_reset = [&](const char* step_name) {
    Msg defaults;
    defaults.varint(kClockId, 64).msg(11, Msg().varint(kTrack, thread));
    Msg snapshot;
    snapshot.msg(1, Msg().varint(1, 64).varint(2, 0).varint(3, 1).varint(4, 1000));
    snapshot.msg(1, Msg().varint(1, 6).varint(2, 5'000'000'000));
    Msg interned;
    interned.msg(2, Msg().varint(1, 1).str(2, step_name));
    interned.msg(2, Msg().varint(1, 2).str(2, "matmul"));
    interned.msg(1, Msg().varint(1, 1).str(2, "compute"));
    interned.msg(3, Msg().varint(1, 1).str(2, "batch"));
    interned.msg(3, Msg().varint(1, 2).str(2, "shape"));
    interned.msg(4, Msg().varint(1, 1).str(2, "model.py").str(3, "forward").varint(4, 12));
    interned.msg(29, Msg().varint(1, 1).str(2, "f32[8,128]"));
    packet(Msg()
               .varint(kSeq, 1)
               .varint(kFlags, 1)
               .msg(kDefaults, defaults)
               .msg(kSnapshot, snapshot)
               .msg(kInterned, interned));
  };
  auto sdk = [&](uint64_t delta_us, const Msg& event) {
    packet(Msg().varint(kSeq, 1).varint(kFlags, 2).varint(kTs, delta_us).msg(kEvent, event));
  };
  sdk_reset("step");
  packet(Msg().varint(kSeq, 1).msg(
      kTrackDesc, Msg().varint(1, process).msg(3, Msg().varint(1, 42).str(6, "synth_process"))));
  packet(Msg().varint(kSeq, 1).msg(
      kTrackDesc, Msg()
                      .varint(1, thread)
                      .varint(5, process)
                      .msg(4, Msg().varint(1, 42).varint(2, 43).str(5, "worker"))));
  packet(Msg().varint(kSeq, 1).msg(kTrackDesc,
                                   Msg().varint(1, lane).varint(5, process).str(2, "async lane")));
  packet(Msg().varint(kSeq, 1).msg(
      kTrackDesc,
      Msg().varint(1, counter).varint(5, process).str(2, "memory").msg(8, Msg().varint(4, 1024))));
  packet(Msg().varint(kSeq, 1).msg(kTrackDesc, Msg().varint(1, global).str(2, "global lane")));
  Msg shape;
  shape.varint(1, 2).varint(17, 1);  // interned name, interned string value
  sdk(10, Msg()
              .varint(kType, 1)
              .varint(kNameIid, 1)
              .varint(kCatIids, 1)
              .msg(kDebug, debug_int(1, 32))
              .msg(kDebug, shape)
              .varint(kLocationIid, 1)
              .fixed64(kFlowIds, 7));
  Msg nested;
  nested.str(10, "config")
      .msg(11, Msg().str(10, "k").varint(3, 3))
      .msg(11, Msg().str(10, "on").varint(2, 1));
  sdk(5, Msg().varint(kType, 1).varint(kNameIid, 2).msg(kDebug, nested));
  sdk(20, Msg().varint(kType, 2));
  sdk(5, Msg()
             .varint(kType, 3)
             .str(kName, "tick")
             .varint(kExtraUuids, counter)
             .varint(kExtraValues, 3));
  sdk(10, Msg().varint(kType, 2));
  sdk(5, Msg().varint(kType, 4).varint(kTrack, counter).sint(kCounterValue, 10));
  sdk(5, Msg().varint(kType, 4).varint(kTrack, counter).dbl(kDoubleCounter, 2.5));
  // Incremental state cleared: iid 1 now names "step2", the clock starts over.
  sdk_reset("step2");
  sdk(100, Msg().varint(kType, 1).varint(kNameIid, 1));
  sdk(10, Msg().varint(kType, 2));
  // Sequence 2: no interning, BOOTTIME timestamps, custom tracks, a flow's end, a late track.
  auto plain = [&](uint64_t ts, const Msg& event) {
    packet(Msg().varint(kSeq, 2).varint(kTs, ts).msg(kEvent, event));
  };
  plain(5'000'015'000, Msg()
                           .varint(kType, 1)
                           .varint(kTrack, lane)
                           .str(kName, "async op")
                           .str(kCats, "io")
                           .fixed64(kTerminating, 7));
  plain(5'000'045'000, Msg().varint(kType, 2).varint(kTrack, lane));
  plain(5'000'020'000, Msg().varint(kType, 3).varint(kTrack, global).str(kName, "global mark"));
  plain(5'000'050'000, Msg().varint(kType, 1).varint(kTrack, late).str(kName, "late"));
  plain(5'000'060'000, Msg().varint(kType, 2).varint(kTrack, late));
  packet(Msg().varint(kSeq, 2).msg(
      kTrackDesc,
      Msg().varint(1, late).msg(4, Msg().varint(1, 42).varint(2, 44).str(5, "late thread"))));
  // A MONOTONIC timestamp, mapped by a ClockSnapshot.
  packet(Msg().varint(kSeq, 2).msg(kSnapshot,
                                   Msg()
                                       .msg(1, Msg().varint(1, 3).varint(2, 1000))
                                       .msg(1, Msg().varint(1, 6).varint(2, 5'000'001'000))));
  packet(
      Msg()
          .varint(kSeq, 2)
          .varint(kTs, 51'000)
          .varint(kClockId, 3)
          .msg(kEvent, Msg().varint(kType, 3).varint(kTrack, global).str(kName, "on monotonic")));
  // Sequence 3 needs incremental state it never had: skipped.
  packet(Msg()
             .varint(kSeq, 3)
             .varint(kFlags, 2)
             .varint(kTs, 5'000'000'000)
             .msg(kEvent, Msg().varint(kType, 3).varint(kNameIid, 1)));
  // Sequence 4: Chrome's legacy form: a ThreadDescriptor, microsecond deltas, legacy events.
  packet(Msg().varint(kSeq, 4).varint(kFlags, 1).msg(
      kInterned, Msg()
                     .msg(2, Msg().varint(1, 1).str(2, "legacy complete"))
                     .msg(2, Msg().varint(1, 2).str(2, "legacy slice"))));
  packet(Msg().varint(kSeq, 4).msg(kProcessDesc, Msg().varint(1, 50).str(6, "legacy_proc")));
  packet(Msg().varint(kSeq, 4).msg(
      kThreadDesc, Msg().varint(1, 50).varint(2, 51).str(5, "legacy thread").sint(6, 5'000'100)));
  packet(Msg().varint(kSeq, 4).varint(kFlags, 2).msg(
      kEvent, Msg()
                  .sint(kDeltaUs, 1)
                  .msg(kLegacy, Msg().varint(1, 2).sint(2, 'B').varint(8, 9).varint(13, 2))));
  packet(Msg().varint(kSeq, 4).varint(kFlags, 2).msg(
      kEvent,
      Msg()
          .sint(kDeltaUs, 2)
          .msg(kLegacy, Msg().varint(1, 1).sint(2, 'X').sint(3, 7).varint(8, 9).varint(13, 1))));
  packet(Msg().varint(kSeq, 4).varint(kFlags, 2).msg(
      kEvent, Msg().sint(kDeltaUs, 20).msg(kLegacy, Msg().sint(2, 'E'))));
  // Data Strata does not draw.
  packet(Msg().msg(kFtrace, Msg().varint(1, 0)));
  return t;
}

struct BundledCounts {
  // Inside the compressed bundle: slices and instants on the bundled thread.
  uint64_t bundled_slices = 2, bundled_instants = 1;
  // Legacy async slices (b/e and S/F pairs with ids), one of them inside the bundle.
  uint64_t async_slices = 4;
};

// Compressed packet bundles and legacy async events: the trace a compressing Perfetto writer
// produces (TracePacket.compressed_packets holding a zlib-deflated run of packets) and Chrome's
// legacy async phases. `deflate(bytes)` compresses with zlib (the caller's: this header links
// nothing). Counts in BundledCounts.
template <class Deflate>
std::string bundled_trace(Deflate deflate) {
  std::string t;
  auto packet = [&t](const Msg& m) { t += Msg().msg(kPacket, m).bytes(); };
  const uint64_t process = 200, thread = 201;
  packet(Msg().varint(kSeq, 5).msg(
      kTrackDesc, Msg().varint(1, process).msg(3, Msg().varint(1, 60).str(6, "bundled_proc"))));
  packet(Msg().varint(kSeq, 5).msg(
      kTrackDesc, Msg()
                      .varint(1, thread)
                      .varint(5, process)
                      .msg(4, Msg().varint(1, 60).varint(2, 61).str(5, "bundled thread"))));
  // Chrome's legacy async events on a ThreadDescriptor's thread: ids pair begins with ends.
  auto legacy = [](char phase, const char* name, uint32_t id_field, uint64_t id) {
    return Msg()
        .str(kName, name)
        .str(kCats, "net")
        .msg(kLegacy, Msg().sint(2, phase).varint(id_field, id));
  };
  const uint32_t kUnscopedId = 6, kLocalId = 10, kGlobalId = 11;
  packet(Msg().varint(kSeq, 6).msg(
      kThreadDesc, Msg().varint(1, 70).varint(2, 71).str(5, "async thread").sint(6, 0)));
  auto on6 = [&](uint64_t ts, const Msg& e) {
    packet(Msg().varint(kSeq, 6).varint(kTs, ts).msg(kEvent, e));
  };
  on6(6'000'000'000, legacy('b', "load", kUnscopedId, 5));
  on6(6'000'001'000, legacy('b', "load", kLocalId, 5));  // another group than unscoped id 5
  on6(6'000'002'000, legacy('S', "request", kGlobalId, 9));
  on6(6'000'004'000, legacy('e', "load", kUnscopedId, 5));
  on6(6'000'005'000, legacy('e', "load", kLocalId, 5));
  on6(6'000'008'000, legacy('F', "request", kGlobalId, 9));
  // The bundle: slices and an instant on the bundled thread, and one more async pair.
  std::string inner;
  auto bundled = [&inner](uint32_t seq, uint64_t ts, const Msg& e) {
    inner += Msg().msg(kPacket, Msg().varint(kSeq, seq).varint(kTs, ts).msg(kEvent, e)).bytes();
  };
  bundled(5, 6'000'010'000, Msg().varint(kType, 1).varint(kTrack, thread).str(kName, "bundled"));
  bundled(5, 6'000'011'000, Msg().varint(kType, 1).varint(kTrack, thread).str(kName, "inner"));
  bundled(5, 6'000'012'000, Msg().varint(kType, 3).varint(kTrack, thread).str(kName, "mark"));
  bundled(5, 6'000'013'000, Msg().varint(kType, 2).varint(kTrack, thread));
  bundled(5, 6'000'014'000, Msg().varint(kType, 2).varint(kTrack, thread));
  bundled(6, 6'000'015'000, legacy('S', "bundled request", kGlobalId, 10));
  bundled(6, 6'000'016'000, legacy('F', "bundled request", kGlobalId, 10));
  packet(Msg().str(kCompressedPackets, deflate(inner)));
  return t;
}

// About `bytes` of a Chrome-shaped trace: `threads` sequences, each a thread track with
// interned names, slices nested 3 deep with two debug annotations each.
inline std::string scaled_trace(uint64_t bytes, int threads = 16) {
  std::string t;
  t.reserve(bytes + 4096);
  auto packet = [&t](const Msg& m) { t += Msg().msg(kPacket, m).bytes(); };
  const char* names[] = {"RunTask",        "ThreadControllerImpl::RunTask",
                         "Compile",        "Layout",
                         "Paint",          "v8.run",
                         "V8.GCScavenger", "ResourceFetcher",
                         "Decode",         "Commit"};
  packet(Msg().msg(kTrackDesc, Msg().varint(1, 1).msg(3, Msg().varint(1, 7).str(6, "renderer"))));
  for (int th = 0; th < threads; ++th) {
    Msg interned;
    for (int i = 0; i < 10; ++i) interned.msg(2, Msg().varint(1, i + 1).str(2, names[i]));
    interned.msg(1, Msg().varint(1, 1).str(2, "toplevel"));
    interned.msg(3, Msg().varint(1, 1).str(2, "src_file"));
    interned.msg(3, Msg().varint(1, 2).str(2, "id"));
    packet(Msg()
               .varint(kSeq, th + 1)
               .varint(kFlags, 1)
               .msg(kDefaults, Msg().msg(11, Msg().varint(kTrack, 100 + th)))
               .msg(kInterned, interned));
    packet(Msg()
               .varint(kSeq, th + 1)
               .msg(kTrackDesc,
                    Msg()
                        .varint(1, 100 + th)
                        .varint(5, 1)
                        .msg(4, Msg().varint(1, 7).varint(2, 1000 + th).str(5, "thread"))));
  }
  uint64_t ts = 1'000'000'000'000, k = 0;
  while (t.size() < bytes) {
    const int th = static_cast<int>(k % threads);
    const uint64_t seq = th + 1;
    for (int d = 0; d < 3; ++d) {
      Msg e;
      e.varint(kType, 1).varint(kNameIid, 1 + (k + d) % 10).varint(kCatIids, 1);
      e.msg(kDebug, Msg().varint(1, 1).str(6, "third_party/blink/renderer/core/frame.cc"));
      e.msg(kDebug, debug_int(2, static_cast<int64_t>(k)));
      packet(Msg().varint(kSeq, seq).varint(kFlags, 2).varint(kTs, ts + d * 100).msg(kEvent, e));
    }
    for (int d = 0; d < 3; ++d)
      packet(Msg()
                 .varint(kSeq, seq)
                 .varint(kFlags, 2)
                 .varint(kTs, ts + 1000 - d * 100)
                 .msg(kEvent, Msg().varint(kType, 2)));
    ts += 1500;
    ++k;
  }
  return t;
}

}  // namespace strata::perfetto_writer
