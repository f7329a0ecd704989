// FLOPs and bytes accessed of an HLO op from its occurrences in the trace (core/graph/
// op_costs.h), read from each occurrence's details as the graph viewer's worker reads them:
// an xplane written here with the generated classes (TPU-style: FLOPs on the op's event
// metadata, bytes on each event, the module's real HloProto on the metadata plane), the same
// xplane gzip-compressed (records gathered in one pass, as graph_costs_scan_* does), a Chrome
// JSON trace with the stats as args, and a real xplane whose ops carry none ("not in the
// trace"). No real sample has both HLO protos and cost stats: the only one with cost stats
// (xprof's tpu_inference_2) is corrupt upstream.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/formats/hlo/hlo_proto_parser.h"
#include "core/formats/xplane/xplane_tables.h"
#include "core/graph/op_costs.h"
#include "engine/engine.h"
#include "engine/memory_scan.h"
#include "import_test_util.h"
#include "xplane_test_util.h"

namespace strata::graph {
namespace {

using testing::PlaneWriter;
namespace pb = tensorflow::profiler;

const char* const kProto = "hlo/tracelens/jax_conv_minimal/jit_forward_3d_conv(15).hlo_proto.pb";

std::vector<uint32_t> events_named(const TraceStore& s, const std::string& track,
                                   const std::string& name) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < s.events.size(); ++i)
    if (s.strings.get(s.events.name[i]) == name &&
        s.strings.get(s.tracks[s.events.track[i]].name) == track)
      out.push_back(i);
  return out;
}

// Sums the occurrences' costs from their details, each record read from the plain file.
OpCosts costs_of(const Engine& e, const std::vector<uint32_t>& events, const std::string& file,
                 const std::string& name) {
  OpCosts c;
  c.name = name;
  c.occurrences = static_cast<int64_t>(events.size());
  for (uint32_t ev : events) {
    OpCostSample s;
    EXPECT_TRUE(op_cost_sample(testing::details_of(e, ev, file), &s));
    add_op_cost_sample(&c, s);
  }
  return c;
}

struct TpuTrace {
  std::string bytes;
  std::string hot, cold;  // instruction names: one with costs, one without
};

// A TPU plane whose "XLA Ops" line runs two instructions of the real module: `hot` three times
// (FLOPs on its event metadata, as XProf writes them; bytes per event, 1, 2 and 3 MB, over 1,
// 2 and 3 µs), `cold` twice with no cost stats.
bool tpu_trace(TpuTrace* t) {
  std::string proto;
  if (!testing::read_shared(kProto, &proto)) return false;
  hlo::HloModule m;
  std::string error;
  EXPECT_TRUE(hlo::parse_hlo_proto(reinterpret_cast<const uint8_t*>(proto.data()), proto.size(), &m,
                                   &error))
      << error;
  // The first two instructions of the entry that run (not parameters or constants).
  for (uint32_t i = m.comp_first[m.entry]; i < m.comp_first[m.entry] + m.comp_count[m.entry]; ++i) {
    const std::string_view op = m.str(m.opcode[i]);
    if (op == "parameter" || op == "constant") continue;
    if (t->hot.empty())
      t->hot = m.str(m.name[i]);
    else if (t->cold.empty())
      t->cold = m.str(m.name[i]);
  }
  if (t->hot.empty() || t->cold.empty()) return false;

  pb::XSpace space;
  PlaneWriter meta(&space, "/host:metadata");
  pb::XEventMetadata* module = meta.meta("jit_forward_3d_conv(15)");
  meta.stat(module, "Hlo Proto")->set_bytes_value(proto);
  meta.stat_int(module, "program_id", 15);
  PlaneWriter tpu(&space, "/device:TPU:0");
  pb::XLine* ops = tpu.line(2, "XLA Ops", 1000);
  for (const std::string* op : {&t->hot, &t->cold}) {
    pb::XEventMetadata* md = tpu.meta(*op);
    tpu.stat_str(md, "hlo_module", "jit_forward_3d_conv");
    tpu.stat_int(md, "program_id", 15);
    if (op == &t->hot) {
      tpu.stat_uint(md, "flops", 2000000000);
      tpu.stat(md, "model_flops")->set_double_value(1.5e9);
    }
  }
  int64_t at = 0;
  for (int k = 1; k <= 3; ++k) {
    pb::XEvent* e = tpu.event(ops, t->hot, at, k * 1000000);  // k µs
    tpu.stat_int(e, "bytes_accessed", k * 1000000);
    at += 10000000;
  }
  for (int k = 0; k < 2; ++k, at += 10000000) tpu.event(ops, t->cold, at, 500000);
  t->bytes = testing::serialize(space);
  return true;
}

