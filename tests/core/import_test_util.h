// Helpers shared by the importer and builder tests: run an importer over bytes in chunks, read
// shared sample files, and check the store invariants trace_store.h promises.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>  // getpid
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "core/formats/chrome_json/chrome_json_importer.h"
#include "core/store/trace_store.h"

namespace strata::testing {

struct ImportResult {
  std::unique_ptr<TraceStore> store = std::make_unique<TraceStore>();
  bool failed = false;
  std::string failure;
  uint64_t records = 0;
};

// Imports `data` with the importer `make(store)` makes, fed in chunks of `chunk` bytes (0 = all
// at once).
template <class MakeImporter>
ImportResult import_with(MakeImporter make, std::string_view data, size_t chunk = 0) {
  ImportResult r;
  auto imp = make(r.store.get());
  auto* p = reinterpret_cast<const uint8_t*>(data.data());
  if (chunk == 0) chunk = data.size() ? data.size() : 1;
  for (size_t i = 0; i < data.size(); i += chunk)
    imp->feed(p + i, std::min(chunk, data.size() - i));
  imp->finish();
  r.failed = imp->failed();
  r.failure = imp->failure();
  r.records = imp->records();
  return r;
}

inline ImportResult import_json(std::string_view data, size_t chunk = 0) {
  return import_with(make_chrome_json_importer, data, chunk);
}

// A file name in the test temp dir that no other test process uses at the same time (ctest -j,
// and other checkouts' test runs on the same machine, share /tmp).
inline std::string scratch_path(const std::string& name) {
  return ::testing::TempDir() + "/strata_" + std::to_string(::getpid()) + "_" + name;
}

inline bool read_file(const std::string& path, std::string* out) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  out->clear();
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) out->append(buf, n);
  std::fclose(f);
  return true;
}

// Inflates a gzip file held in memory (the test's own decoder, not the importer's).
inline bool gunzip(const std::string& in, std::string* out) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return false;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  char buf[1 << 16];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out->append(buf, sizeof buf - z.avail_out);
  }
  inflateEnd(&z);
  return rc == Z_STREAM_END;
}

// Compresses `plain` with a command-line tool ("gzip -c", "zstd -q -c -19"), through scratch
// files; false when the tool is absent or fails.
inline bool compress_with(const std::string& tool, const std::string& plain, std::string* out) {
  const std::string in = scratch_path("plain"), packed = scratch_path("packed");
  FILE* f = std::fopen(in.c_str(), "wb");
  if (!f) return false;
  std::fwrite(plain.data(), 1, plain.size(), f);
  std::fclose(f);
  const std::string cmd = tool + " < '" + in + "' > '" + packed + "' 2>/dev/null";
  const bool ok = std::system(cmd.c_str()) == 0 && read_file(packed, out) && !out->empty();
  std::remove(in.c_str());
  std::remove(packed.c_str());
  return ok;
}

inline std::string shared_path(const std::string& rel) {
  return std::string(STRATA_SHARED_DATA) + "/" + rel;
}

// The SQLite profiles of the shared data the database tests read (paths for shared_path).
inline constexpr std::string_view kNsysExport = "nsys/nvfuser/pr3924/report1.sqlite";
inline constexpr std::string_view kAscendDbDir =
    "ascend/msinsight/db_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/";
inline std::string ascend_db_path(std::string_view file = "ascend_pytorch_profiler_0.db") {
  return shared_path(std::string(kAscendDbDir) + std::string(file));
}

// Reads a sample from the shared data dir; the caller GTEST_SKIPs when this returns false.
inline bool read_shared(const std::string& rel, std::string* out) {
  return read_file(shared_path(rel), out);
}

inline std::string name_of(const TraceStore& s, StrId id) { return std::string(s.strings.get(id)); }

// Index of the event with this name (first one in store order), or -1.
inline int64_t find_event(const TraceStore& s, std::string_view name) {
  for (size_t i = 0; i < s.events.size(); ++i)
    if (s.strings.get(s.events.name[i]) == name) return static_cast<int64_t>(i);
  return -1;
}

