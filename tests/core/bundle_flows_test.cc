// Format v2's flows and analyses (docs/BUNDLE.md "Flows", "Analyses"), against the same trace
// loaded whole: a bundle read whole has the trace's flow table (the store digest equal); a lazy
// bundle's view arrows, details' flows and launches are the loaded trace's once the tiles they
// ask for are fed; its analyses (list and default tables) are the loaded trace's JSON byte for
// byte, and the event an analysis links to (a step's) opens the same details in both.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bundle_test_util.h"
#include "core/formats/sqlite/byte_reader.h"
#include "core/query/flows.h"
#include "core/query/hierarchy.h"
#include "core/query/launches.h"
#include "core/store/store_digest.h"
#include "engine/analysis/analysis_registry.h"
#include "engine/bundle_session.h"
#include "engine/engine.h"
#include "protocol/view_messages.h"
#include "real_trace_fixtures.h"

namespace strata {
namespace {

using testing::PackedTrace;

// A Kineto-like trace: ProfilerStep#k on the CPU thread, aten ops in it, each launching a kernel
// (cudaLaunchKernel → kernel, an ac2g flow) on one of two streams, and a fwdbwd flow between ops.
std::string kineto_trace(int steps, int ops_per_step) {
  std::string j = "{\"traceEvents\":[\n";
  char buf[320];
  long long ts = 1000, gpu_free[2] = {0, 0};
  int corr = 0;
  for (int st = 0; st < steps; ++st) {
    const long long step_start = ts;
    std::string ops;
    for (int k = 0; k < ops_per_step; ++k) {
      const long long op = ts;
      std::snprintf(
          buf, sizeof buf,
          "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%lld,\"dur\":%d,\"name\":\"aten::op%d\","
          "\"cat\":\"cpu_op\"},\n",
          op, 20 + k % 7, k % 5);
      ops += buf;
      const long long launch = op + 2;
      ++corr;
      std::snprintf(buf, sizeof buf,
                    "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%lld,\"dur\":5,\"name\":"
                    "\"cudaLaunchKernel\",\"cat\":\"cuda_runtime\"},\n"
                    "{\"ph\":\"s\",\"id\":%d,\"pid\":1,\"tid\":1,\"ts\":%lld,\"cat\":\"ac2g\","
                    "\"name\":\"ac2g\"},\n",
                    launch, corr, launch);
      ops += buf;
      const int stream = 7 + k % 2;
      long long& free_at = gpu_free[k % 2];
      const long long start = std::max(launch + 8, free_at + 1);
      const int dur = 30 + (k * 13 + st) % 50;
      std::snprintf(
          buf, sizeof buf,
          "{\"ph\":\"X\",\"pid\":0,\"tid\":%d,\"ts\":%lld,\"dur\":%d,\"name\":\"kernel%d\","
          "\"cat\":\"kernel\"},\n"
          "{\"ph\":\"f\",\"id\":%d,\"pid\":0,\"tid\":%d,\"ts\":%lld,\"cat\":\"ac2g\","
          "\"name\":\"ac2g\",\"bp\":\"e\"},\n",
          stream, start, dur, k % 9, corr, stream, start);
      ops += buf;
      free_at = start + dur;
      if (k % 4 == 1) {  // forward → backward between two ops of the step
        std::snprintf(buf, sizeof buf,
                      "{\"ph\":\"s\",\"id\":%d,\"pid\":1,\"tid\":1,\"ts\":%lld,\"cat\":\"fwdbwd\","
                      "\"name\":\"fwdbwd\"},\n",
                      100000 + st * 1000 + k, op);
        ops += buf;
      }
      if (k % 4 == 3) {
        std::snprintf(buf, sizeof buf,
                      "{\"ph\":\"f\",\"id\":%d,\"pid\":1,\"tid\":1,\"ts\":%lld,\"cat\":\"fwdbwd\","
                      "\"name\":\"fwdbwd\",\"bp\":\"e\"},\n",
                      100000 + st * 1000 + k - 2, op);
        ops += buf;
      }
      ts = op + 30;
    }
    std::snprintf(buf, sizeof buf,
                  "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%lld,\"dur\":%lld,\"name\":"
                  "\"ProfilerStep#%d\",\"cat\":\"user_annotation\"},\n",
                  step_start - 1, ts - step_start + 2, st);
    j += buf + ops;
    ts += 10;
  }
  j += "{\"ph\":\"M\",\"pid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"GPU 0\"}},\n"
       "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"trainer\"}}]}\n";
  return j;
}

// A view request over [start, end] (relative ns) with its flow arrows.
struct ViewMsg {
  proto::Header h;
  proto::ViewRequestBody b;
};
ViewMsg view_msg(const Engine& e, double start, double end) {
  ViewMsg m{};
  m.h = {proto::MsgType::kViewRequest, sizeof m, e.generation(), 3};
  m.b.start = start, m.b.end = end, m.b.width_px = 1600, m.b.flags = proto::kWantFlows;
  return m;
}

// The flow entries of a view reply.
std::vector<proto::FlowEntry> reply_flows(const std::vector<uint8_t>& r) {
  proto::ViewReplyHead h;
  std::memcpy(&h, r.data() + sizeof(proto::Header), sizeof h);
  const size_t at = sizeof(proto::Header) + sizeof h + h.slice_count * sizeof(proto::SliceEntry) +
                    h.bucket_count * sizeof(proto::BucketEntry);
  std::vector<proto::FlowEntry> out(h.flow_count);
  if (h.flow_count) std::memcpy(out.data(), r.data() + at, h.flow_count * sizeof(proto::FlowEntry));
  return out;
}

std::vector<proto::FlowEntry> view_flows_of(Engine* e, double start, double end) {
  ViewMsg m = view_msg(*e, start, end);
  return reply_flows(e->view(reinterpret_cast<const uint8_t*>(&m), sizeof m));
}

// The lazy engine's arrows once the tiles the view asks for are fed.
std::vector<proto::FlowEntry> lazy_view_flows(Engine* e, const bundle::BundleFile& f, double start,
                                              double end) {
  ViewMsg m = view_msg(*e, start, end);
  const auto* req = reinterpret_cast<const uint8_t*>(&m);
  testing::feed_rounds(e, f, [&] { return e->bundle_wanted(req, sizeof m); });
  EXPECT_TRUE(e->bundle_wanted(req, sizeof m).empty());
  return reply_flows(e->view(req, sizeof m));
}

void expect_same_flows(const std::vector<proto::FlowEntry>& a,
                       const std::vector<proto::FlowEntry>& b, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].from_event, b[i].from_event) << what << " " << i;
    EXPECT_EQ(a[i].to_event, b[i].to_event) << what << " " << i;
    EXPECT_EQ(a[i].from_end, b[i].from_end) << what << " " << i;
    EXPECT_EQ(a[i].to_start, b[i].to_start) << what << " " << i;
    EXPECT_EQ(a[i].from_track, b[i].from_track) << what << " " << i;
    EXPECT_EQ(a[i].from_depth, b[i].from_depth) << what << " " << i;
    EXPECT_EQ(a[i].to_track, b[i].to_track) << what << " " << i;
    EXPECT_EQ(a[i].to_depth, b[i].to_depth) << what << " " << i;
  }
}

