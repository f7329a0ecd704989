// The Memory Viewer on real compiled HloProtos (../shared/data): the replay's peak and the set
// of buffers live there equal a plain replay of the heap-simulator trace written here; rows fold
// small buffers and merge siblings; a proto without a buffer assignment, or with a cut one,
// says so and its module stays readable; the engine answers strata.analysis('memory_viewer').
#include "engine/analysis/memory_viewer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "core/formats/hlo/hlo_proto_parser.h"
#include "core/formats/hlo/xplane_hlo.h"
#include "core/memory_viewer/heap_replay.h"
#include "core/memory_viewer/live_rows.h"
#include "engine/analysis/analysis_registry.h"
#include "engine/engine.h"
#include "engine/graph_session.h"
#include "engine/query_args.h"
#include "import_test_util.h"
#include "ui/analysis/memory_viewer_chart_model.h"

namespace strata {
namespace {

using hlo::HeapEventKind;
using hlo::HloModule;

const char* const kProtos[] = {
    "hlo/tracelens/jax_conv_minimal/jit_forward_3d_conv(15).hlo_proto.pb",
    "hlo/tracelens/jax_conv_minimal/jit__normal(11).hlo_proto.pb",
    "hlo/tracelens/jax_conv_minimal/jit__threefry_split(5).hlo_proto.pb",
};

bool parse_file(const std::string& rel, HloModule* m) {
  std::string bytes, error;
  if (!testing::read_shared(rel, &bytes)) return false;
  EXPECT_TRUE(
      hlo::parse_hlo_proto(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), m, &error))
      << rel << ": " << error;
  return true;
}

// The reference: the trace's events in order, a buffer's memory held while anyone shares it.
struct Reference {
  int64_t peak = -1;  // heap-tracked bytes at the first highest point
  size_t peak_point = 0;
  std::set<int64_t> live_at_peak;  // logical buffer ids
};

Reference replay_by_hand(const hlo::BufferAssignment& a, const hlo::HeapSimulatorTrace& t) {
  std::map<int64_t, int64_t> size;
  for (const auto& b : a.logical_buffers) size[b.id] = b.size;
  std::map<int64_t, std::set<int64_t>> holders;  // canonical → buffers sharing it (itself too)
  std::map<int64_t, int64_t> canonical;
  std::set<int64_t> live;
  int64_t heap = 0;
  Reference r;
  for (size_t i = 0; i < t.events.size(); ++i) {
    const hlo::HeapEvent& e = t.events[i];
    if (e.kind == HeapEventKind::kAlloc) {
      holders[e.buffer_id] = {e.buffer_id};
      canonical[e.buffer_id] = e.buffer_id;
      live.insert(e.buffer_id);
      heap += size[e.buffer_id];
    } else if (e.kind == HeapEventKind::kShareWith) {
      const int64_t c = e.share_with_canonical_id;
      canonical[e.buffer_id] = c;
      if (holders[c].empty()) live.insert(c), heap += size[c];
      holders[c].insert(e.buffer_id);
    } else {
      const int64_t c = canonical.count(e.buffer_id) ? canonical[e.buffer_id] : e.buffer_id;
      holders[c].erase(e.buffer_id);
      if (holders[c].empty()) live.erase(c), heap -= size[c];
    }
    if (heap > r.peak) r.peak = heap, r.peak_point = i, r.live_at_peak = live;
  }
  return r;
}

void expect_matches_reference(const HloModule& m, const std::string& what) {
  memview::MemoryModel mm;
  std::string error;
  ASSERT_TRUE(memview::build_memory_model(m, &mm, &error)) << what << ": " << error;
  for (const int64_t color : mm.colors) {
    memview::HeapProfile p;
    ASSERT_TRUE(memview::replay_heap(mm, color, &p, &error)) << what << ": " << error;
    if (p.trace < 0) continue;
    const Reference ref = replay_by_hand(mm.assignment, mm.assignment.traces[p.trace]);
    EXPECT_EQ(p.peak, ref.peak_point) << what;
    EXPECT_EQ(p.peak_bytes - p.indefinite_bytes, ref.peak) << what;
    std::set<int64_t> live;
    for (const uint32_t b : memview::live_at(p, p.peak)) live.insert(mm.buffers[b].id);
    EXPECT_EQ(live, ref.live_at_peak) << what;
    // The rows at the peak add up to the heap there.
    int64_t sum = 0;
    for (const memview::MemoryRow& r : memview::rows_at(m, mm, p, p.peak)) sum += r.size;
    EXPECT_EQ(sum, p.peak_bytes) << what;
  }
}

TEST(MemoryViewerRealFiles, HloProtoPeaksMatchAPlainReplay) {
  size_t tested = 0;
  for (const char* rel : kProtos) {
    HloModule m;
    if (!parse_file(rel, &m)) continue;
    ASSERT_FALSE(m.buffer_assignment.empty()) << rel;
    expect_matches_reference(m, rel);
    ++tested;
  }
  if (!tested) GTEST_SKIP() << "no HloProto samples in " << STRATA_SHARED_DATA;
}

// The forward convolution's assignment, read by protoc --decode_raw: HBM (colour 0), one trace
// over allocation 3 (the temporaries); the cuDNN convolution's 572 MB result is live at the
// peak, with the two transposed inputs; the parameters are live throughout.
TEST(MemoryViewerRealFiles, ForwardConvPeakIsTheConvolutionWorkspace) {
  HloModule m;
  if (!parse_file(kProtos[0], &m)) GTEST_SKIP();
  memview::MemoryModel mm;
  std::string error;
  ASSERT_TRUE(memview::build_memory_model(m, &mm, &error)) << error;
  ASSERT_EQ(mm.colors, std::vector<int64_t>{0});
  memview::HeapProfile p;
  ASSERT_TRUE(memview::replay_heap(mm, 0, &p, &error)) << error;
  EXPECT_EQ(p.trace, 0);
  EXPECT_EQ(p.padded.size(), mm.assignment.traces[0].events.size());
  // Parameters 6389760 + 655360 and the output allocation 572026880 + 7150336 (one allocation).
  EXPECT_EQ(p.indefinite_bytes, 6389760 + 655360 + 572026880);
  EXPECT_EQ(p.peak_bytes - p.indefinite_bytes, 6389760 + 655360 + 572026880);
  bool workspace = false;
  for (const uint32_t b : memview::live_at(p, p.peak))
    workspace |= mm.buffers[b].label == "cudnn-conv.1.0{0}" && mm.buffers[b].size == 572026880;
  EXPECT_TRUE(workspace);
  EXPECT_GE(p.peak_bytes, p.peak_unpadded);
}

TEST(MemoryViewerRealFiles, XplaneHloProtosMatchAPlainReplay) {
  const std::filesystem::path root = std::filesystem::path(STRATA_SHARED_DATA) / "xplane";
  if (!std::filesystem::exists(root)) GTEST_SKIP();
  size_t with_assignment = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".pb") continue;
    std::string bytes;
    const std::string rel = std::filesystem::relative(entry.path(), STRATA_SHARED_DATA).string();
    ASSERT_TRUE(testing::read_shared(rel, &bytes));
    std::vector<HloModule> modules;
    std::vector<std::string> errors;
    hlo::parse_xplane_hlo(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &modules,
                          &errors);
    for (const HloModule& m : modules) {
      if (m.buffer_assignment.empty()) continue;
      expect_matches_reference(m, rel + " " + m.module_name);
      ++with_assignment;
    }
  }
  if (!with_assignment) GTEST_SKIP() << "no xplane HloProto with a buffer assignment";
}