void expect_hot_costs(const OpCosts& c) {
  EXPECT_EQ(c.read, 3u);
  EXPECT_DOUBLE_EQ(c.time_ns, 6000);
  const OpCostTotal& f = c.stat[kFlops];
  EXPECT_EQ(f.count, 3u);
  EXPECT_DOUBLE_EQ(f.total, 6e9);
  EXPECT_DOUBLE_EQ(f.per_occurrence(), 2e9);
  EXPECT_DOUBLE_EQ(f.min, 2e9);
  EXPECT_DOUBLE_EQ(f.max, 2e9);
  EXPECT_DOUBLE_EQ(f.per_second(), 1e15);  // 1 PFLOP/s
  EXPECT_DOUBLE_EQ(c.stat[kModelFlops].total, 4.5e9);
  const OpCostTotal& b = c.stat[kBytesAccessed];
  EXPECT_EQ(b.count, 3u);
  EXPECT_DOUBLE_EQ(b.total, 6e6);
  EXPECT_DOUBLE_EQ(b.min, 1e6);
  EXPECT_DOUBLE_EQ(b.max, 3e6);
  EXPECT_DOUBLE_EQ(b.per_second(), 1e12);  // 1 TB/s
  EXPECT_EQ(c.stat[kRawBytesAccessed].count, 0u);
}

TEST(GraphOpCosts, XplaneStatsOfTheOpsOccurrences) {
  TpuTrace t;
  if (!tpu_trace(&t)) GTEST_SKIP() << "no " << kProto;
  Engine e;
  ASSERT_TRUE(testing::engine_load(&e, t.bytes)) << e.last_error();
  const TraceStore& s = *e.store();
  ASSERT_TRUE(s.xspace && s.xspace->has_hlo(15));
  const std::vector<uint32_t> hot = events_named(s, "XLA Ops", t.hot);
  ASSERT_EQ(hot.size(), 3u);
  const OpCosts c = costs_of(e, hot, t.bytes, t.hot);
  expect_hot_costs(c);
  EXPECT_TRUE(c.any());

  // The op without stats: read, timed, and every stat absent (the pane says "not in the trace").
  const OpCosts cold = costs_of(e, events_named(s, "XLA Ops", t.cold), t.bytes, t.cold);
  EXPECT_EQ(cold.read, 2u);
  EXPECT_DOUBLE_EQ(cold.time_ns, 1000);
  EXPECT_FALSE(cold.any());
  const std::string json = op_costs_json(cold);
  EXPECT_NE(json.find("\"flops\":null"), std::string::npos) << json;
  EXPECT_NE(json.find("\"bytesAccessed\":null"), std::string::npos) << json;

  // The JSON the worker sends reads back the same (the UI and strata.graph() use it).
  OpCosts back;
  ASSERT_TRUE(read_op_costs_json(op_costs_json(c), &back));
  EXPECT_EQ(back.name, t.hot);
  EXPECT_EQ(back.occurrences, 3);
  expect_hot_costs(back);
  EXPECT_EQ(op_costs_json(back), op_costs_json(c));
}

TEST(GraphOpCosts, CompressedXplaneRecordsGatheredInOnePass) {
  TpuTrace t;
  if (!tpu_trace(&t)) GTEST_SKIP() << "no " << kProto;
  std::string gz;
  if (!testing::compress_with("gzip -c", t.bytes, &gz)) GTEST_SKIP() << "no gzip";
  Engine e;
  ASSERT_TRUE(testing::engine_load(&e, gz, 1 << 16, "t.xplane.pb.gz")) << e.last_error();
  const TraceStore& s = *e.store();
  ASSERT_TRUE(e.file_compressed(0));
  const std::vector<uint32_t> hot = events_named(s, "XLA Ops", t.hot);
  ASSERT_EQ(hot.size(), 3u);
  // As graph_costs_scan_*: the occurrences' spans, one pass over the compressed file.
  std::vector<MemoryScan::Want> wants;
  for (uint32_t ev : hot) wants.push_back({s.events.src_offset[ev], s.events.src_len[ev], ev});
  MemoryScan scan;
  scan.begin(Compression::kGzip, std::move(wants));
  for (size_t off = 0; off < gz.size(); off += 100)
    if (scan.feed(reinterpret_cast<const uint8_t*>(gz.data()) + off,
                  std::min<size_t>(100, gz.size() - off)))
      break;
  OpCosts c;
  c.name = t.hot;
  for (size_t i = 0; i < scan.size(); ++i) {
    ASSERT_EQ(scan.record(i).size(), scan.want(i).length);
    OpCostSample sample;
    ASSERT_TRUE(op_cost_sample(e.details_json(scan.want(i).event, scan.record(i)), &sample));
    add_op_cost_sample(&c, sample);
  }
  expect_hot_costs(c);
}

