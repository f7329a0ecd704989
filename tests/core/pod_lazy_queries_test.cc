// Details and selections on a pod's hosts opened lazily, against the same hosts read whole (each
// answer must be equal): details' parent, children and self time; region selections over
// several hosts' tracks, a name on every host, listed events of several hosts, each with the
// selection summary. Each query's tiles are fed as bundle.js feeds them (bundle_query_wanted /
// bundle_details_wanted, each tile from the host it is in), and only those.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "bundle_test_util.h"
#include "engine/engine.h"
#include "engine/lazy_tiles.h"
#include "pod_lazy_test_util.h"

namespace strata {
namespace {

using strata::testing::feed;
using strata::testing::host_files;
using strata::testing::HostFiles;
using strata::testing::make_pod;
using strata::testing::open_hosts;
using strata::testing::Pod;

// Three hosts of the generated pod (rank3 a split folder), read whole and lazily.
struct ThreePods {
  Pod p;
  Engine whole, lazy;
  std::vector<HostFiles> hosts;
};

void open_three(ThreePods* t, const std::string& dir) {
  make_pod(&t->p, dir, {3});
  t->hosts = std::vector<HostFiles>(3);
  host_files(t->p, "rank1", &t->hosts[0]);
  host_files(t->p, "rank2", &t->hosts[1]);
  host_files(t->p, "rank3", &t->hosts[2]);
  ASSERT_TRUE(t->hosts[2].split);
  open_hosts(&t->whole, &t->hosts, false);
  open_hosts(&t->lazy, &t->hosts, true);
  ASSERT_NE(t->lazy.lazy_tiles(), nullptr);
  ASSERT_EQ(t->whole.lazy_tiles(), nullptr);
}

// The lazy pod's answer to a select once the tiles it asks for are fed (then it asks none).
std::string lazy_select(ThreePods* t, const std::string& args) {
  feed(&t->lazy, &t->hosts, t->lazy.bundle_query_wanted("select", args));
  EXPECT_TRUE(t->lazy.bundle_query_wanted("select", args).empty()) << args;
  return t->lazy.query_json("select", args);
}

// The lazy pod's details of `event` once its tiles are fed, without the note saying the source
// is not here (the whole open's details of an unread record have none).
std::string lazy_details(ThreePods* t, uint32_t event) {
  feed(&t->lazy, &t->hosts, t->lazy.bundle_details_wanted(event));
  EXPECT_TRUE(t->lazy.bundle_details_wanted(event).empty());
  return testing::without_record_note(t->lazy.details_json(event, ""));
}

// The hosts (the group prefix of their processes' names) of the events a select reply lists,
// by their display tracks in `e`.
std::set<std::string> hosts_listed(const Engine& e, const std::string& reply) {
  std::set<std::string> out;
  const TraceStore& s = *e.store();
  const std::string key = "\"track\":";
  for (size_t at = reply.find(key); at != std::string::npos; at = reply.find(key, at + 1)) {
    const size_t display = std::strtoul(reply.c_str() + at + key.size(), nullptr, 10);
    if (display >= e.display_tracks().size()) continue;
    const std::string process(
        s.strings.get(s.processes[s.tracks[e.display_tracks()[display]].process].name));
    out.insert(process.substr(0, process.find(' ')));
  }
  return out;
}

TEST(PodLazyQueries, DetailsHaveTheWholePodsParentChildrenAndSelfTime) {
  ThreePods t;
  open_three(&t, "podlazy_q_details");
  const TraceStore& s = *t.whole.store();
  size_t with_parent = 0, with_children = 0;
  std::set<std::string> hosts;
  for (uint32_t ev = 0; ev < s.events.size(); ++ev) {
    // Every 13th event and every step (the parents of their threads' ops).
    if (ev % 13 != 0 && s.strings.get(s.events.name[ev]).rfind("ProfilerStep#", 0) != 0) continue;
    const std::string want = t.whole.details_json(ev, "");
    ASSERT_EQ(lazy_details(&t, ev), want) << ev;
    with_parent += want.find("\"parent\":null") == std::string::npos;
    with_children += want.find("\"childCount\":0,") == std::string::npos;
    const std::string process(
        s.strings.get(s.processes[s.tracks[s.events.track[ev]].process].name));
    hosts.insert(process.substr(0, process.find(' ')));
  }
  EXPECT_GT(with_parent, 10u);
  EXPECT_GE(with_children, 18u);  // six steps a host
  EXPECT_EQ(hosts, (std::set<std::string>{"rank1", "rank2", "rank3"}));
  // The last host's event: its own tile and its rows' around it, all from that host.
  Engine fresh;
  open_hosts(&fresh, &t.hosts, true);
  const auto last = static_cast<uint32_t>(s.events.size() - 5);
  const std::vector<uint32_t> wanted = fresh.bundle_details_wanted(last);
  EXPECT_GE(wanted.size(), 1u);
  EXPECT_LE(wanted.size(), 6u) << "of " << fresh.lazy_tiles()->tiles();
  for (uint32_t i : wanted) {
    uint32_t local = 0;
    EXPECT_EQ(fresh.lazy_tiles()->tile_part(i, &local), 2) << i;
  }
  ASSERT_EQ(::system(("rm -rf '" + t.p.dir + "'").c_str()), 0);
}

TEST(PodLazyQueries, SelectionsAreTheWholePodsWithTheirSummary) {
  ThreePods t;
  open_three(&t, "podlazy_q_select");
  const TraceStore& s = *t.whole.store();
  const double ext = static_cast<double>(s.end_ns - s.start_ns);
  const int tracks = static_cast<int>(t.whole.display_tracks().size());
  ASSERT_GE(tracks, 6);
  std::vector<std::vector<int>> every;
  for (int k = 0; k < tracks; ++k) every.push_back({k, 0, 3});
  std::vector<std::string> queries;
  for (double at : {0.0, 0.25, 0.4, 0.7})
    for (double span : {30000.0, 400000.0, 2000000.0})
      queries.push_back(testing::region_args(at * ext, at * ext + span, every));
  queries.push_back(testing::region_args(0, ext, {{1, 0, 3}}));  // a whole track
  queries.push_back(testing::region_args(0.3 * ext, 0.5 * ext, {{1, 1, 1}, {tracks - 2, 0, 1}}));
  queries.push_back(R"({"name":"op3"})");
  queries.push_back(R"({"name":"ProfilerStep#2"})");
  queries.push_back(R"({"name":"op1","tracks":[1,)" + std::to_string(tracks - 2) + "]}");
  queries.push_back(R"({"name":"op4","limit":15})");
  queries.push_back(R"({"name":"no such name"})");
  queries.push_back("{\"events\":[" + std::to_string(s.events.size() - 3) + ",7," +
                    std::to_string(s.events.size() / 2) + "]}");
  size_t some = 0, spanning = 0;
  for (const std::string& q : queries) {
    const std::string want = t.whole.query_json("select", q);
    EXPECT_EQ(lazy_select(&t, q), want) << q;
    some += want.find("\"count\":0,") == std::string::npos;
    spanning += hosts_listed(t.whole, want).size() >= 2;
  }
  EXPECT_GT(some, queries.size() / 2);
  EXPECT_GE(spanning, 4u);  // regions over two hosts, names and events on every host
  // A name on every host: each host's ProfilerStep#2, with the summary's one row for them.
  const std::string steps = t.lazy.query_json("select", R"({"name":"ProfilerStep#2"})");
  EXPECT_NE(steps.find("\"count\":3,"), std::string::npos) << steps;
  EXPECT_EQ(hosts_listed(t.lazy, steps), (std::set<std::string>{"rank1", "rank2", "rank3"}));
  EXPECT_NE(steps.find("\"summary\":[{"), std::string::npos) << steps;
  // A region's tiles are its rows' over its range (and the rows below), not the pod's.
  Engine fresh;
  open_hosts(&fresh, &t.hosts, true);
  const size_t wanted =
      fresh
          .bundle_query_wanted("select",
                               testing::region_args(0.5 * ext, 0.5 * ext + 30000, {{1, 0, 0}}))
          .size();
  EXPECT_GT(wanted, 0u);
  EXPECT_LE(wanted, 4u);
  EXPECT_LT(fresh.bundle_query_wanted("select", R"({"name":"op3"})").size(),
            fresh.lazy_tiles()->tiles());
  ASSERT_EQ(::system(("rm -rf '" + t.p.dir + "'").c_str()), 0);
}

}  // namespace
}  // namespace strata