std::string lazy_details(Engine* e, const bundle::BundleFile& f, uint32_t event) {
  testing::feed_rounds(e, f, [&] { return e->bundle_details_wanted(event); });
  EXPECT_TRUE(e->bundle_details_wanted(event).empty()) << event;
  std::string d = e->details_json(event, "");
  const size_t note = d.find(",\"recordNote\":");
  if (note != std::string::npos) d = d.substr(0, note) + "}";
  return d;
}

std::string lazy_analysis(Engine* e, const bundle::BundleFile& f, const std::string& args) {
  testing::feed_rounds(e, f, [&] { return e->bundle_query_wanted("analysis", args); });
  return e->query_json("analysis", args);
}

// Every analysis name of the registry, as its query's args.
std::vector<std::string> analysis_args() {
  std::vector<std::string> out;
  size_t n = 0;
  const AnalysisInfo* list = analyses(&n);
  for (size_t i = 0; i < n; ++i) out.push_back("{\"name\":\"" + std::string(list[i].name) + "\"}");
  return out;
}

// The step events the overview's part cells link to ("step":N in their links).
std::vector<uint32_t> linked_steps(const std::string& overview) {
  std::vector<uint32_t> out;
  for (size_t at = overview.find("\"step\":"); at != std::string::npos;
       at = overview.find("\"step\":", at + 1)) {
    const long long v = std::strtoll(overview.c_str() + at + 7, nullptr, 10);
    if (v >= 0) out.push_back(static_cast<uint32_t>(v));
  }
  return out;
}