TEST(GraphOpCosts, ChromeJsonArgsNumbersOrText) {
  // As a JAX/XLA Chrome trace may carry them: the same names as args, a count as text too.
  const std::string json = R"({"traceEvents":[
{"ph":"X","name":"fusion.7","pid":1,"tid":1,"ts":0,"dur":2,"args":{"flops":4000,"bytes_accessed":"1024"}},
{"ph":"X","name":"fusion.7","pid":1,"tid":1,"ts":10,"dur":6,"args":{"flops":8000,"bytes_accessed":"2048","raw_bytes_accessed":"n/a"}},
{"ph":"X","name":"fusion.7","pid":1,"tid":1,"ts":20,"dur":2,"args":{"model_flops":-5}}
]})";
  Engine e;
  ASSERT_TRUE(testing::engine_load(&e, json, 1 << 16, "t.json")) << e.last_error();
  std::vector<uint32_t> evs;
  for (uint32_t i = 0; i < e.store()->events.size(); ++i) evs.push_back(i);
  ASSERT_EQ(evs.size(), 3u);
  const OpCosts c = costs_of(e, evs, json, "fusion.7");
  EXPECT_EQ(c.read, 3u);
  EXPECT_DOUBLE_EQ(c.time_ns, 10000);
  EXPECT_EQ(c.stat[kFlops].count, 2u);
  EXPECT_DOUBLE_EQ(c.stat[kFlops].total, 12000);
  EXPECT_DOUBLE_EQ(c.stat[kFlops].time_ns, 8000);  // the rate uses the occurrences that have it
  EXPECT_DOUBLE_EQ(c.stat[kFlops].per_second(), 1.5e9);
  EXPECT_DOUBLE_EQ(c.stat[kBytesAccessed].total, 3072);
  EXPECT_EQ(c.stat[kRawBytesAccessed].count, 0u);  // "n/a" is not a count
  EXPECT_EQ(c.stat[kModelFlops].count, 0u);        // nor is a negative number
}

TEST(GraphOpCosts, RealXplaneOpsWithoutCostStats) {
  const char* rel = "xplane/tracelens/jax_te_fused_attn/934987a2fc2f.xplane.pb";
  std::string bytes;
  if (!testing::read_shared(rel, &bytes)) GTEST_SKIP() << "no shared data";
  Engine e;
  ASSERT_TRUE(testing::engine_load(&e, bytes)) << e.last_error();
  const TraceStore& s = *e.store();
  // The device ops the graph viewer links to (details with an xla block naming the program).
  int found = 0;
  OpCosts c;
  for (uint32_t i = 0; i < s.events.size() && found < 20; ++i) {
    const std::string d = testing::details_of(e, i, bytes);
    if (d.find("\"graph\":{\"programId\"") == std::string::npos) continue;
    ++found;
    OpCostSample sample;
    ASSERT_TRUE(op_cost_sample(d, &sample));
    EXPECT_GE(sample.dur_ns, 0);
    add_op_cost_sample(&c, sample);
  }
  ASSERT_GT(found, 0);
  EXPECT_EQ(c.read, static_cast<uint32_t>(found));
  EXPECT_FALSE(c.any()) << op_costs_json(c);
}

TEST(GraphOpCosts, BadDetailsAndShortNumbers) {
  OpCostSample s;
  EXPECT_FALSE(op_cost_sample("", &s));
  EXPECT_FALSE(op_cost_sample("{\"record\":{\"args\":{\"flops\":1}}}", &s));  // no durNs
  EXPECT_FALSE(op_cost_sample("{\"durNs\":5,", &s));
  ASSERT_TRUE(op_cost_sample("{\"durNs\":5,\"record\":{\"xla\":{\"flops\":\"7\"}}}", &s));
  EXPECT_DOUBLE_EQ(s.value[kFlops], 7);  // from the xla block when args lack it
  OpCosts c;
  EXPECT_FALSE(read_op_costs_json("[1,2", &c));
  EXPECT_FALSE(read_op_costs_json("{\"occurrences\":1}", &c));  // unnamed
  EXPECT_EQ(si_number(12), "12");
  EXPECT_EQ(si_number(1234), "1.23 k");
  EXPECT_EQ(si_number(6e9), "6.00 G");
  EXPECT_EQ(si_number(1.5e15), "1.50 P");
  EXPECT_EQ(si_number(999.6e6), "1.00 G");
  EXPECT_EQ(si_number(NAN), "-");
}

}  // namespace
}  // namespace strata::graph