// Bytes of a length-delimited field.
std::string len_field(uint32_t number, const std::string& payload) {
  std::string o;
  auto varint = [&](uint64_t v) {
    do {
      uint8_t b = v & 0x7f;
      v >>= 7;
      o.push_back(static_cast<char>(b | (v ? 0x80 : 0)));
    } while (v);
  };
  varint(number << 3 | 2);
  varint(payload.size());
  return o + payload;
}

TEST(MemoryViewer, NoOrCutBufferAssignmentSaysSoAndKeepsTheModule) {
  HloModule plain;
  if (parse_file("hlo/xla/hlo_opt_hlo_protobinary.pb", &plain)) {
    EXPECT_GT(plain.instruction_count(), 0u);
    memview::MemoryModel mm;
    std::string error;
    EXPECT_FALSE(memview::build_memory_model(plain, &mm, &error));
    EXPECT_NE(error.find("no buffer assignment"), std::string::npos) << error;
  }
  std::string bytes;
  if (!testing::read_shared(kProtos[0], &bytes)) GTEST_SKIP();
  HloModule whole;
  ASSERT_TRUE(parse_file(kProtos[0], &whole));
  // The file cut inside its buffer assignment (the last field): the module still reads.
  const std::string cut = bytes.substr(0, bytes.size() - 100);
  HloModule m;
  std::string error;
  ASSERT_TRUE(
      hlo::parse_hlo_proto(reinterpret_cast<const uint8_t*>(cut.data()), cut.size(), &m, &error))
      << error;
  EXPECT_EQ(m.instruction_count(), whole.instruction_count());
  memview::MemoryModel mm;
  EXPECT_FALSE(memview::build_memory_model(m, &mm, &error));
  EXPECT_NE(error.find("cut short"), std::string::npos) << error;
  // A whole HloProto whose buffer assignment's own bytes are damaged (a field cut inside).
  std::string module_bytes;
  {
    // Field 1 of the file: re-read it by skipping its tag and length.
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    size_t at = 1, len = 0, shift = 0;
    while (p[at] & 0x80) len |= static_cast<size_t>(p[at++] & 0x7f) << shift, shift += 7;
    len |= static_cast<size_t>(p[at++]) << shift;
    module_bytes = bytes.substr(at, len);
  }
  const std::string ba(whole.buffer_assignment.begin(), whole.buffer_assignment.end());
  const std::string damaged =
      len_field(1, module_bytes) + len_field(3, ba.substr(0, ba.size() / 2));
  HloModule d;
  ASSERT_TRUE(hlo::parse_hlo_proto(reinterpret_cast<const uint8_t*>(damaged.data()), damaged.size(),
                                   &d, &error))
      << error;
  EXPECT_FALSE(memview::build_memory_model(d, &mm, &error));
  EXPECT_NE(error.find("damaged"), std::string::npos) << error;
}

