// The Perfetto protobuf importer: the generated feature trace (every TrackEvent feature, with
// the counts its writer declares), the real tracing-perfetto sample against an independent
// decode here, detection against XSpace, details args, and hostile inputs.
#include "core/formats/perfetto/perfetto_importer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "core/formats/detect_format.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "tools/perfetto_trace_writer.h"

namespace strata {
namespace {

using perfetto_writer::FeatureCounts;

testing::ImportResult import_perfetto(std::string_view data, size_t chunk = 0) {
  return testing::import_with(make_perfetto_importer, data, chunk);
}

struct Counts {
  uint64_t slices = 0, instants = 0;
};
Counts count(const TraceStore& s) {
  Counts c;
  for (size_t e = 0; e < s.events.size(); ++e) {
    if (is_instant_phase(s.events.phase[e]))
      ++c.instants;
    else
      ++c.slices;
  }
  return c;
}

int64_t find_event(const TraceStore& s, std::string_view name) {
  for (size_t e = 0; e < s.events.size(); ++e)
    if (s.strings.get(s.events.name[e]) == name) return static_cast<int64_t>(e);
  return -1;
}

std::string track_name(const TraceStore& s, uint32_t event) {
  return std::string(s.strings.get(s.tracks[s.events.track[event]].name));
}

std::string joined(const std::vector<std::string>& v) {
  std::string o;
  for (const std::string& m : v) o += m + "\n";
  return o;
}

TEST(PerfettoImporter, FeatureTraceInEveryChunking) {
  const std::string trace = perfetto_writer::feature_trace();
  const FeatureCounts want;
  for (size_t chunk : {size_t{0}, size_t{1}, size_t{7}, size_t{64}, size_t{1000}}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    testing::ImportResult r = import_perfetto(trace, chunk);
    ASSERT_FALSE(r.failed) << r.failure;
    const TraceStore& s = *r.store;
    const Counts c = count(s);
    EXPECT_EQ(c.slices, want.slices);
    EXPECT_EQ(c.instants, want.instants);
    EXPECT_EQ(s.samples.size(), want.counter_samples);
    EXPECT_EQ(s.flows.size(), want.flows);
    EXPECT_TRUE(s.errors.empty()) << joined(s.errors);
    EXPECT_NE(joined(s.warnings).find("1 packet was skipped"), std::string::npos)
        << joined(s.warnings);
    EXPECT_NE(joined(s.warnings).find("1 ftrace event bundle"), std::string::npos)
        << joined(s.warnings);
  }
}

TEST(PerfettoImporter, FeatureTraceNamesTracksClocksAndCounters) {
  testing::ImportResult r = import_perfetto(perfetto_writer::feature_trace());
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  const FeatureCounts want;
  // Interned names, and their re-definition after the sequence cleared its state.
  const int64_t step = find_event(s, "step");
  ASSERT_GE(step, 0);
  EXPECT_GE(find_event(s, "step2"), 0);
  EXPECT_GE(find_event(s, "matmul"), 0);
  EXPECT_EQ(s.strings.get(s.events.cat[step]), "compute");
  // The incremental clock 64 in microseconds, mapped by the sequence's ClockSnapshot.
  EXPECT_EQ(s.events.start[step], want.step_start_ns);
  EXPECT_EQ(s.events.dur[step], 40'000);
  EXPECT_EQ(track_name(s, static_cast<uint32_t>(step)), "worker");
  EXPECT_EQ(s.processes[s.tracks[s.events.track[step]].process].pid, 42);
  EXPECT_EQ(s.strings.get(s.processes[s.tracks[s.events.track[step]].process].name),
            "synth_process");
  const int64_t mono = find_event(s, "on monotonic");
  ASSERT_GE(mono, 0);
  EXPECT_EQ(s.events.start[mono], want.monotonic_instant_ns);
  EXPECT_EQ(track_name(s, static_cast<uint32_t>(mono)), "global lane");
  // A custom track under the process; a track described after its events.
  const int64_t op = find_event(s, "async op");
  ASSERT_GE(op, 0);
  EXPECT_EQ(track_name(s, static_cast<uint32_t>(op)), "async lane");
  EXPECT_EQ(s.processes[s.tracks[s.events.track[op]].process].pid, 42);
  const int64_t late = find_event(s, "late");
  ASSERT_GE(late, 0);
  EXPECT_EQ(track_name(s, static_cast<uint32_t>(late)), "late thread");
  EXPECT_EQ(s.tracks[s.events.track[late]].tid, 44);
  // Legacy events: thread descriptor, microsecond deltas, complete via duration.
  const int64_t complete = find_event(s, "legacy complete");
  ASSERT_GE(complete, 0);
  EXPECT_EQ(s.events.start[complete], 5'000'103'000);
  EXPECT_EQ(s.events.dur[complete], 7'000);
  EXPECT_EQ(track_name(s, static_cast<uint32_t>(complete)), "legacy thread");
  EXPECT_EQ(s.strings.get(s.processes[s.tracks[s.events.track[complete]].process].name),
            "legacy_proc");
  const int64_t legacy_slice = find_event(s, "legacy slice");
  ASSERT_GE(legacy_slice, 0);
  EXPECT_EQ(s.events.dur[legacy_slice], 22'000);
  // Counters: the extra counter value, an integer and a double, times the unit multiplier.
  std::multiset<double> values(s.samples.value.begin(), s.samples.value.end());
  EXPECT_EQ(values, (std::multiset<double>{3.0 * 1024, 10.0 * 1024, 2.5 * 1024}));
  // Flows: step → async op (flow_ids, terminating_flow_ids); the legacy bind_id pair.
  ASSERT_EQ(s.flows.size(), 2u);
  std::set<std::pair<std::string, std::string>> edges;
  for (size_t i = 0; i < s.flows.size(); ++i)
    edges.insert({std::string(s.strings.get(s.events.name[s.flows.from[i]])),
                  std::string(s.strings.get(s.events.name[s.flows.to[i]]))});
  EXPECT_TRUE(edges.count({"step", "async op"}));
  EXPECT_TRUE(edges.count({"legacy slice", "legacy complete"}));
  EXPECT_EQ(s.files.empty() ? "perfetto" : s.files[0].format, "perfetto");
}

std::string details_of(Engine* e, const std::string& bytes, const std::string& name) {
  const TraceStore& s = *e->store();
  const int64_t ev = find_event(s, name);
  if (ev < 0) return "no event " + name;
  uint64_t off = 0;
  uint32_t len = 0;
  if (!e->event_source(static_cast<uint32_t>(ev), &off, &len)) return "no source";
  return e->details_json(static_cast<uint32_t>(ev), bytes.substr(off, len));
}

TEST(PerfettoImporter, DetailsShowDebugAnnotationsWithInternedNames) {
  const std::string trace = perfetto_writer::feature_trace();
  Engine e;
  ASSERT_TRUE(testing::load_trace(&e, "feature.pftrace", trace, 100)) << e.last_error();
  const std::string step = details_of(&e, trace, "step");
  EXPECT_NE(step.find("\"args\":{\"batch\":32,\"shape\":\"f32[8,128]\"}"), std::string::npos)
      << step;
  EXPECT_NE(step.find("\"source_location\":\"forward (model.py:12)\""), std::string::npos) << step;
  const std::string matmul = details_of(&e, trace, "matmul");
  EXPECT_NE(matmul.find("\"args\":{\"config\":{\"k\":3,\"on\":true}}"), std::string::npos)
      << matmul;
}

// The real sample: an independent walk of its packets here.
struct SampleCounts {
  uint64_t begins = 0, ends = 0, instants = 0, annotations_on_begins = 0;
  std::set<std::string> thread_names;
};
SampleCounts decode_sample(const std::string& b) {
  SampleCounts c;
  auto varint = [](const std::string& s, size_t* i) {
    uint64_t v = 0;
    for (int sh = 0; *i < s.size(); sh += 7) {
      const uint8_t x = static_cast<uint8_t>(s[(*i)++]);
      v |= uint64_t{x & 0x7fu} << sh;
      if (!(x & 0x80)) break;
    }
    return v;
  };
  // Calls fn(field, wire type, value, payload) for each field of s.
  auto walk = [&](const std::string& s, auto fn) {
    size_t i = 0;
    while (i < s.size()) {
      const uint64_t tag = varint(s, &i);
      const uint32_t type = tag & 7;
      uint64_t v = 0;
      std::string payload;
      if (type == 0)
        v = varint(s, &i);
      else if (type == 1)
        i += 8;
      else if (type == 5)
        i += 4;
      else if (type == 2) {
        const uint64_t n = varint(s, &i);
        payload = s.substr(i, n);
        i += n;
      } else {
        return;
      }
      fn(static_cast<uint32_t>(tag >> 3), type, v, payload);
    }
  };
  walk(b, [&](uint32_t, uint32_t, uint64_t, const std::string& packet) {
    walk(packet, [&](uint32_t f, uint32_t, uint64_t, const std::string& m) {
      if (f == 11) {
        uint64_t type = 0, ann = 0;
        walk(m, [&](uint32_t g, uint32_t, uint64_t v, const std::string&) {
          if (g == 9) type = v;
          if (g == 4) ++ann;
        });
        if (type == 1) ++c.begins, c.annotations_on_begins += ann;
        if (type == 2) ++c.ends;
        if (type == 3) ++c.instants;
      } else if (f == 60) {
        walk(m, [&](uint32_t g, uint32_t, uint64_t, const std::string& t) {
          if (g == 4)
            walk(t, [&](uint32_t h, uint32_t, uint64_t, const std::string& name) {
              if (h == 5) c.thread_names.insert(name);
            });
        });
      }
    });
  });
  return c;
}

const std::string kSample =
    std::string(STRATA_SHARED_DATA) + "/perfetto/tokio-tracing-perfetto/test.pftrace";

TEST(PerfettoImporter, RealTracingPerfettoSampleMatchesIndependentDecode) {
  std::string bytes;
  if (!testing::read_file(kSample, &bytes)) GTEST_SKIP() << "no " << kSample;
  const SampleCounts want = decode_sample(bytes);
  EXPECT_EQ(want.begins, 227u);  // as SOURCES.md lists it
  testing::ImportResult r = import_perfetto(bytes, 4096);
  ASSERT_FALSE(r.failed) << r.failure;
  const TraceStore& s = *r.store;
  const Counts c = count(s);
  EXPECT_EQ(c.slices, want.begins);
  EXPECT_EQ(c.instants, want.instants);
  EXPECT_TRUE(s.errors.empty()) << joined(s.errors);
  std::set<std::string> names;
  for (const Track& t : s.tracks)
    if (t.name) names.insert(std::string(s.strings.get(t.name)));
  for (const std::string& n : want.thread_names) EXPECT_TRUE(names.count(n)) << n;
  EXPECT_EQ(
      detect_format("test.pftrace", reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size())
          .kind,
      FileKind::kPerfetto);
  // Every slice's details decode, with its annotations as args.
  Engine e;
  ASSERT_TRUE(testing::load_trace(&e, "test.pftrace", bytes)) << e.last_error();
  const TraceStore& es = *e.store();
  uint64_t with_args = 0;
  for (uint32_t ev = 0; ev < es.events.size(); ++ev) {
    uint64_t off = 0;
    uint32_t len = 0;
    ASSERT_TRUE(e.event_source(ev, &off, &len));
    const std::string d = e.details_json(ev, bytes.substr(off, len));
    ASSERT_EQ(d.find("\"error\""), std::string::npos) << d;
    if (d.find("\"args\":{}") == std::string::npos) ++with_args;
  }
  EXPECT_GT(with_args, 0u);
}

TEST(PerfettoImporter, DetectTellsPerfettoFromXSpace) {
  const std::string t = perfetto_writer::feature_trace();
  auto kind = [](const std::string& b) {
    return detect_format("x", reinterpret_cast<const uint8_t*>(b.data()), b.size()).kind;
  };
  EXPECT_EQ(kind(t), FileKind::kPerfetto);
  EXPECT_EQ(kind(t.substr(0, 5)), FileKind::kPerfetto);  // a head cut inside the first packet
  // XPlanes: id (a varint) first, or a name then lines.
  EXPECT_EQ(kind(std::string("\x0a\x06\x08\x01\x12\x02gp", 8)), FileKind::kXSpace);
  EXPECT_EQ(kind(std::string("\x0a\x06\x12\x02gp\x1a\x00", 8)), FileKind::kXSpace);
  EXPECT_EQ(kind(std::string("\x12\x03"
                             "err",
                             5)),
            FileKind::kXSpace);
  std::string gz;
  ASSERT_TRUE(testing::compress_with("gzip -c", t, &gz));
  const DetectedFormat d =
      detect_format("t.pftrace.gz", reinterpret_cast<const uint8_t*>(gz.data()), gz.size());
  EXPECT_EQ(d.kind, FileKind::kPerfetto);
  EXPECT_EQ(d.compression, Compression::kGzip);
  EXPECT_STREQ(file_kind_name(FileKind::kPerfetto), "perfetto");
}

TEST(PerfettoImporter, OnlyUndrawnDataFailsNamingWhatItHolds) {
  using perfetto_writer::Msg;
  std::string t;
  for (int i = 0; i < 3; ++i)
    t += Msg().msg(1, Msg().varint(8, 1000 + i).msg(1, Msg().varint(1, 0))).bytes();
  t += Msg().msg(1, Msg().varint(8, 2000).msg(9, Msg().varint(1, 1))).bytes();
  testing::ImportResult r = import_perfetto(t);
  ASSERT_TRUE(r.failed);
  EXPECT_NE(r.failure.find("3 ftrace event bundles, 1 process stats sample"), std::string::npos)
      << r.failure;
  EXPECT_NE(r.failure.find("Strata draws"), std::string::npos) << r.failure;
}

TEST(PerfettoImporter, HostileInputsGiveClearErrors) {
  const std::string t = perfetto_writer::feature_trace();
  {  // cut inside a packet: what came before is kept
    testing::ImportResult r = import_perfetto(t.substr(0, t.size() * 2 / 3), 13);
    ASSERT_FALSE(r.failed) << r.failure;
    EXPECT_NE(joined(r.store->errors).find("cut off"), std::string::npos)
        << joined(r.store->errors);
    EXPECT_GT(r.store->events.size(), 0u);
  }
  {  // an overlong varint as the first length
    testing::ImportResult r =
        import_perfetto(std::string("\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12));
    ASSERT_TRUE(r.failed);
    EXPECT_NE(r.failure.find("varint longer than 10 bytes"), std::string::npos) << r.failure;
  }
  {  // a huge length after good packets
    std::string bad = t + std::string("\x0a\xff\xff\xff\xff\x0f", 6) + "xyz";
    testing::ImportResult r = import_perfetto(bad, 50);
    ASSERT_FALSE(r.failed) << r.failure;
    EXPECT_NE(joined(r.store->errors).find("declares"), std::string::npos)
        << joined(r.store->errors);
    EXPECT_EQ(count(*r.store).slices, FeatureCounts().slices);
  }
  {  // a packet whose inner bytes are garbage is skipped and counted
    std::string bad = std::string("\x0a\x03\xff\xff\xff", 5) + t;
    testing::ImportResult r = import_perfetto(bad);
    ASSERT_FALSE(r.failed) << r.failure;
    EXPECT_NE(joined(r.store->errors).find("1 packet does not decode"), std::string::npos)
        << joined(r.store->errors);
  }
  // The engine keeps the previous trace when a Perfetto load fails.
  Engine e;
  ASSERT_TRUE(testing::load_trace(&e, "good.pftrace", t));
  const size_t events = e.store()->events.size();
  EXPECT_FALSE(testing::load_trace(
      &e, "bad.pftrace", std::string("\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12)));
  EXPECT_NE(e.last_error().find("bad.pftrace"), std::string::npos) << e.last_error();
  EXPECT_EQ(e.store()->events.size(), events);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

std::string described(std::string_view name, const std::string& bytes) {
  return describe_unknown(name, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

TEST(DescribeUnknown, NamesFilesByTheirMagicBytesAndSaysWhatStrataReads) {
  const std::string png = std::string("\x89PNG\r\n\x1a\n", 8) + std::string(40, '\x07');
  EXPECT_EQ(described("a.png", png), std::string("a PNG image. ") + kWhatStrataReads + ".");
  EXPECT_NE(described("x", "%PDF-1.7\n...").find("a PDF document"), std::string::npos);
  EXPECT_NE(described("m.pt", std::string("PK\x03\x04", 4) + "archive/data.pkl")
                .find("a PyTorch checkpoint"),
            std::string::npos);
  EXPECT_NE(described("r.zip", std::string("PK\x03\x04", 4) + "abc").find("a ZIP archive"),
            std::string::npos);
  EXPECT_NE(
      described("report1.nsys-rep", std::string(64, '\x03')).find("nsys export --type sqlite"),
      std::string::npos);
  EXPECT_NE(described("p.db", std::string("SQLite format 3\0", 16)).find("an SQLite database"),
            std::string::npos);
  EXPECT_NE(described("lib.so", std::string("\x7f"
                                            "ELF\x02",
                                            5))
                .find("ELF"),
            std::string::npos);
  EXPECT_NE(described("w.h5", std::string("\x89HDF\r\n\x1a\n", 8)).find("HDF5"), std::string::npos);
  EXPECT_NE(described("o.pkl", std::string("\x80\x04\x95", 3)).find("pickle"), std::string::npos);
  EXPECT_NE(described("login", "\n<!DOCTYPE html><html>").find("an HTML page"), std::string::npos);
  std::string gz;
  ASSERT_TRUE(testing::compress_with("gzip -c", std::string("SQLite format 3\0", 16) + "xx", &gz));
  EXPECT_NE(described("p.db.gz", gz).find("gzip-compressed: an SQLite database"),
            std::string::npos);
  ASSERT_TRUE(testing::compress_with("gzip -c", std::string(100, '\x01'), &gz));
  EXPECT_NE(described("q.gz", gz).find("a gzip-compressed file whose content is not a format"),
            std::string::npos);
  // Bytes that match nothing: the Chrome JSON importer's own message is kept.
  EXPECT_EQ(described("t.json", "{\"traceEvents\":[]}"), "");
  EXPECT_EQ(described("t.bin", std::string("\x01\x02\x03", 3)), "");
}

TEST(DescribeUnknown, TheEngineFailsSuchALoadWithThatTextAndKeepsTheTrace) {
  Engine e;
  ASSERT_TRUE(testing::load_trace(&e, "good.pftrace", perfetto_writer::feature_trace()));
  const size_t events = e.store()->events.size();
  const std::string png = std::string("\x89PNG\r\n\x1a\n", 8) + std::string(40, '\x07');
  EXPECT_FALSE(testing::load_trace(&e, "chart.png", png));
  EXPECT_EQ(e.last_error(), std::string("chart.png: a PNG image. ") + kWhatStrataReads + ".");
  EXPECT_NE(e.summary_json().find("chart.png: a PNG image"), std::string::npos);
  EXPECT_EQ(e.store()->events.size(), events);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// The fuzz target's seeds and any crash inputs it found (seeds/perfetto,
// corpus_regressions/perfetto), replayed whole and split as tests/fuzz/perfetto_fuzz.cc splits
// them.
TEST(PerfettoImporter, FuzzSeedsAndRegressionsImportWithoutCrashing) {
  std::vector<std::string> files;
  for (const char* dir : {"seeds/perfetto", "corpus_regressions/perfetto"}) {
    const std::filesystem::path p = std::filesystem::path(STRATA_FUZZ_DIR) / dir;
    if (!std::filesystem::is_directory(p)) continue;
    for (const auto& e : std::filesystem::directory_iterator(p))
      if (e.is_regular_file()) files.push_back(e.path().string());
  }
  ASSERT_FALSE(files.empty());
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    std::string bytes;
    ASSERT_TRUE(testing::read_file(path, &bytes));
    for (size_t chunk : {size_t{0}, size_t{3}, size_t{97}}) {
      testing::ImportResult r = import_perfetto(bytes, chunk);
      if (r.failed) continue;
      testing::expect_valid_layout(*r.store);
    }
  }
}

}  // namespace
}  // namespace strata
