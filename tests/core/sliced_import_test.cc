// The sliced Chrome JSON path (formats/chrome_json/sliced_import.h): a trace cut into N slices,
// each parsed on its own and merged, gives exactly the store of a one-pass load (the digest
// covers every column and table, the strings in id order, and the messages).
#include "core/formats/chrome_json/sliced_import.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/formats/importer.h"
#include "import_test_util.h"
#include "runs_test_util.h"
#include "sliced_test_util.h"

namespace strata::testing {
namespace {

// The rows the analyses read by record offset, and the file's rank, beside the shared figures
// (compared as the side tables' text).
struct Loaded : SlicedLoad {
  std::vector<uint64_t> kernel_offsets, collective_offsets, ascend_task_offsets;
  int64_t rank = -1;
};

std::string side_tables(const TraceStore& s) {
  std::string o;
  for (const KernelLaunch& k : s.kernel_launches.rows) o += std::to_string(k.src_offset) + ',';
  o += '\n';
  for (const CollectiveArgs& c : s.collectives.rows) o += std::to_string(c.src_offset) + ',';
  o += '\n';
  for (const AscendTaskArgs& a : s.ascend_tasks.rows) o += std::to_string(a.src_offset) + ',';
  o += "\nrank " + std::to_string(s.files.empty() ? -2 : s.files[0].rank);
  return o;
}

Loaded summarize(const TraceStore& s, bool failed, std::string failure, uint64_t records) {
  Loaded l;
  static_cast<SlicedLoad&>(l) =
      summarize_load(s, failed, std::move(failure), records, side_tables(s));
  for (const KernelLaunch& k : s.kernel_launches.rows) l.kernel_offsets.push_back(k.src_offset);
  for (const CollectiveArgs& c : s.collectives.rows) l.collective_offsets.push_back(c.src_offset);
  for (const AscendTaskArgs& a : s.ascend_tasks.rows) l.ascend_task_offsets.push_back(a.src_offset);
  l.rank = s.files.empty() ? -2 : s.files[0].rank;
  return l;
}

// The file's entry a load has before its bytes come: it sizes the columns, and a
// distributedInfo rank lands there.
void add_file(TraceStore* store, size_t bytes) { add_source_file(store, "trace.json", bytes); }

Loaded one_pass(std::string_view data) {
  ImportResult r = import_with(
      [&](TraceStore* s) {
        add_file(s, data.size());
        return make_chrome_json_importer(s);
      },
      data, 1 << 16);
  return summarize(*r.store, r.failed, r.failure, r.records);
}

Loaded sliced(std::string_view data, size_t n, SlicedImportStats* st = nullptr) {
  TraceStore store;
  add_file(&store, data.size());
  SlicedImportResult r = import_chrome_json_sliced(&store, data, n, st);
  return summarize(store, r.failed, r.failure, r.records);
}

Loaded cut_at(std::string_view data, const std::vector<uint64_t>& cuts,
              SlicedImportStats* st = nullptr) {
  TraceStore store;
  add_file(&store, data.size());
  SlicedImportResult r = import_chrome_json_at(&store, data, cuts, st);
  return summarize(store, r.failed, r.failure, r.records);
}

void expect_same(const Loaded& a, const Loaded& b, const std::string& what) {
  expect_same_load(a, b, what);
}

// A trace that uses every order-dependent part of the builder, spread so that any cut splits
// them: B/E pairs open in one slice and close in another, flows and async slices across
// slices, metadata (names, sort indices, labels) for processes met earlier and later, counters,
// global and process instants, objects, samples with stack frames, names containing `},{"`,
// escapes, a kernel's launch args, bad records, and top-level members after the events.
std::string generated_trace(uint32_t seed, size_t events, bool object_form) {
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  std::string s = object_form ? "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n" : "[\n";
  std::vector<int> open(8, 0);
  double ts = 1000;
  for (size_t i = 0; i < events; ++i) {
    if (i) s += pick(3) == 0 ? ",\n" : ",";
    ts += 1 + pick(50);
    const int pid = 1 + pick(4), tid = 10 + pick(2);
    const int th = (pid - 1) * 2 + (tid - 10);
    const std::string where = "\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
                              ",\"ts\":" + std::to_string(ts);
    const std::string name = "op" + std::to_string(pick(40));
    switch (pick(16)) {
      case 0:
        s += "{\"ph\":\"B\",\"name\":\"" + name + "\",\"cat\":\"c" + std::to_string(pick(3)) +
             "\"," + where + "}";
        ++open[th];
        break;
      case 1:
        if (open[th]) {
          s += "{\"ph\":\"E\"," + where + "}";
          --open[th];
        } else {
          s += "{\"ph\":\"E\"," + where + "}";  // an unpaired E: dropped, counted
        }
        break;
      case 2:
        s += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(pid) +
             ",\"args\":{\"name\":\"proc " + std::to_string(pick(3)) + "\"}}";
        break;
      case 3:
        s += "{\"ph\":\"M\",\"name\":\"thread_name\"," + where + ",\"args\":{\"name\":\"" +
             (pick(4) ? "thread " + std::to_string(pick(5)) : std::string()) + "\"}}";
        break;
      case 4:
        s += "{\"ph\":\"M\",\"name\":\"" +
             std::string(pick(2) ? "process_sort_index" : "thread_sort_index") + "\"," + where +
             ",\"args\":{\"sort_index\":" + std::to_string(pick(9) - 4) + "}}";
        break;
      case 5:
        s += "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":" + std::to_string(pid) +
             ",\"args\":{\"labels\":\"l" + std::to_string(pick(3)) + ", l" +
             std::to_string(pick(3)) + "\"}}";
        break;
      case 6: {
        const std::string id = std::to_string(pick(30));
        s += "{\"ph\":\"" + std::string(pick(2) ? "s" : "f") +
             "\",\"name\":\"flow\",\"cat\":\"ac2g\",\"id\":" + id + "," + where +
             (pick(2) ? ",\"bp\":\"e\"" : "") + "}";
        break;
      }
      case 7: {
        const char* ph[] = {"b", "e", "n"};
        s += "{\"ph\":\"" + std::string(ph[pick(3)]) + "\",\"name\":\"async " +
             std::to_string(pick(3)) + "\",\"cat\":\"a\",\"id\":\"0x" + std::to_string(pick(6)) +
             "\"," + where + "}";
        break;
      }
      case 8:
        s += "{\"ph\":\"C\",\"name\":\"mem" + std::to_string(pick(2)) + "\"," + where +
             ",\"args\":{\"Allocated (MB)\":" + std::to_string(pick(100)) +
             ",\"other\":" + std::to_string(pick(7)) + "}}";
        break;
      case 9:
        s += "{\"ph\":\"i\",\"name\":\"mark " + std::to_string(pick(4)) + "\",\"s\":\"" +
             std::string(pick(2) ? "g" : "p") + "\"," + where + "}";
        break;
      case 10: {
        const char* ph[] = {"N", "O", "D"};
        s += "{\"ph\":\"" + std::string(ph[pick(3)]) + "\",\"name\":\"Obj\",\"id\":\"" +
             std::to_string(pick(4)) + "\"," + where + "}";
        break;
      }
      case 11:
        s += "{\"ph\":\"P\",\"name\":\"cycles\",\"sf\":" + std::to_string(1 + pick(3)) + "," +
             where + "}";
        break;
      case 12:  // a name that looks like an event boundary, and escapes
        s += "{\"ph\":\"X\",\"name\":\"tricky },{\\\"ph\\\":\\\"X\\\"} \\\\ \\u00e9 " +
             std::to_string(pick(3)) + "\",\"dur\":5," + where + "}";
        break;
      case 13:
        s += "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_AllReduce\",\"dur\":" +
             std::to_string(1 + pick(9)) + "," + where +
             ",\"args\":{\"grid\":[4,1,1],\"block\":[128,1,1],\"Collective name\":\"allreduce\","
             "\"In msg nelems\":" +
             std::to_string(pick(1000)) + "}}";
        break;
      case 14:
        if (pick(8) == 0)
          s += "{\"ph\":\"X\",\"name\":\"no ts\",\"pid\":1,\"tid\":10}";  // skipped, counted
        else
          s += "{\"ph\":\"" + std::string(pick(2) ? "Z" : "X") + "\",\"name\":\"" + name + "\"," +
               where + "}";
        break;
      default:
        s += "{\"ph\":\"X\",\"name\":\"" + name +
             "\",\"cat\":\"cpu_op\",\"dur\":" + std::to_string(pick(40)) + "," + where + "}";
        break;
    }
  }
  if (!object_form) return s + "\n]\n";
  s += "\n],\"stackFrames\":{\"1\":{\"name\":\"main\"},\"2\":{\"name\":\"f\",\"parent\":1},"
       "\"3\":{\"name\":\"g\",\"parent\":2}},\"distributedInfo\":{\"rank\":3},"
       "\"displayTimeUnit\":\"ms\"}";
  return s;
}

// Offsets of the '{' of every traceEvents element (the file's records, as the importer sees
// them), found independently: a plain JSON walk that tracks strings and depth.
std::vector<uint64_t> event_starts(std::string_view d) {
  std::vector<uint64_t> out;
  int depth = 0;
  bool in_str = false, esc = false;
  const int event_depth = chrome_json_object_form(d) ? 2 : 1;
  for (size_t i = 0; i < d.size(); ++i) {
    const char c = d[i];
    if (in_str) {
      if (esc)
        esc = false;
      else if (c == '\\')
        esc = true;
      else if (c == '"')
        in_str = false;
      continue;
    }
    if (c == '"') {
      in_str = true;
    } else if (c == '{' || c == '[') {
      if (c == '{' && depth == event_depth) out.push_back(i);
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
      if (depth < event_depth) break;  // the events array is over
    }
  }
  return out;
}

TEST(SlicedImport, GeneratedTracesGiveTheOnePassStoreForOneToFourSlices) {
  for (bool object_form : {true, false}) {
    for (uint32_t seed : {1u, 2u, 3u}) {
      const std::string t = generated_trace(seed, 3000, object_form);
      const Loaded ref = one_pass(t);
      ASSERT_FALSE(ref.failed) << ref.failure;
      ASSERT_GT(ref.records, 2900u);
      EXPECT_EQ(ref.rank, object_form ? 3 : -1);  // distributedInfo comes after the events
      EXPECT_FALSE(ref.kernel_offsets.empty());
      EXPECT_FALSE(ref.collective_offsets.empty());
      for (size_t n = 1; n <= 4; ++n) {
        SlicedImportStats st;
        const Loaded got = sliced(t, n, &st);
        EXPECT_EQ(st.cuts.size(), n - 1);
        expect_same(ref, got,
                    "seed " + std::to_string(seed) + ", " + std::to_string(n) +
                        " slices, object form " + std::to_string(object_form));
      }
    }
  }
}

// What a worker does: its slice arrives in chunks (any size, records split between them), and
// the engine absorbs the slices in file order.
TEST(SlicedImport, SlicesFedInSmallChunksMergeExactly) {
  const std::string t = generated_trace(11, 4000, true);
  const Loaded ref = one_pass(t);
  const std::vector<uint64_t> cuts = chrome_json_cut_points(t, 3);
  ASSERT_EQ(cuts.size(), 2u);
  const std::vector<uint64_t> bounds = {0, cuts[0], cuts[1], t.size()};
  auto* bytes = reinterpret_cast<const uint8_t*>(t.data());
  for (size_t chunk : {size_t{1} << 12, size_t{997}}) {
    TraceStore store;
    add_file(&store, t.size());
    std::vector<std::unique_ptr<ChromeJsonSlice>> parts;
    for (size_t i = 0; i < 3; ++i) {
      parts.push_back(i == 0 ? ChromeJsonSlice::first(&store)
                             : ChromeJsonSlice::later(bounds[i], chrome_json_object_form(t)));
      for (uint64_t at = bounds[i]; at < bounds[i + 1]; at += chunk)
        parts[i]->feed(bytes + at, std::min<uint64_t>(chunk, bounds[i + 1] - at));
    }
    for (size_t i = 1; i < 3; ++i) {
      ASSERT_TRUE(parts[0]->ends_at_event_boundary());
      parts[0]->absorb(*parts[i]);
    }
    Importer& imp = parts[0]->importer();
    imp.finish();
    expect_same(ref, summarize(store, imp.failed(), imp.failure(), imp.records()),
                "chunks of " + std::to_string(chunk));
  }
}

TEST(SlicedImport, EveryEventBoundaryIsAnExactCut) {
  const std::string t = generated_trace(7, 400, true);
  const Loaded ref = one_pass(t);
  const std::vector<uint64_t> starts = event_starts(t);
  ASSERT_GT(starts.size(), 390u);
  SlicedImportStats st;
  for (size_t i = 1; i < starts.size(); ++i) {
    expect_same(ref, cut_at(t, {starts[i]}, &st), "cut at event " + std::to_string(i));
    EXPECT_EQ(st.refused, 0u);
  }
  // Three cuts at once, a prime stride apart.
  for (size_t i = 1; i + 2 * 37 < starts.size(); i += 13)
    expect_same(ref, cut_at(t, {starts[i], starts[i + 37], starts[i + 74]}), "three cuts");
}

TEST(SlicedImport, ACutInsideAStringThatLooksLikeABoundaryIsRefusedAndStillExact) {
  // Every name ends with `},{` and its closing quote: "}" "," "{" '"' is what the cut scan
  // looks for, so it is fooled inside every string.
  std::string t = "{\"traceEvents\":[";
  size_t fake = 0;
  for (int i = 0; i < 2000; ++i) {
    if (i) t += ",";
    t += "{\"ph\":\"X\",\"ts\":" + std::to_string(i * 10) +
         ",\"dur\":3,\"pid\":1,\"tid\":1,\"name\":\"a " + std::to_string(i % 7) + " },";
    if (i == 1000) fake = t.size();
    t += "{\"}";
  }
  t += "]}";
  const Loaded ref = one_pass(t);
  ASSERT_EQ(ref.records, 2000u);
  ASSERT_EQ(t[fake], '{');
  SlicedImportStats st;
  expect_same(ref, cut_at(t, {fake}, &st), "cut inside a string");
  EXPECT_EQ(st.refused, 1u);
  // The scan's own cuts, in names or between events, whichever comes first after an offset.
  for (size_t n = 2; n <= 4; ++n) expect_same(ref, sliced(t, n), std::to_string(n) + " slices");
}

TEST(SlicedImport, CutsOutsideTheEventArrayAreRefused) {
  const std::string t = generated_trace(5, 300, true);
  const Loaded ref = one_pass(t);
  const size_t frames = t.find("\"stackFrames\"");
  ASSERT_NE(frames, std::string::npos);
  SlicedImportStats st;
  expect_same(ref, cut_at(t, {5, frames + 20}, &st), "cuts in the head and in stackFrames");
  EXPECT_EQ(st.refused, 2u);
}

TEST(SlicedImport, ATruncatedFileGivesTheOnePassMessages) {
  const std::string full = generated_trace(9, 2000, true);
  for (size_t cut_off : {full.size() / 2 + 7, full.size() - 40, full.size() - 1}) {
    const std::string t = full.substr(0, cut_off);
    const Loaded ref = one_pass(t);
    for (size_t n = 2; n <= 4; ++n)
      expect_same(ref, sliced(t, n), "cut off at " + std::to_string(cut_off));
  }
  // Cut off inside the first event: nothing loaded, the same failure.
  const std::string head = full.substr(0, full.find("\"ph\"") + 3);
  const Loaded ref = one_pass(head);
  EXPECT_TRUE(ref.failed);
  expect_same(ref, sliced(head, 3), "cut off in the first event");
}

TEST(SlicedImport, RealTracesGiveTheOnePassStore) {
  const char* files[] = {
      "pytorch_kineto/kineto-tb_plugin/resnet50_num_workers_0/"
      "worker0.1623143566756.pt.trace.json.gz",
      "pytorch_kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz",
      "pytorch_kineto/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
      "pytorch_kineto/hta/trace_filter/sampled_rank-0.json.gz",
      "pytorch_kineto/hta/trace_filter/sampled_rank-1.json.gz",
      "pytorch_kineto/hta/critical_path/event_sync_trace.json.gz",
      "pytorch_kineto/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
      "pytorch_kineto/hta/nccl_parser_config/nccl_data.json.gz",
      "chrome_trace/catapult/big_trace.json",
      "chrome_trace/catapult/nestable_async.json",
      "chrome_trace/catapult/flow.json",
      "chrome_trace/xprof-tf_trace_viewer/trace.json",
      "ascend/msinsight/text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
  };
  size_t found = 0;
  for (const char* rel : files) {
    std::string t;
    if (!read_shared_text(rel, &t)) continue;
    ++found;
    const Loaded ref = one_pass(t);
    // The Ascend trace's device tasks keep their types: they must survive the merge too.
    if (std::string_view(rel).starts_with("ascend/")) {
      EXPECT_FALSE(ref.ascend_task_offsets.empty());
    }
    for (size_t n = 1; n <= 4; ++n) {
      SlicedImportStats st;
      const Loaded got = sliced(t, n, &st);
      expect_same(ref, got, std::string(rel) + ", " + std::to_string(n) + " slices");
      if (t.size() > (1u << 20)) {
        EXPECT_EQ(st.cuts.size(), n - 1) << rel;
      }
    }
  }
  if (found == 0) GTEST_SKIP() << "../shared/data is absent";
}

// What the browser does with a later slice: parsed in a slice worker, encoded into bytes
// (store/slice_codec.h), sent, decoded in the engine worker and absorbed there. A refused cut's
// bytes are read by the head itself, as in import_chrome_json_at.
Loaded through_codec(std::string_view t, const std::vector<uint64_t>& cuts, size_t* refused,
                     size_t chunk = 1 << 16) {
  TraceStore store;
  add_file(&store, t.size());
  std::vector<uint64_t> bounds = {0};
  bounds.insert(bounds.end(), cuts.begin(), cuts.end());
  bounds.push_back(t.size());
  auto* bytes = reinterpret_cast<const uint8_t*>(t.data());
  auto feed = [&](ChromeJsonSlice& s, size_t i) {
    for (uint64_t at = bounds[i]; at < bounds[i + 1]; at += chunk)
      s.feed(bytes + at, std::min<uint64_t>(chunk, bounds[i + 1] - at));
  };
  std::unique_ptr<ChromeJsonSlice> head = ChromeJsonSlice::first(&store);
  feed(*head, 0);
  *refused = 0;
  for (size_t i = 1; i + 1 < bounds.size(); ++i) {
    std::vector<uint8_t> wire;
    {
      std::unique_ptr<ChromeJsonSlice> part =
          ChromeJsonSlice::later(bounds[i], chrome_json_object_form(t.substr(0, 64)));
      feed(*part, i);
      wire = part->encode();
    }
    std::unique_ptr<ChromeJsonSlice> got = ChromeJsonSlice::decode(wire.data(), wire.size());
    EXPECT_TRUE(got != nullptr);
    if (head->ends_at_event_boundary() && got) {
      head->absorb(*got);
    } else {
      ++*refused;
      feed(*head, i);
    }
  }
  Importer& imp = head->importer();
  imp.finish();
  return summarize(store, imp.failed(), imp.failure(), imp.records());
}

TEST(SliceCodec, EncodedSlicesAbsorbAsTheSlicesThemselves) {
  for (bool object_form : {true, false}) {
    for (uint32_t seed : {1u, 4u}) {
      const std::string t = generated_trace(seed, 3000, object_form);
      for (size_t n = 2; n <= 4; ++n) {
        const std::vector<uint64_t> cuts = chrome_json_cut_points(t, n);
        ASSERT_EQ(cuts.size(), n - 1);
        SlicedImportStats st;
        const Loaded direct = cut_at(t, cuts, &st);
        size_t refused = 0;
        const std::string what = "seed " + std::to_string(seed) + ", " + std::to_string(n) +
                                 " slices, object form " + std::to_string(object_form);
        expect_same(direct, through_codec(t, cuts, &refused, 997), what);
        EXPECT_EQ(refused, st.refused) << what;
        expect_same(one_pass(t), direct, what);
      }
    }
  }
}

TEST(SliceCodec, ARefusedCutAndATruncatedFileStayExact) {
  std::string t = "{\"traceEvents\":[";
  size_t fake = 0;
  for (int i = 0; i < 500; ++i) {
    if (i) t += ",";
    t += "{\"ph\":\"X\",\"ts\":" + std::to_string(i * 10) +
         ",\"dur\":3,\"pid\":1,\"tid\":1,\"name\":\"a},";
    if (i == 250) fake = t.size();
    t += "{\\\"x\"}";  // "name":"a},{\"x": the cut below is inside this name
  }
  t += "]}";
  const Loaded ref = one_pass(t);
  ASSERT_EQ(ref.records, 500u);
  ASSERT_EQ(t[fake], '{');
  size_t refused = 0;
  expect_same(ref, through_codec(t, {fake}, &refused), "cut inside a string");
  EXPECT_EQ(refused, 1u);

  const std::string full = generated_trace(9, 2000, true);
  const std::string cut_off = full.substr(0, full.size() / 2 + 7);
  expect_same(one_pass(cut_off),
              through_codec(cut_off, chrome_json_cut_points(cut_off, 3), &refused), "cut off");
}

TEST(SliceCodec, AShortOrForeignBufferIsRefused) {
  const std::string t = generated_trace(3, 300, true);
  const std::vector<uint64_t> cuts = chrome_json_cut_points(t, 2);
  ASSERT_EQ(cuts.size(), 1u);
  std::unique_ptr<ChromeJsonSlice> part = ChromeJsonSlice::later(cuts[0], true);
  part->feed(reinterpret_cast<const uint8_t*>(t.data()) + cuts[0], t.size() - cuts[0]);
  const std::vector<uint8_t> wire = part->encode();
  ASSERT_TRUE(ChromeJsonSlice::decode(wire.data(), wire.size()) != nullptr);
  for (size_t n : {size_t{0}, size_t{3}, size_t{100}, wire.size() / 2, wire.size() - 1})
    EXPECT_TRUE(ChromeJsonSlice::decode(wire.data(), n) == nullptr) << n << " of " << wire.size();
  std::vector<uint8_t> longer = wire;
  longer.push_back(0);
  EXPECT_TRUE(ChromeJsonSlice::decode(longer.data(), longer.size()) == nullptr);
  const std::string text = "not a slice at all";
  EXPECT_TRUE(ChromeJsonSlice::decode(reinterpret_cast<const uint8_t*>(text.data()), text.size()) ==
              nullptr);
}

TEST(SliceCodec, RealTracesThroughTheCodecGiveTheOnePassStore) {
  const char* files[] = {
      "pytorch_kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz",
      "pytorch_kineto/hta/nccl_parser_config/nccl_data.json.gz",
      "chrome_trace/catapult/big_trace.json",
      "chrome_trace/catapult/nestable_async.json",
      "ascend/msinsight/text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
  };
  size_t found = 0;
  for (const char* rel : files) {
    std::string t;
    if (!read_shared_text(rel, &t)) continue;
    ++found;
    const Loaded ref = one_pass(t);
    for (size_t n : {2, 3}) {
      size_t refused = 0;
      expect_same(ref, through_codec(t, chrome_json_cut_points(t, n), &refused),
                  std::string(rel) + ", " + std::to_string(n) + " slices");
    }
  }
  if (found == 0) GTEST_SKIP() << "../shared/data is absent";
}

}  // namespace
}  // namespace strata::testing