// Both checks on one packed trace: the whole read's flows, then the lazy answers.
void check_flows_and_analyses(PackedTrace* p, size_t detail_samples) {
  const TraceStore& s = *p->loaded.store();
  ASSERT_GT(s.flows.size(), 0u);
  ASSERT_EQ(p->file.manifest().flows, s.flows.size());

  // Read whole: the trace's flow table, so its store digest.
  FileByteReader whole_reader(p->path);
  Engine whole;
  ASSERT_TRUE(whole.load_bundle("whole.strata", &whole_reader)) << whole.last_error();
  const TraceStore& w = *whole.store();
  EXPECT_EQ(w.flows.from, s.flows.from);
  EXPECT_EQ(w.flows.to, s.flows.to);
  EXPECT_EQ(w.flows.kind, s.flows.kind);
  EXPECT_EQ(w.flows.by_to, s.flows.by_to);
  ASSERT_EQ(w.flows.kinds.size(), s.flows.kinds.size());
  for (size_t k = 0; k < s.flows.kinds.size(); ++k) {
    EXPECT_EQ(w.strings.get(w.flows.kinds[k].name), s.strings.get(s.flows.kinds[k].name));
    EXPECT_EQ(w.strings.get(w.flows.kinds[k].cat), s.strings.get(s.flows.kinds[k].cat));
  }

  Engine lazy;
  testing::open_lazy(&lazy, *p);
  // Analyses: the list and every available table, packed, equal to the loaded trace's.
  const std::string list = p->loaded.query_json("analysis", "{}");
  EXPECT_EQ(lazy.query_json("analysis", "{}"), list);
  size_t tables = 0;
  for (const std::string& args : analysis_args()) {
    const std::string want = p->loaded.query_json("analysis", args);
    EXPECT_EQ(lazy_analysis(&lazy, p->file, args), want) << args;
    tables += want.find("\"rows\":[{") != std::string::npos;
  }
  EXPECT_GE(tables, 3u);  // overview, steps, kernel stats at least have rows

  // A step an overview cell links to: the same event, the same details, in both.
  const std::vector<uint32_t> steps =
      linked_steps(p->loaded.query_json("analysis", R"({"name":"overview"})"));
  ASSERT_FALSE(steps.empty());
  for (size_t k = 0; k < steps.size() && k < 4; ++k) {
    const std::string want = p->loaded.details_json(steps[k], "");
    EXPECT_NE(want.find("ProfilerStep#"), std::string::npos) << want.substr(0, 200);
    EXPECT_EQ(lazy_details(&lazy, p->file, steps[k]), want) << steps[k];
  }

  // Arrows of whole, middle and zoomed views, in the loaded trace's order.
  const double ext = static_cast<double>(s.end_ns - s.start_ns);
  size_t arrows = 0;
  for (const auto& [a, b] :
       {std::pair{0.0, ext}, std::pair{0.3 * ext, 0.45 * ext}, std::pair{0.6 * ext, 0.601 * ext}}) {
    const std::vector<proto::FlowEntry> want = view_flows_of(&p->loaded, a, b);
    arrows += want.size();
    expect_same_flows(lazy_view_flows(&lazy, p->file, a, b), want, "view");
  }
  EXPECT_GT(arrows, 0u);

  // Details' flows and launches: events with flows in and out, and ops that launched kernels.
  size_t with_flows = 0, with_launches = 0, asked = 0;
  const uint32_t stride = std::max<uint32_t>(1, static_cast<uint32_t>(s.flows.size() / 40));
  for (uint32_t edge = 0; edge < s.flows.size() && asked < detail_samples; edge += stride) {
    for (uint32_t ev : {s.flows.from[edge], s.flows.to[edge]}) {
      const std::string want = p->loaded.details_json(ev, "");
      ASSERT_EQ(lazy_details(&lazy, p->file, ev), want) << ev;
      ++asked;
      with_flows += !flows_of(s, ev).empty();
    }
    // The launching op: the parent of a runtime call.
    const uint32_t parent = parent_of(s, s.flows.from[edge]);
    if (parent == kNone) continue;
    const std::string want = p->loaded.details_json(parent, "");
    ASSERT_EQ(lazy_details(&lazy, p->file, parent), want) << parent;
    with_launches += launched_by(s, parent, 1).count > 0;
  }
  EXPECT_GT(with_flows, 10u);
  EXPECT_GT(with_launches, 3u);
}

