// Engine's sliced load (engine/engine_sliced.cc) driven as the engine worker and its slice
// workers drive it (web/worker/sliced.js): the first slice through load_commit, each later one
// parsed by a SliceSession, encoded, absorbed, or fed by the engine itself when it cannot be.
// The trace must come out as the one-worker load's: the same store digest, summary and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <regex>
#include <string>
#include <vector>

#include "core/formats/chrome_json/sliced_import.h"
#include "core/store/store_digest.h"
#include "engine/engine.h"
#include "engine/slice_session.h"
#include "engine_test_util.h"
#include "runs_test_util.h"
#include "sliced_test_util.h"

namespace strata::testing {
namespace {

// B/E pairs and flows across any cut, metadata, counters and names that end in `},{`, so the
// cut scan is fooled inside strings unless `tricky` is off.
std::string trace_text(size_t events, bool tricky) {
  std::string t = "{\"traceEvents\":[\n";
  for (size_t i = 0; i < events; ++i) {
    if (i) t += ",\n";
    const std::string ts = std::to_string(1000 + i * 7);
    // B, its flow step and its E share a thread: pairs and bound flows cross the cuts.
    const std::string tid =
        std::to_string(1 + (i % 9 == 0 || i % 9 == 2 || i % 9 == 5 ? i / 9 : i) % 3);
    switch (i % 9) {
      case 0:
        t += "{\"ph\":\"B\",\"name\":\"step\",\"pid\":1,\"tid\":" + tid + ",\"ts\":" + ts + "}";
        break;
      case 5:
        t += "{\"ph\":\"E\",\"pid\":1,\"tid\":" + tid + ",\"ts\":" + ts + "}";
        break;
      case 2:
        t += "{\"ph\":\"s\",\"name\":\"f\",\"cat\":\"ac2g\",\"id\":" + std::to_string(i % 50) +
             ",\"pid\":1,\"tid\":" + tid + ",\"ts\":" + ts + "}";
        break;
      case 3:
        t += "{\"ph\":\"C\",\"name\":\"mem\",\"pid\":2,\"ts\":" + ts +
             ",\"args\":{\"value\":" + std::to_string(i % 13) + "}}";
        break;
      case 4:
        t += "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":" + tid +
             ",\"args\":{\"name\":\"t" + std::to_string(i % 4) + "\"}}";
        break;
      case 6:
        t += std::string("{\"ph\":\"X\",\"name\":\"") + (tricky ? "a},{" : "plain") +
             "\",\"dur\":3,\"pid\":3,\"tid\":1,\"ts\":" + ts + "}";
        break;
      default:
        t += "{\"ph\":\"X\",\"name\":\"op" + std::to_string(i % 17) +
             "\",\"dur\":" + std::to_string(i % 5) + ",\"pid\":1,\"tid\":" + tid + ",\"ts\":" + ts +
             "}";
        break;
    }
  }
  return t + "\n]}";
}

struct Outcome {
  bool ok = false;
  std::string error, summary;
  uint64_t digest = 0;
  size_t absorbed = 0, fed = 0;
};

Outcome outcome(Engine& e, bool ok) {
  Outcome o;
  o.ok = ok;
  o.error = e.last_error();
  // storeBytes counts the columns' capacity, which a sliced load sizes differently (its first
  // slice's columns are sized for the file, the merge appends): not the store's content.
  o.summary = std::regex_replace(e.summary_json(), std::regex("\"storeBytes\":[0-9]+,"), "");
  o.digest = store_digest(*e.store());
  return o;
}

Outcome one_worker(const std::string& t) {
  Engine e;
  return outcome(e, load_trace(&e, "t.json", t, 1 << 12));
}

Outcome sliced(const std::string& t, const std::vector<uint64_t>& cuts, size_t chunk = 1 << 12) {
  Engine e;
  e.load_begin_sliced("t.json", t.size());
  std::vector<uint64_t> bounds = {0};
  bounds.insert(bounds.end(), cuts.begin(), cuts.end());
  bounds.push_back(t.size());
  const std::string_view all(t);
  commit_chunks(e, all.substr(0, bounds[1]), chunk);
  size_t absorbed = 0, fed = 0;
  for (size_t i = 1; i + 1 < bounds.size(); ++i) {
    const std::string_view part = all.substr(bounds[i], bounds[i + 1] - bounds[i]);
    SliceSession s;  // another worker's
    s.begin(bounds[i], chrome_json_object_form(t));
    ++(absorb_or_feed(e, s, part, chunk) ? absorbed : fed);
  }
  Outcome o = outcome(e, e.load_end());
  o.absorbed = absorbed, o.fed = fed;
  return o;
}

void expect_same(const Outcome& a, const Outcome& b, const std::string& what) {
  EXPECT_EQ(a.ok, b.ok) << what;
  EXPECT_EQ(a.error, b.error) << what;
  EXPECT_EQ(a.summary, b.summary) << what;
  EXPECT_EQ(a.digest, b.digest) << what;
}

TEST(EngineSliced, SlicesAbsorbedGiveTheOneWorkerTrace) {
  const std::string t = trace_text(5000, false);
  const Outcome ref = one_worker(t);
  ASSERT_TRUE(ref.ok) << ref.error;
  EXPECT_EQ(ref.summary.find("without a matching B"), std::string::npos) << ref.summary;
  EXPECT_EQ(ref.summary.find("no slice to bind"), std::string::npos) << ref.summary;
  for (size_t n = 2; n <= 4; ++n) {
    const std::vector<uint64_t> cuts = chrome_json_cut_points(t, n);
    ASSERT_EQ(cuts.size(), n - 1);
    const Outcome got = sliced(t, cuts);
    expect_same(ref, got, std::to_string(n) + " slices");
    EXPECT_EQ(got.absorbed, n - 1);
    EXPECT_EQ(got.fed, 0u);
  }
}

TEST(EngineSliced, ACutInsideAStringIsFedByTheEngineAndStaysExact) {
  const std::string t = trace_text(5000, true);
  const Outcome ref = one_worker(t);
  ASSERT_TRUE(ref.ok) << ref.error;
  // A cut where the scan can be fooled: `},{"` ending a name, not an event.
  const size_t in_name = t.find("a},{", t.size() / 3) + 3;
  ASSERT_EQ(t.substr(in_name - 3, 5), "a},{\"");
  const Outcome got = sliced(t, {in_name});
  expect_same(ref, got, "a cut in a name");
  EXPECT_EQ(got.fed, 1u);
  // A cut between two events right after a refused one is absorbed again.
  const size_t good = t.find("},\n{", t.size() * 2 / 3) + 3;
  const Outcome mixed = sliced(t, {in_name, good});
  expect_same(ref, mixed, "one cut in a name, one between events");
  EXPECT_EQ(mixed.fed, 1u);
  EXPECT_EQ(mixed.absorbed, 1u);
}

TEST(EngineSliced, ATruncatedFileFailsOrWarnsAsWithOneWorker) {
  const std::string full = trace_text(4000, false);
  for (size_t keep : {full.size() / 2 + 11, full.size() - 3}) {
    const std::string t = full.substr(0, keep);
    const Outcome ref = one_worker(t);
    expect_same(ref, sliced(t, chrome_json_cut_points(t, 2)), "cut off at " + std::to_string(keep));
  }
  // Nothing loadable: the same failure, and the trace before stays.
  const std::string head = full.substr(0, 30);
  const Outcome ref = one_worker(head);
  EXPECT_FALSE(ref.ok);
  expect_same(ref, sliced(head, {}), "cut off in the first event");
}

TEST(EngineSliced, ForeignBytesAreNotAbsorbed) {
  const std::string t = trace_text(1000, false);
  Engine e;
  const std::string junk = "not a slice";
  // Not a sliced load: nothing is absorbed.
  e.load_begin("t.json", t.size());
  EXPECT_FALSE(e.load_absorb_slice(reinterpret_cast<const uint8_t*>(junk.data()), junk.size(), 1));
  e.load_begin_sliced("t.json", t.size());
  commit_chunks(e, std::string_view(t).substr(0, t.find("},\n{") + 3), 64);
  EXPECT_TRUE(e.load_at_slice_boundary());
  EXPECT_FALSE(e.load_absorb_slice(reinterpret_cast<const uint8_t*>(junk.data()), junk.size(), 1));
  EXPECT_EQ(e.load_bytes(), t.find("},\n{") + 3);
}

TEST(EngineSliced, ARealTraceGivesTheOneWorkerTrace) {
  std::string t;
  if (!read_shared_text("chrome_trace/catapult/big_trace.json", &t))
    GTEST_SKIP() << "../shared/data is absent";
  const Outcome ref = one_worker(t);
  ASSERT_TRUE(ref.ok) << ref.error;
  for (size_t n : {2, 3})
    expect_same(ref, sliced(t, chrome_json_cut_points(t, n), 1 << 16), "big_trace");
}

}  // namespace
}  // namespace strata::testing