// Checks every structural promise of trace_store.h (grouping, rows, no overlap in a row,
// series/sample grouping and order).
inline void expect_valid_layout(const TraceStore& s) {
  const EventColumns& ev = s.events;
  const size_t n = ev.size();
  ASSERT_EQ(ev.dur.size(), n);
  ASSERT_EQ(ev.name.size(), n);
  ASSERT_EQ(ev.cat.size(), n);
  ASSERT_EQ(ev.track.size(), n);
  ASSERT_EQ(ev.depth.size(), n);
  ASSERT_EQ(ev.phase.size(), n);
  ASSERT_EQ(ev.src_offset.size(), n);
  ASSERT_EQ(ev.src_len.size(), n);
  uint32_t next_event = 0;
  uint32_t next_track = 0;
  for (uint32_t p = 0; p < s.processes.size(); ++p) {
    for (uint32_t t : s.processes[p].tracks) {
      // Tracks are stored in display order, process by process.
      ASSERT_EQ(t, next_track++);
      ASSERT_EQ(s.tracks[t].process, p);
    }
  }
  ASSERT_EQ(next_track, s.tracks.size());
  for (uint32_t t = 0; t < s.tracks.size(); ++t) {
    const Track& tr = s.tracks[t];
    ASSERT_EQ(tr.first_event, next_event) << "track " << t;
    next_event += tr.event_count;
    if (tr.kind == TrackKind::kCounter) {
      EXPECT_EQ(tr.event_count, 0u);
      continue;
    }
    ASSERT_EQ(tr.rows.size(), tr.max_depth + 2u) << "track " << t;
    ASSERT_EQ(tr.rows.front(), tr.first_event);
    ASSERT_EQ(tr.rows.back(), tr.first_event + tr.event_count);
    for (uint32_t d = 0; d <= tr.max_depth; ++d) {
      ASSERT_LE(tr.rows[d], tr.rows[d + 1]);
      if (tr.event_count) {
        EXPECT_LT(tr.rows[d], tr.rows[d + 1]) << "empty row " << d;
      }
      for (uint32_t i = tr.rows[d]; i < tr.rows[d + 1]; ++i) {
        ASSERT_EQ(ev.track[i], t);
        ASSERT_EQ(ev.depth[i], d);
        ASSERT_GE(ev.dur[i], 0);
        if (ev.phase[i] == 'i') {
          ASSERT_EQ(ev.dur[i], 0);
        }
        if (i > tr.rows[d]) {
          // Sorted by start, and no two events of a row overlap (touching is fine).
          ASSERT_LE(ev.start[i - 1], ev.start[i]) << "row " << d << " of track " << t;
          ASSERT_LE(ev.start[i - 1] + ev.dur[i - 1], ev.start[i])
              << "overlap in row " << d << " of track " << t << " at event " << i;
        }
        if (s.has_time) {
          ASSERT_GE(ev.start[i], s.start_ns);
          ASSERT_LE(ev.start[i] + ev.dur[i], s.end_ns);
        }
      }
    }
  }
  ASSERT_EQ(next_event, n);
  uint32_t next_series = 0, next_sample = 0;
  for (uint32_t t = 0; t < s.tracks.size(); ++t) {
    const Track& tr = s.tracks[t];
    if (tr.series_count == 0) continue;
    ASSERT_EQ(tr.kind, TrackKind::kCounter);
    ASSERT_EQ(tr.first_series, next_series);
    for (uint32_t k = tr.first_series; k < tr.first_series + tr.series_count; ++k) {
      const CounterSeries& cs = s.series[k];
      ASSERT_EQ(cs.track, t);
      ASSERT_EQ(cs.first_sample, next_sample);
      next_sample += cs.sample_count;
      for (uint32_t i = cs.first_sample + 1; i < cs.first_sample + cs.sample_count; ++i)
        ASSERT_LE(s.samples.ts[i - 1], s.samples.ts[i]);
    }
    next_series += tr.series_count;
  }
  ASSERT_EQ(next_series, s.series.size());
  ASSERT_EQ(next_sample, s.samples.size());
}

// Two stores hold the same data, column by column.
inline void expect_same_store(const TraceStore& a, const TraceStore& b) {
  ASSERT_EQ(a.events.size(), b.events.size());
  EXPECT_EQ(a.events.start, b.events.start);
  EXPECT_EQ(a.events.dur, b.events.dur);
  EXPECT_EQ(a.events.track, b.events.track);
  EXPECT_EQ(a.events.depth, b.events.depth);
  EXPECT_EQ(a.events.phase, b.events.phase);
  EXPECT_EQ(a.events.src_offset, b.events.src_offset);
  EXPECT_EQ(a.events.src_len, b.events.src_len);
  for (size_t i = 0; i < a.events.size(); ++i) {
    ASSERT_EQ(a.strings.get(a.events.name[i]), b.strings.get(b.events.name[i])) << i;
    ASSERT_EQ(a.strings.get(a.events.cat[i]), b.strings.get(b.events.cat[i])) << i;
  }
  EXPECT_EQ(a.samples.ts, b.samples.ts);
  EXPECT_EQ(a.samples.value.size(), b.samples.value.size());
  EXPECT_EQ(a.series.size(), b.series.size());
  ASSERT_EQ(a.tracks.size(), b.tracks.size());
  for (size_t t = 0; t < a.tracks.size(); ++t) {
    EXPECT_EQ(a.tracks[t].key, b.tracks[t].key);
    EXPECT_EQ(a.strings.get(a.tracks[t].name), b.strings.get(b.tracks[t].name));
    EXPECT_EQ(a.tracks[t].rows, b.tracks[t].rows);
  }
  ASSERT_EQ(a.processes.size(), b.processes.size());
  for (size_t p = 0; p < a.processes.size(); ++p) {
    EXPECT_EQ(a.processes[p].key, b.processes[p].key);
    EXPECT_EQ(a.strings.get(a.processes[p].name), b.strings.get(b.processes[p].name));
  }
  EXPECT_EQ(a.phase_counts, b.phase_counts);
  EXPECT_EQ(a.start_ns, b.start_ns);
  EXPECT_EQ(a.end_ns, b.end_ns);
  EXPECT_EQ(a.errors, b.errors);
  EXPECT_EQ(a.warnings, b.warnings);
  EXPECT_EQ(a.display_time_unit, b.display_time_unit);
}

}  // namespace strata::testing