TEST(MemoryViewer, ShapeBytesWithoutPadding) {
  EXPECT_EQ(memview::unpadded_shape_bytes("f32[2,3]{1,0}"), 24);
  EXPECT_EQ(memview::unpadded_shape_bytes("bf16[8,128]{1,0:T(8,128)(2,1)}"), 2048);
  EXPECT_EQ(memview::unpadded_shape_bytes("(f32[2]{0}, s32[])"), 16);
  EXPECT_EQ(memview::unpadded_shape_bytes("pred[]"), 1);
  EXPECT_EQ(memview::unpadded_shape_bytes("token[]"), 0);
  const int64_t idx[] = {1, 0};
  EXPECT_EQ(memview::subshape_text("(f32[2]{0}, (u8[4]{0}, s32[]))", idx), "u8[4]{0}");
  const int64_t bad[] = {3};
  EXPECT_EQ(memview::subshape_text("(f32[2]{0}, s32[])", bad), "");
}

// A synthetic assignment: three equal fusion outputs merge into one sibling row, two small
// buffers fold, a shared buffer keeps its memory until its last sharer frees it.
TEST(MemoryViewer, SiblingsMergeSmallBuffersFoldSharingHoldsMemory) {
  HloModule m;
  memview::MemoryModel mm;
  auto add_buffer = [&](int64_t id, int64_t size, const std::string& label) {
    memview::BufferInfo b;
    b.id = id;
    b.size = b.unpadded = size;
    b.label = label;
    b.allocation = 0;
    mm.buffer_by_id[id] = static_cast<uint32_t>(mm.buffers.size());
    mm.buffers.push_back(b);
    hlo::LogicalBuffer lb;
    lb.id = id;
    lb.size = size;
    mm.assignment.logical_buffers.push_back(lb);
  };
  add_buffer(1, 1 << 20, "fusion.1");
  add_buffer(2, 1 << 20, "fusion.2");
  add_buffer(3, 1 << 20, "fusion.3");
  add_buffer(4, 100, "tiny.1");
  add_buffer(5, 200, "tiny.2");
  add_buffer(6, 1 << 20, "copy.7");  // shares fusion.1's memory
  mm.colors = {0};
  hlo::BufferAllocation temp;
  temp.index = 1;
  mm.assignment.allocations.push_back(temp);
  hlo::HeapSimulatorTrace t;
  t.buffer_allocation_index = 1;
  using K = HeapEventKind;
  for (int64_t id : {1, 2, 3, 4, 5}) t.events.push_back({K::kAlloc, id, 0, ""});
  t.events.push_back({K::kShareWith, 6, 1, ""});
  t.events.push_back({K::kFree, 1, 0, ""});  // copy.7 still holds it
  t.events.push_back({K::kFree, 6, 0, ""});  // now it goes
  mm.assignment.traces.push_back(t);
  memview::HeapProfile p;
  std::string error;
  ASSERT_TRUE(memview::replay_heap(mm, 0, &p, &error)) << error;
  EXPECT_EQ(p.padded[6], 3 * (1 << 20) + 300);
  EXPECT_EQ(p.padded[7], 2 * (1 << 20) + 300);
  EXPECT_EQ(p.peak, 4u);
  const std::vector<memview::MemoryRow> rows = memview::rows_at(m, mm, p, 6);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].label, "fusion.* (3\u00d7)");
  EXPECT_EQ(rows[0].size, 3 * (1 << 20));
  EXPECT_TRUE(rows[1].small);
  EXPECT_EQ(rows[1].size, 300);
  // To fit 1.5 MiB + 300 bytes, two of the three fusion outputs' worth must go: the merged row.
  const std::vector<uint32_t> shrink = memview::rows_to_shrink(rows, p.padded[6], 3 << 19);
  ASSERT_EQ(shrink.size(), 1u);
  EXPECT_EQ(shrink[0], 0u);
  EXPECT_TRUE(memview::rows_to_shrink(rows, p.padded[6], 1 << 30).empty());
}

