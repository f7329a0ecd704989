// The heap's peak at the end of a load (TraceBuilder::finish, the pyramid, Engine::load_end),
// counted over every operator new (heap_counter.h). The engine worker's wasm memory never
// shrinks, so this peak, not the final store, is what a trace costs (issue 3: at most 0.3x its
// JSON): these tests pin the temporaries each step may add on top of what it keeps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "core/pyramid/pyramid.h"
#include "core/store/trace_builder.h"
#include "engine/engine.h"
#include "heap_counter.h"
#include "import_test_util.h"

namespace strata {
namespace {

using testing::heap_live;
using testing::heap_peak;
using testing::reset_heap_peak;

// Small vectors of a step (per track, per depth, per level): far below the bounds tested.
constexpr size_t kSmall = 64 << 10;

struct Heap {
  size_t before, after, peak;
};

template <class F>
Heap measure(F&& f) {
  Heap h{};
  h.before = heap_live();
  reset_heap_peak();
  f();
  h.after = heap_live();
  h.peak = heap_peak();
  return h;
}

// Slices on three threads, as profilers write them: in start order (two levels), each parent
// after its children (Kineto's CPU ops: order_nested), and two sequences one after the other
// (merge_runs). Returns the number of events.
size_t add_slices(TraceBuilder* b, uint32_t per_thread) {
  const uint32_t p = b->process("1", 1);
  const StrId name = b->strings().intern("op");
  const uint32_t in_order = b->thread_track(p, "1", 1);
  const uint32_t post_order = b->thread_track(p, "2", 2);
  const uint32_t two_runs = b->thread_track(p, "3", 3);
  const size_t n = 5 * size_t{per_thread};
  b->reserve_events(n);  // exactly: what the columns hold is not what this test is about
  uint64_t at = 0;
  for (uint32_t i = 0; i < per_thread; ++i) {
    const TimeNs t = TimeNs{i} * 1000;
    b->add_complete(in_order, t, 900, name, 0, at++, 1);
    b->add_complete(in_order, t + 100, 300, name, 0, at++, 1);
    b->add_complete(post_order, t + 100, 300, name, 0, at++, 1);
    b->add_complete(post_order, t, 900, name, 0, at++, 1);
  }
  for (uint32_t i = 0; i < per_thread; ++i)
    b->add_complete(two_runs, TimeNs{i % (per_thread / 2)} * 2000 + (i < per_thread / 2 ? 0 : 1000),
                    500, name, 0, at++, 1);
  return n;
}

TEST(LoadPeak, FinishAddsAtMostFourBytesPerEventToTheStoreItBuilds) {
  TraceStore s;
  TraceBuilder b(&s);
  const size_t n = add_slices(&b, 40000);
  Heap h = measure([&] { b.finish(); });
  ASSERT_EQ(s.events.size(), n);
  EXPECT_EQ(s.tracks[s.events.track[0]].max_depth, 1u);
  // The layout is the peak: the final columns (depth included) and one buffer of 4 bytes per
  // event the columns are reordered through.
  EXPECT_LE(h.peak, std::max(h.before, h.after) + 4 * n + kSmall)
      << "before " << h.before << " after " << h.after << " peak " << h.peak << " n " << n;
  EXPECT_GE(h.after, h.before + 4 * n) << "the depth column is new";
}

TEST(LoadPeak, ThePyramidAllocatesOnlyTheLevelsItKeeps) {
  TraceStore s;
  TraceBuilder b(&s);
  add_slices(&b, 40000);
  b.finish();
  Pyramid p;
  Heap h = measure([&] { p = build_pyramid(s); });
  ASSERT_FALSE(p.levels.empty());
  EXPECT_LE(h.after, h.before + p.memory_bytes() + kSmall);
  EXPECT_LE(h.peak, h.after + kSmall) << "levels are counted first and built exactly once";
}

void feed(Engine* e, const std::string& name, const std::string& bytes) {
  e->load_begin(name, bytes.size());
  for (size_t off = 0; off < bytes.size(); off += 1 << 20) {  // a 1 MB load buffer
    const size_t n = std::min<size_t>(1 << 20, bytes.size() - off);
    std::memcpy(e->load_buffer(n), bytes.data() + off, n);
    e->load_commit(n);
  }
}

std::string json_slices(int n) {
  std::string t = "{\"traceEvents\":[";
  for (int i = 0; i < n; ++i) {
    if (i) t += ",\n";
    t += "{\"ph\":\"X\",\"name\":\"e" + std::to_string(i % 7) +
         "\",\"pid\":1,\"tid\":" + std::to_string(1 + i % 3) + ",\"ts\":" + std::to_string(i * 10) +
         ",\"dur\":5}";
  }
  return t + "]}";
}

// The load buffer (and a compressed file's decoder) are freed before finish() and the pyramid,
// so for a trace small next to them, the end of the load needs no memory the load did not hold.
TEST(LoadPeak, LoadEndFreesTheLoadBufferFirst) {
  Engine e;
  feed(&e, "slices.json", json_slices(20000));
  Heap h = measure([&] { ASSERT_TRUE(e.load_end()); });
  EXPECT_EQ(e.store()->events.size(), 20000u);
  EXPECT_LE(h.peak, h.before) << "before " << h.before << " peak " << h.peak;
}

TEST(LoadPeak, LoadEndFreesTheDecoderFirst) {
  std::string gz;
  const char* rel =
      "pytorch_kineto/kineto-tb_plugin/resnet50_num_workers_0/"
      "worker0.1623143566756.pt.trace.json.gz";
  if (!testing::read_shared(rel, &gz)) GTEST_SKIP() << rel;
  Engine e;
  feed(&e, "worker0.pt.trace.json.gz", gz);
  Heap h = measure([&] { ASSERT_TRUE(e.load_end()); });
  EXPECT_EQ(e.store()->events.size(), 57506u);
  EXPECT_FALSE(e.store()->flows.from.empty());
  EXPECT_LE(h.peak, h.before) << "before " << h.before << " peak " << h.peak;
}

}  // namespace
}  // namespace strata