TEST(BundleFlows, AGeneratedKinetoTracesFlowsAndAnalysesAreTheLoadedOnes) {
  PackedTrace p;
  // Small tiles: the flows span several flows tiles, an op's kernels other rows' tiles.
  testing::pack_trace(&p, "flows.json", kineto_trace(6, 300), false, 257);
  check_flows_and_analyses(&p, 120);
  // No frames, clock syncs or devices here: the whole read is the trace's store, digest and all.
  FileByteReader r(p.path);
  Engine whole;
  ASSERT_TRUE(whole.load_bundle("whole.strata", &r)) << whole.last_error();
  EXPECT_EQ(store_digest(*whole.store()), store_digest(*p.loaded.store()));
}

TEST(BundleFlows, ARealKinetoTracesFlowsAndAnalysesAreTheLoadedOnes) {
  std::string gz;
  if (!testing::read_shared(testing::kResnetKineto, &gz)) GTEST_SKIP() << "../shared/data absent";
  PackedTrace p;
  testing::pack_trace(&p, "resnet_flows.pt.trace.json.gz", gz, false, bundle::kTileItems);
  check_flows_and_analyses(&p, 80);
}

TEST(BundleFlows, AViewFetchesOnlyTheFlowsTilesOfItsRange) {
  PackedTrace p;
  testing::pack_trace(&p, "flows_range.json", kineto_trace(8, 400), false, 257);
  const bundle::Manifest& m = p.file.manifest();
  size_t flow_tiles = 0;
  for (const bundle::Tile& t : m.tiles) flow_tiles += t.kind == bundle::TileKind::kFlows;
  ASSERT_GE(flow_tiles, 8u);
  Engine e;
  testing::open_lazy(&e, p);
  const TraceStore& s = *p.loaded.store();
  const double ext = static_cast<double>(s.end_ns - s.start_ns);
  ViewMsg msg = view_msg(e, 0.5 * ext, 0.51 * ext);
  const std::vector<uint32_t> want =
      e.bundle_wanted(reinterpret_cast<const uint8_t*>(&msg), sizeof msg);
  size_t fetched = 0;
  for (uint32_t i : want) fetched += m.tiles[i].kind == bundle::TileKind::kFlows;
  EXPECT_GE(fetched, 1u);
  EXPECT_LE(fetched, 3u) << "of " << flow_tiles;
  // Without the flag, no flows tile.
  msg.b.flags = 0;
  for (uint32_t i : e.bundle_wanted(reinterpret_cast<const uint8_t*>(&msg), sizeof msg))
    EXPECT_NE(m.tiles[i].kind, bundle::TileKind::kFlows);
}

TEST(BundleFlows, AFailedFlowsTileLeavesItsArrowsOutAndIsNamed) {
  PackedTrace p;
  testing::pack_trace(&p, "flows_fail.json", kineto_trace(3, 200), false, 257);
  Engine e;
  testing::open_lazy(&e, p);
  const TraceStore& s = *p.loaded.store();
  const double ext = static_cast<double>(s.end_ns - s.start_ns);
  ViewMsg msg = view_msg(e, 0, ext);
  const auto* req = reinterpret_cast<const uint8_t*>(&msg);
  std::vector<uint32_t> want = e.bundle_wanted(req, sizeof msg);
  uint32_t first_flows = kNone;
  for (uint32_t i : want)
    if (p.file.manifest().tiles[i].kind == bundle::TileKind::kFlows && first_flows == kNone)
      first_flows = i;
  ASSERT_NE(first_flows, kNone);
  e.bundle_session()->fail(first_flows, "missing or cut short");
  testing::feed_rounds(&e, p.file, [&] { return e.bundle_wanted(req, sizeof msg); });
  const std::vector<proto::FlowEntry> got = reply_flows(e.view(req, sizeof msg));
  const std::vector<proto::FlowEntry> all = view_flows_of(&p.loaded, 0, ext);
  // Every edge is in this view: all but the failed tile's are drawn, none of its.
  const bundle::Tile& bad = p.file.manifest().tiles[first_flows];
  ASSERT_EQ(all.size(), s.flows.size());
  EXPECT_EQ(got.size(), all.size() - bad.count);
  for (const proto::FlowEntry& f : got)
    for (uint32_t edge = bad.first; edge < bad.first + bad.count; ++edge)
      ASSERT_FALSE(f.from_event == s.flows.from[edge] && f.to_event == s.flows.to[edge]) << edge;
  const std::string sum = e.summary_json();
  EXPECT_NE(sum.find("bundle tile " + std::to_string(first_flows)), std::string::npos) << sum;
}

}  // namespace
}  // namespace strata
