// A pod's hosts opened lazily (engine/pod/pod_lazy.h): the same trace as the hosts read whole,
// its views, search and details answered from the tiles fed, tile by tile, host by host.
#include "engine/pod/pod_lazy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/formats/sqlite/byte_reader.h"
#include "engine/engine.h"
#include "engine/lazy_tiles.h"
#include "pod_lazy_test_util.h"
#include "protocol/view_messages.h"
#include "tools/pack/bundle_file.h"

namespace strata {
namespace {

using strata::testing::feed;
using strata::testing::host_files;
using strata::testing::HostFiles;
using strata::testing::make_pod;
using strata::testing::open_hosts;
using strata::testing::Pod;

struct ViewMsg {
  proto::Header h;
  proto::ViewRequestBody b;
};

ViewMsg view_msg(const Engine& e, double start, double end, uint32_t width) {
  ViewMsg m{};
  m.h = {proto::MsgType::kViewRequest, sizeof m, e.generation(), 1};
  m.b.start = start, m.b.end = end, m.b.width_px = width;
  return m;
}

// A view reply as text lines, names by their text (string ids differ between the two opens).
std::vector<std::string> view_lines(Engine* e, const ViewMsg& m) {
  const std::vector<uint8_t> v = e->view(reinterpret_cast<const uint8_t*>(&m), sizeof m);
  proto::ViewReplyHead head;
  EXPECT_GE(v.size(), sizeof(proto::Header) + sizeof head);
  std::memcpy(&head, v.data() + sizeof(proto::Header), sizeof head);
  std::vector<std::string> out;
  size_t at = sizeof(proto::Header) + sizeof head;
  for (uint32_t i = 0; i < head.slice_count; ++i, at += sizeof(proto::SliceEntry)) {
    proto::SliceEntry s;
    std::memcpy(&s, v.data() + at, sizeof s);
    out.push_back("slice " + std::to_string(s.track) + " " + std::to_string(s.depth) + " " +
                  std::to_string(s.start) + " " + std::to_string(s.end) + " " +
                  std::string(e->store()->strings.get(s.name)) + " " + std::to_string(s.count) +
                  " " + std::to_string(s.event));
  }
  for (uint32_t i = 0; i < head.bucket_count; ++i, at += sizeof(proto::BucketEntry)) {
    proto::BucketEntry b;
    std::memcpy(&b, v.data() + at, sizeof b);
    out.push_back("bucket " + std::to_string(b.series) + " " + std::to_string(b.start) + " " +
                  std::to_string(b.min) + " " + std::to_string(b.max) + " " +
                  std::to_string(b.last));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The text between `"key":` and the next top-level key of a find reply.
std::string member_text(const std::string& json, const std::string& key, const std::string& next) {
  const size_t a = json.find("\"" + key + "\":"), b = json.find("\"" + next + "\":");
  return a == std::string::npos || b == std::string::npos || b < a ? "" : json.substr(a, b - a);
}

// Two hosts of the generated pod, `split`: which of rank1, rank3 are split folders.
void open_both(Pod* p, const std::string& dir, const std::vector<int>& split, Engine* whole,
               Engine* lazy, std::vector<HostFiles>* hosts) {
  make_pod(p, dir, split);
  *hosts = std::vector<HostFiles>(2);
  host_files(*p, "rank1", &(*hosts)[0]);
  host_files(*p, "rank3", &(*hosts)[1]);
  open_hosts(whole, hosts, false);
  open_hosts(lazy, hosts, true);
}

TEST(PodLazy, HostsOpenWithoutTheirEventsAsTheWholeOpensTrace) {
  Pod p;
  Engine whole, lazy;
  std::vector<HostFiles> hosts;
  open_both(&p, "podlazy_tables", {}, &whole, &lazy, &hosts);
  ASSERT_NE(lazy.lazy_tiles(), nullptr);
  EXPECT_EQ(lazy.bundle_session(), nullptr);  // not one bundle
  EXPECT_EQ(whole.lazy_tiles(), nullptr);
  const TraceStore& w = *whole.store();
  const TraceStore& l = *lazy.store();
  EXPECT_EQ(l.events.size(), 0u);  // nothing read but the indices
  EXPECT_EQ(lazy.lazy_tiles()->events(), w.events.size());
  EXPECT_EQ(lazy.lazy_tiles()->bundle_bytes(), hosts[0].bytes.size() + hosts[1].bytes.size());
  // One time axis, the hosts' groups named as the whole open names them.
  EXPECT_EQ(l.start_ns, w.start_ns);
  EXPECT_EQ(l.end_ns, w.end_ns);
  ASSERT_EQ(l.processes.size(), w.processes.size());
  for (size_t i = 0; i < w.processes.size(); ++i) {
    EXPECT_EQ(l.strings.get(l.processes[i].name), w.strings.get(w.processes[i].name));
    EXPECT_EQ(l.processes[i].pid, w.processes[i].pid);
  }
  EXPECT_EQ(std::string(l.strings.get(l.processes[0].name)), "rank1 trainer");
  ASSERT_EQ(l.tracks.size(), w.tracks.size());
  for (uint32_t t = 0; t < w.tracks.size(); ++t) {
    EXPECT_EQ(lazy.lazy_tiles()->track_events(t), w.tracks[t].event_count) << t;
    EXPECT_EQ(l.strings.get(l.tracks[t].name), w.strings.get(w.tracks[t].name));
    EXPECT_EQ(l.tracks[t].process, w.tracks[t].process);
  }
  ASSERT_EQ(l.series.size(), w.series.size());
  ASSERT_EQ(l.files.size(), 2u);
  EXPECT_EQ(l.files[1].group, "rank3");
  const std::string sum = lazy.summary_json();
  EXPECT_NE(sum.find("\"events\":" + std::to_string(w.events.size())), std::string::npos) << sum;
  EXPECT_NE(sum.find("\"tilesFetched\":0"), std::string::npos) << sum;
  EXPECT_NE(sum.find("opened lazily"), std::string::npos) << sum;
  ASSERT_EQ(::system(("rm -rf '" + p.dir + "'").c_str()), 0);
}

// Zoomed-in views of both hosts (each host's events tiles): the lazy open's answer is the whole
// open's, slice for slice, with only the views' tiles fed.
void expect_views_equal(const std::vector<int>& split, const std::string& dir) {
  Pod p;
  Engine whole, lazy;
  std::vector<HostFiles> hosts;
  open_both(&p, dir, split, &whole, &lazy, &hosts);
  const TimeNs rank3_at = p.alone[3].store()->start_ns - lazy.store()->start_ns;
  size_t fed = 0;
  for (double at : {0.0, 500000.0, static_cast<double>(rank3_at), rank3_at + 300000.0}) {
    ViewMsg m = view_msg(lazy, at, at + 40000, 1500);
    const std::vector<uint32_t> want =
        lazy.bundle_wanted(reinterpret_cast<const uint8_t*>(&m), sizeof m);
    fed += feed(&lazy, &hosts, want);
    EXPECT_TRUE(lazy.bundle_wanted(reinterpret_cast<const uint8_t*>(&m), sizeof m).empty());
    const std::vector<std::string> a = view_lines(&whole, view_msg(whole, at, at + 40000, 1500));
    const std::vector<std::string> b = view_lines(&lazy, m);
    ASSERT_FALSE(a.empty()) << at;
    EXPECT_EQ(a, b) << "view at " << at;
  }
  EXPECT_GT(fed, 0u);
  EXPECT_LT(fed, lazy.lazy_tiles()->tiles());  // only what the views read
  const BundleStats st = lazy.lazy_tiles()->stats();
  EXPECT_EQ(st.tiles_fetched, fed);
  EXPECT_EQ(st.tiles_failed, 0u);
  ASSERT_EQ(::system(("rm -rf '" + p.dir + "'").c_str()), 0);
}

TEST(PodLazy, ZoomedInViewsAreTheWholeOpensExactly) { expect_views_equal({}, "podlazy_views"); }

TEST(PodLazy, SplitHostsOpenWholeAndLazily) {
  // rank3 is a split folder (manifest.strata, tiles/): read whole it is the one-file host's
  // trace; lazily its tiles come from its own files.
  expect_views_equal({3}, "podlazy_split");
  Pod p;
  make_pod(&p, "podlazy_split_whole", {3});
  std::vector<HostFiles> hosts(1);
  host_files(p, "rank3", &hosts[0]);
  ASSERT_TRUE(hosts[0].split);
  Engine e;
  open_hosts(&e, &hosts, false);
  EXPECT_EQ(e.store()->events.size(), p.alone[3].store()->events.size());
  EXPECT_TRUE(e.store()->errors.empty()) << e.store()->errors[0];
  // Without a way to its tiles a split host is refused with the reason, the others open.
  e.load_hosts_begin("pod.json");
  MemoryByteReader r(reinterpret_cast<const uint8_t*>(hosts[0].bytes.data()),
                     hosts[0].bytes.size());
  EXPECT_FALSE(e.load_host("rank3", &r));
  EXPECT_NE(e.last_error().find("split"), std::string::npos) << e.last_error();
  ASSERT_EQ(::system(("rm -rf '" + p.dir + "'").c_str()), 0);
}

TEST(PodLazy, SearchCountsEveryHostAsTheWholeOpen) {
  Pod p;
  Engine whole, lazy;
  std::vector<HostFiles> hosts;
  open_both(&p, "podlazy_find", {}, &whole, &lazy, &hosts);
  for (const std::string args :
       {"{\"text\":\"ProfilerStep#0\",\"limit\":10}", "{\"text\":\"op3\",\"limit\":25}"}) {
    std::vector<uint32_t> tiles;
    std::string error;
    ASSERT_TRUE(lazy.bundle_find_begin(args, &tiles, &error)) << error;
    ASSERT_FALSE(tiles.empty());
    const std::string before = lazy.query_json("find", args);
    EXPECT_NE(before.find("\"matches\":[]"), std::string::npos) << before;
    feed(&lazy, &hosts, tiles);
    const std::string a = whole.query_json("find", args), b = lazy.query_json("find", args);
    EXPECT_EQ(member_text(a, "count", "binsStart"), member_text(b, "count", "binsStart")) << args;
    EXPECT_EQ(member_text(a, "bins", "nameIds"), member_text(b, "bins", "nameIds")) << args;
    if (args.find("ProfilerStep#0") != std::string::npos) {  // one a host
      EXPECT_NE(b.find("\"count\":2,"), std::string::npos) << b;
    }
  }
  // The details of a match: its host's event, named as the whole open names it.
  const int64_t ev =
      whole.locate("ProfilerStep#0", static_cast<double>(p.alone[3].store()->start_ns), "", "");
  ASSERT_GE(ev, 0);
  const std::string dw = whole.details_json(static_cast<uint32_t>(ev), "");
  const std::string dl = lazy.details_json(static_cast<uint32_t>(ev), "");
  EXPECT_NE(dl.find("\"process\":\"rank3 trainer\""), std::string::npos) << dl;
  EXPECT_NE(dl.find("\"name\":\"ProfilerStep#0\""), std::string::npos) << dl;
  EXPECT_EQ(
      lazy.locate("ProfilerStep#0", static_cast<double>(p.alone[3].store()->start_ns), "", ""), ev);
  EXPECT_NE(dw.find("\"process\":\"rank3 trainer\""), std::string::npos) << dw;
  ASSERT_EQ(::system(("rm -rf '" + p.dir + "'").c_str()), 0);
}

TEST(PodLazy, ACorruptHostTileIsAnErrorSpanAndTheRestDraws) {
  Pod p;
  Engine whole, lazy;
  std::vector<HostFiles> hosts;
  open_both(&p, "podlazy_corrupt", {}, &whole, &lazy, &hosts);
  const TimeNs rank3_at = p.alone[3].store()->start_ns - lazy.store()->start_ns;
  // A view over both hosts; one of rank3's tiles arrives damaged.
  ViewMsg m = view_msg(lazy, static_cast<double>(rank3_at), rank3_at + 40000.0, 1500);
  const std::vector<uint32_t> want =
      lazy.bundle_wanted(reinterpret_cast<const uint8_t*>(&m), sizeof m);
  uint32_t bad = kNone;
  for (uint32_t i : want) {
    uint32_t local = 0;
    if (bad == kNone && lazy.lazy_tiles()->tile_part(i, &local) == 1 &&
        hosts[1].file.manifest().tiles[local].kind == bundle::TileKind::kEvents)
      bad = i;
  }
  ASSERT_NE(bad, kNone);
  feed(&lazy, &hosts, want, bad);
  const std::vector<std::string> a =
      view_lines(&whole, view_msg(whole, rank3_at, rank3_at + 40000.0, 1500));
  const std::vector<std::string> b = view_lines(&lazy, m);
  // The damaged tile is one error span; every other line is the whole open's, rank1's too.
  const size_t rank1_tracks = p.alone[1].store()->tracks.size();
  size_t errors = 0, same = 0, rank1 = 0;
  for (const std::string& line : b) {
    errors += line.find(std::string(kTileErrorName)) != std::string::npos;
    const bool in_whole = std::find(a.begin(), a.end(), line) != a.end();
    same += in_whole;
    rank1 += in_whole && line.rfind("slice ", 0) == 0 && std::stoul(line.substr(6)) < rank1_tracks;
  }
  EXPECT_EQ(errors, 1u);
  EXPECT_GT(rank1, 0u);
  EXPECT_EQ(same + errors, b.size());
  const std::string sum = lazy.summary_json();
  EXPECT_NE(sum.find("rank3: bundle tile"), std::string::npos) << sum;
  EXPECT_NE(sum.find("\"tilesFailed\":1"), std::string::npos) << sum;
  ASSERT_EQ(::system(("rm -rf '" + p.dir + "'").c_str()), 0);
}

}  // namespace
}  // namespace strata