TEST(MemoryViewerEngine, AnalysisAnswersForAGraphModule) {
  std::string bytes;
  if (!testing::read_shared(kProtos[0], &bytes)) GTEST_SKIP();
  Engine e;
  GraphSession& g = e.graph_session();
  std::memcpy(g.buffer(bytes.size()), bytes.data(), bytes.size());
  ASSERT_EQ(g.add(2, "conv.hlo_proto.pb", false, 0), 1) << g.error();
  QueryArgs args;
  std::string err;
  ASSERT_TRUE(args.parse(R"({"name":"memory_viewer","module":0,"budget":600000000})", &err));
  const std::string json = analysis_json(e, args);
  EXPECT_EQ(json.find("\"errors\":[\""), std::string::npos) << json.substr(0, 400);
  EXPECT_NE(json.find("\"moduleName\":\"jit_forward_3d_conv\""), std::string::npos);
  EXPECT_NE(json.find("\"peak\":{\"point\":"), std::string::npos);
  EXPECT_NE(json.find("cudnn-conv.1.0{0}"), std::string::npos);
  EXPECT_NE(json.find("\"fits\":false"), std::string::npos);
  EXPECT_NE(json.find("\"label\":\"HBM\""), std::string::npos);
  // The UI's reader sees the same curve and peak.
  MemoryViewerData d;
  ASSERT_TRUE(read_memory_viewer_extra(json.c_str(), &d));
  EXPECT_EQ(d.module_name, "jit_forward_3d_conv");
  ASSERT_EQ(d.modules.size(), 1u);
  EXPECT_TRUE(d.modules[0].ok);
  EXPECT_EQ(d.points, 6u);
  EXPECT_EQ(d.padded.size(), 6u);
  EXPECT_EQ(d.peak.point, 2u);
  EXPECT_EQ(d.peak.bytes, 2.0 * (6389760 + 655360 + 572026880));
  EXPECT_EQ(d.point.point, d.peak.point);
  EXPECT_TRUE(d.has_budget);
  EXPECT_FALSE(d.fits);
  EXPECT_FALSE(d.shrink.empty());
  ASSERT_EQ(d.spaces.size(), 1u);
  EXPECT_EQ(d.spaces[0].label, "HBM");
  // Zoom stays inside the curve.
  const MemoryViewerRange r = memory_viewer_zoom(d, memory_viewer_full_range(d), 3, 0.1);
  EXPECT_GE(r.lo, 0);
  EXPECT_LE(r.hi, 6);
  EXPECT_GE(r.hi - r.lo, 4);
}

}  // namespace
}  // namespace strata
