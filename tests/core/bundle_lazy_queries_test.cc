// What a lazy bundle answers besides its views and search, against the same trace loaded whole
// (each answer must be equal): analyses with other than default arguments say why not and how
// big the bundle is, and run once it is loaded whole; details' parent, children and self time;
// region, name and event selections with their summary table. Each query's tiles are fed as the
// worker feeds them (bundle_query_wanted / bundle_details_wanted), and only those.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bundle_test_util.h"
#include "core/formats/sqlite/byte_reader.h"
#include "engine/bundle_session.h"
#include "engine/engine.h"
#include "real_trace_fixtures.h"

namespace strata {
namespace {

using testing::feed_tiles;
using testing::generated_trace;
using testing::PackedTrace;

// The lazy engine's answer to a select once the tiles it asks for are fed (then it asks none).
std::string lazy_select(Engine* e, const bundle::BundleFile& f, const std::string& args) {
  feed_tiles(e, f, e->bundle_query_wanted("select", args));
  EXPECT_TRUE(e->bundle_query_wanted("select", args).empty()) << args;
  return e->query_json("select", args);
}

// The lazy engine's details of `event` once its tiles are fed, without the note saying the
// source is not here (a loaded trace's details of an unread record have none).
std::string lazy_details(Engine* e, const bundle::BundleFile& f, uint32_t event) {
  testing::feed_rounds(e, f, [&] { return e->bundle_details_wanted(event); });
  EXPECT_TRUE(e->bundle_details_wanted(event).empty());
  return testing::without_record_note(e->details_json(event, ""));
}

TEST(BundleLazyQueries, AnalysesWithOtherArgumentsSayWhyAndRunOnceTheBundleIsLoadedWhole) {
  PackedTrace p;
  testing::pack_trace(&p, "lazy_whole.json", generated_trace(3, 1500));
  FileByteReader r(p.path);
  Engine e;
  ASSERT_TRUE(e.open_bundle_lazy("lazy_whole.strata", &r)) << e.last_error();
  // The list and the default tables are packed (bundle_flows_test); other arguments need the
  // events.
  EXPECT_EQ(e.query_json("analysis", "{}"), p.loaded.query_json("analysis", "{}"));
  const std::string other = R"({"name":"overview","includeIdle":true})";
  EXPECT_TRUE(e.bundle_query_wanted("analysis", other).empty());
  const std::string why = e.query_json("analysis", other);
  EXPECT_NE(why.find("\"error\":\"this bundle is open lazily; load it whole to run analyses"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("\"loadWholeBytes\":" + std::to_string(r.size())), std::string::npos) << why;
  // Load whole: the same bundle read into a store (db.js loadBundle above the lazy threshold).
  FileByteReader again(p.path);
  ASSERT_TRUE(e.load_bundle("lazy_whole.strata", &again)) << e.last_error();
  EXPECT_EQ(e.bundle_session(), nullptr);
  EXPECT_EQ(e.store()->events.size(), p.loaded.store()->events.size());
  const std::string list = e.query_json("analysis", "{}");
  EXPECT_EQ(list.find("loadWholeBytes"), std::string::npos) << list;
  EXPECT_EQ(list, p.loaded.query_json("analysis", "{}"));
  for (const char* name : {"overview", "steps", "queue_length"}) {
    const std::string args = std::string("{\"name\":\"") + name + "\"}";
    EXPECT_EQ(e.query_json("analysis", args), p.loaded.query_json("analysis", args)) << name;
  }
}

TEST(BundleLazyQueries, DetailsHaveTheLoadedTracesParentChildrenAndSelfTime) {
  PackedTrace p;
  testing::pack_trace(&p, "lazy_stack.json", generated_trace(3, 2000));
  Engine e;
  testing::open_lazy(&e, p);
  const TraceStore& s = *p.loaded.store();
  size_t with_parent = 0, with_children = 0;
  for (uint32_t ev = 0; ev < s.events.size(); ev += 97) {
    const std::string want = p.loaded.details_json(ev, "");
    ASSERT_EQ(lazy_details(&e, p.file, ev), want) << ev;
    with_parent += want.find("\"parent\":null") == std::string::npos;
    with_children += want.find("\"childCount\":0,") == std::string::npos;
  }
  EXPECT_GT(with_parent, 10u);
  EXPECT_GT(with_children, 10u);
  // One event's details read its tile and its rows' tiles around it, not the bundle's.
  Engine fresh;
  testing::open_lazy(&fresh, p);
  const size_t wanted =
      fresh.bundle_details_wanted(static_cast<uint32_t>(s.events.size() / 2)).size();
  EXPECT_GE(wanted, 2u);  // its own and a neighbour row's
  EXPECT_LE(wanted, 6u) << "of " << fresh.bundle_session()->manifest().tiles.size();
}

TEST(BundleLazyQueries, SelectionsAreTheLoadedTracesWithTheirSummary) {
  PackedTrace p;
  testing::pack_trace(&p, "lazy_select.json", generated_trace(4, 2500));
  Engine e;
  testing::open_lazy(&e, p);
  const TraceStore& s = *p.loaded.store();
  const double ext = static_cast<double>(s.end_ns - s.start_ns);
  const int tracks = static_cast<int>(p.loaded.display_tracks().size());
  ASSERT_GE(tracks, 4);
  std::vector<std::string> queries;
  for (double at : {0.0, 0.21, 0.5, 0.93})
    for (double span : {3000.0, 40000.0, 400000.0})
      queries.push_back(
          testing::region_args(at * ext, at * ext + span, {{0, 0, 1}, {2, 1, 1}, {3, 0, 0}}));
  queries.push_back(testing::region_args(0, ext, {{1, 0, 3}}));  // a whole track
  queries.push_back(R"({"name":"op3"})");
  queries.push_back(R"({"name":"k7","tracks":[1,2]})");
  queries.push_back(R"({"name":"op5","limit":40})");
  queries.push_back(R"({"name":"no such name"})");
  queries.push_back("{\"events\":[" + std::to_string(s.events.size() / 3) + "," +
                    std::to_string(s.events.size() / 2) + ",7]}");
  size_t some = 0;
  for (const std::string& q : queries) {
    const std::string want = p.loaded.query_json("select", q);
    EXPECT_EQ(lazy_select(&e, p.file, q), want) << q;
    some += want.find("\"count\":0,") == std::string::npos;
  }
  EXPECT_GT(some, queries.size() / 2);
  // A region's tiles are its rows' over its range (and the rows below), not the bundle's.
  Engine fresh;
  testing::open_lazy(&fresh, p);
  int thread = 0;  // a display track with events (the counter track has none)
  while (thread < tracks &&
         s.tracks[p.loaded.display_tracks()[static_cast<size_t>(thread)]].event_count == 0)
    ++thread;
  const size_t wanted =
      fresh
          .bundle_query_wanted("select",
                               testing::region_args(0.5 * ext, 0.5 * ext + 3000, {{thread, 0, 0}}))
          .size();
  EXPECT_GT(wanted, 0u);
  EXPECT_LE(wanted, 4u);
}

// A real PyTorch profile packed by strata-pack's writer: selections equal; details equal, their
// stack, flows and launches too (bundle_flows_test checks those closer).
TEST(BundleLazyQueries, RealKinetoTraceSelectionsAndStacksAreTheLoadedOnes) {
  std::string gz;
  if (!testing::read_shared(testing::kResnetKineto, &gz)) GTEST_SKIP() << "../shared/data absent";
  PackedTrace p;
  testing::pack_trace(&p, "resnet.pt.trace.json.gz", gz, false, bundle::kTileItems);
  Engine e;
  testing::open_lazy(&e, p);
  const TraceStore& s = *p.loaded.store();
  const double ext = static_cast<double>(s.end_ns - s.start_ns);
  const int tracks = static_cast<int>(p.loaded.display_tracks().size());
  for (double at : {0.1, 0.4, 0.8}) {
    std::vector<std::vector<int>> rows;
    for (int t = 0; t < tracks; ++t) rows.push_back({t, 0, 8});
    const std::string q = testing::region_args(at * ext, at * ext + ext / 50, rows);
    const std::string want = p.loaded.query_json("select", q);
    EXPECT_NE(want.find("\"summary\":[{"), std::string::npos) << q;
    EXPECT_EQ(lazy_select(&e, p.file, q), want) << q;
  }
  for (const char* q : {R"({"name":"aten::conv2d"})", R"({"name":"cudaLaunchKernel"})"})
    EXPECT_EQ(lazy_select(&e, p.file, q), p.loaded.query_json("select", q)) << q;
  for (uint32_t ev = 0; ev < s.events.size(); ev += static_cast<uint32_t>(s.events.size() / 150))
    EXPECT_EQ(lazy_details(&e, p.file, ev), p.loaded.details_json(ev, "")) << ev;
}

}  // namespace
}  // namespace strata
