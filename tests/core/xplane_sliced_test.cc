// The sliced XSpace path (formats/xplane/xplane_sliced.h): an XSpace cut between top-level
// fields into N slices, each parsed on its own and merged, gives exactly the store of a
// one-pass load (store_digest: every column and table, strings in id order, pids, messages) and
// the same XSpaceTables (the details pane's) and plane summaries; on the real xplanes of
// ../shared/data, on generated ones that carry state across the cut (host planes and thread
// pools, flows, a repeated plane name), and on cut-off and corrupted files.
#include "core/formats/xplane/xplane_sliced.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/formats/xplane/xplane_importer.h"
#include "core/formats/xplane/xplane_layout.h"
#include "core/formats/xplane/xplane_tables.h"
#include "sliced_test_util.h"
#include "xplane_test_util.h"

namespace strata::testing {
namespace {

const char* const kRealFiles[] = {
    "xplane/xprof/34.83.195.179_6003.xplane.pb",
    "xplane/xprof/tpu_inference_2.xplane.pb",  // corrupt upstream
    "xplane/tracelens/jax08_gemm/tw003.xplane.pb",
    "xplane/tracelens/jax_conv_minimal_08/tw003.xplane.pb",
    "xplane/tracelens/jax_conv_minimal_legacy/chi-mi300x-013.ord.vultr.cpe.ice.amd.com.xplane.pb",
    "xplane/tracelens/jax_te_fused_attn/934987a2fc2f.xplane.pb",
};

// Everything beside the digest a load leaves: the xspace tables, by text (ids as strings).
std::string tables_text(const TraceStore& s) {
  std::string o;
  auto str = [&](StrId id) {
    o += id == kNone ? std::string("<none>") : std::string(s.strings.get(id));
    o += '|';
  };
  auto num = [&](uint64_t v) { o += std::to_string(v) + '|'; };
  for (const SourcePlane& p : s.planes) {
    o += p.name + ':';
    for (const auto& l : p.lines) o += l.name + '=' + std::to_string(l.events) + ',';
    o += '\n';
  }
  if (!s.xspace) return o + "no tables";
  const XSpaceTables& t = *s.xspace;
  for (const XPlaneTables& p : t.planes) {
    o += p.name + '#' + std::to_string(p.id) + '\n';
    for (const auto& [id, name] : p.stat_names.items) num(id), str(name);
    for (const auto& [id, m] : p.event_meta.items)
      num(id), str(m.name), str(m.display), num(m.stats_at), num(m.stats_len);
    num(p.plane_stats_at), num(p.plane_stats_len);
    o += p.stats + '\n';
  }
  for (const std::string& h : t.hostnames) o += h + '\n';
  for (const HloProtoSpan& h : t.hlo_protos)
    num(h.program_id), o += h.module, num(h.src_offset), num(h.src_len);
  std::vector<std::string> ops;
  for (const auto& [program, texts] : t.hlo_ops.by_program)
    for (const auto& [instr, text] : texts)
      ops.push_back(std::to_string(program) + instr + text.expression + text.category +
                    text.op_name + text.source + std::to_string(text.fused.size()));
  for (const auto& [module, program] : t.hlo_ops.program_of_module)
    ops.push_back(module + std::to_string(program));
  std::sort(ops.begin(), ops.end());
  for (const std::string& op : ops) o += op + '\n';
  for (uint32_t p : t.plane_of_process) num(p);
  for (uint8_t d : t.derived_track) num(d);
  for (const auto& [offset, name] : t.full_names) num(offset), str(name);
  return o;
}

// ../shared/data beside the checkout, else $STRATA_SHARED_DATA (a worktree elsewhere).
bool read_real(const std::string& rel, std::string* out) {
  if (read_shared(rel, out)) return true;
  const char* dir = std::getenv("STRATA_SHARED_DATA");
  return dir && read_file(std::string(dir) + "/" + rel, out);
}

using Loaded = SlicedLoad;

void add_file(TraceStore* store, size_t bytes) {
  add_source_file(store, "t.xplane.pb", bytes, "none");
}

Loaded summarize(const TraceStore& s, bool failed, std::string failure, uint64_t records) {
  return summarize_load(s, failed, std::move(failure), records, tables_text(s));
}

Loaded one_pass(std::string_view data) {
  ImportResult r = import_with(
      [&](TraceStore* s) {
        add_file(s, data.size());
        return make_xplane_importer(s);
      },
      data, 1 << 16);
  return summarize(*r.store, r.failed, r.failure, r.records);
}

Loaded sliced(std::string_view data, size_t n, SlicedImportStats* st = nullptr) {
  TraceStore store;
  add_file(&store, data.size());
  SlicedImportResult r = import_xspace_sliced(&store, data, n, st);
  return summarize(store, r.failed, r.failure, r.records);
}

Loaded cut_at(std::string_view data, const std::vector<uint64_t>& cuts,
              SlicedImportStats* st = nullptr) {
  TraceStore store;
  add_file(&store, data.size());
  SlicedImportResult r = import_xspace_at(&store, data, cuts, st);
  return summarize(store, r.failed, r.failure, r.records);
}

// A slice's bytes as the sliced driver reads them: its whole fields, then its part of a cut plane.
void read_spec(XSpaceSlice* to, std::string_view data, const XSpaceSliceSpec& s) {
  auto* bytes = reinterpret_cast<const uint8_t*>(data.data());
  to->feed(bytes + s.begin, s.fields_end - s.begin);
  if (s.has_part) to->plane_part(bytes + s.part.body, s.part, s.end);
}

// As the browser does: each later slice encoded by its worker, decoded by the engine worker.
Loaded through_codec(std::string_view data, const std::vector<uint64_t>& cuts) {
  TraceStore store;
  add_file(&store, data.size());
  auto* bytes = reinterpret_cast<const uint8_t*>(data.data());
  const std::vector<XSpaceSliceSpec> specs = xspace_slice_specs(data, cuts);
  std::unique_ptr<XSpaceSlice> head = XSpaceSlice::first(&store);
  read_spec(head.get(), data, specs[0]);
  for (size_t i = 1; i < specs.size(); ++i) {
    const XSpaceSliceSpec& sp = specs[i];
    std::unique_ptr<XSpaceSlice> part = XSpaceSlice::later(sp);
    for (const auto& [at, len] : sp.context) part->context(bytes + at, len, at);
    read_spec(part.get(), data, sp);
    const std::vector<uint8_t> buf = part->encode();
    part.reset();
    std::unique_ptr<XSpaceSlice> back = XSpaceSlice::decode(buf.data(), buf.size());
    EXPECT_TRUE(back != nullptr);
    if (back && head->can_absorb(*back))
      head->absorb(*back);
    else
      read_spec(head.get(), data, sp);
  }
  Importer& imp = head->importer();
  imp.finish();
  return summarize(store, imp.failed(), imp.failure(), imp.records());
}

void expect_same(const Loaded& a, const Loaded& b, const std::string& what) {
  expect_same_load(a, b, what);
}

// Every top-level field start after the first: the finest cut there is.
std::vector<uint64_t> every_field(std::string_view data) {
  return xspace_cut_points(data, 1 << 20, false);
}

// An XSpace whose later planes depend on earlier ones: a metadata plane, two host planes with
// thread pools (host pids count the host planes and pools before), GPU planes whose kernels
// the host launches (correlation-id flows across planes), counters, a profiler message.
pb::XSpace state_across_planes(int gpus, int events) {
  pb::XSpace space;
  {
    PlaneWriter meta(&space, "/host:metadata");
    meta.meta("jit_f(1)");
  }
  for (int h = 0; h < 2; ++h) {
    PlaneWriter host(&space, h == 0 ? "/host:CPU" : "/host:CPU:1", 0);
    for (int t = 0; t < 3; ++t) {
      pb::XLine* l = host.line(
          100 + t, std::string(h ? "pool_b" : "pool_a") + "/" + std::to_string(10 + t), 1000000);
      for (int e = 0; e < events; ++e) {
        pb::XEvent* ev = host.event(l, "launch" + std::to_string(e % 7), e * 10000, 5000);
        host.stat_uint(ev, "correlation_id", static_cast<uint64_t>(h * 100000 + t * 1000 + e));
      }
    }
    pb::XLine* py = host.line(7, "python", 1000000);
    host.event(py, "step", 0, 90000000);
  }
  for (int g = 0; g < gpus; ++g) {
    PlaneWriter gpu(&space, "/device:GPU:" + std::to_string(g), g + 1);
    pb::XLine* s = gpu.line(1, "Stream #1", 1000000);
    for (int e = 0; e < events; ++e) {
      pb::XEvent* ev = gpu.event(s, "kernel" + std::to_string(e % 5), e * 10000 + 2000, 3000);
      gpu.stat_uint(ev, "correlation_id", static_cast<uint64_t>(g * 1000 + e));
      gpu.stat_str(ev, "kernel_details", "regs:32 grid:1,1,1 block:128,1,1");
      gpu.stat_int(ev, "group_id", e / 10);
    }
    pb::XLine* c = gpu.line(2, "_counters_", 1000000);
    for (int e = 0; e < 4; ++e) gpu.stat_int(gpu.event(c, "memory", e * 1000, 0), "bytes", e * 7);
  }
  space.add_warnings("a warning between planes");
  space.add_hostnames("host-a");
  return space;
}

// An XSpace with one plane much bigger than the others, of `kind`: a GPU plane of many
// streams (the busiest, which the derived XLA rows come from, is past the middle; Steps from
// group ids; kernels launched from the host), a TPU TensorCore plane whose ops carry framework
// ops and source lines (derived rows), or a host plane whose threads form pools across its
// lines (pool sections, one of a single thread that stays in the plane's section).
pb::XSpace one_big_plane(PlaneKind kind, int lines, int events) {
  pb::XSpace space;
  {
    PlaneWriter meta(&space, "/host:metadata");
    meta.meta("jit_f(1)");
  }
  {
    PlaneWriter host(&space, "/host:CPU", 0);
    pb::XLine* l = host.line(5, "pool_small/1", 1000000);
    for (int e = 0; e < 20; ++e) {
      pb::XEvent* ev = host.event(l, "launch", e * 10000, 5000);
      host.stat_uint(ev, "correlation_id", static_cast<uint64_t>(e));
    }
  }
  const bool gpu = kind == PlaneKind::kGpu, tpu = kind == PlaneKind::kTpu;
  PlaneWriter big(&space, gpu ? "/device:GPU:0" : tpu ? "/device:TPU:0" : "/host:CPU:1", 1);
  for (int k = 0; k < lines; ++k) {
    // Streams of different sizes: the busiest is line lines * 2 / 3.
    const int n = k == lines * 2 / 3 ? events * 2 : events - k % 5;
    const std::string name =
        gpu   ? "Stream #" + std::to_string(k + 1)
        : tpu ? (k == 0 ? std::string("XLA Ops") : "XLA Ops " + std::to_string(k))
              : (k % 3 == 2
                     ? std::string("python") + std::to_string(k)
                     : "pool_" + std::string(k % 3 ? "b" : "a") + "/" + std::to_string(100 + k));
    pb::XLine* l = big.line(10 + k, name, 1000000 + k);
    for (int e = 0; e < n; ++e) {
      pb::XEvent* ev = big.event(l, "op" + std::to_string((e + k) % 9), e * 10000, 3000 + e % 7);
      if (gpu) {
        big.stat_uint(ev, "correlation_id", static_cast<uint64_t>(e % 20));
        big.stat_str(ev, "kernel_details", "regs:32 grid:1,1,1 block:128,1,1");
        big.stat_int(ev, "group_id", e / 25);
        big.stat_str(ev, "hlo_module", "jit_f");
        big.stat_str(ev, "hlo_op", "fusion." + std::to_string(e / 3 % 11 + k));
        big.stat_uint(ev, "program_id", 1);
      } else if (tpu) {
        big.stat_str(ev, "tf_op", "jit(f)/scope" + std::to_string(e / 40 % 3) + "/dot_general");
        big.stat_str(ev, "source", "model.py:" + std::to_string(e / 30 + k));
      } else {
        big.stat_str(ev, "step_name", "s" + std::to_string(e / 50 + k));
      }
    }
  }
  if (gpu) {
    pb::XLine* c = big.line(2, "_counters_", 1000000);
    for (int e = 0; e < 4; ++e) big.stat_int(big.event(c, "memory", e * 1000, 0), "bytes", e * 7);
  }
  {
    PlaneWriter after(&space, "/device:GPU:1", 2);
    pb::XLine* l = after.line(1, "Stream #1", 1000000);
    for (int e = 0; e < 30; ++e) after.event(l, "kernel", e * 10000, 3000);
  }
  space.add_hostnames("host-a");
  return space;
}

bool split_a_plane(std::string_view data, const std::vector<uint64_t>& cuts) {
  for (const XSpaceSliceSpec& s : xspace_slice_specs(data, cuts))
    if (s.has_part && s.part.lo > 0) return true;
  return false;
}

TEST(XSpaceSlicedLines, ABigPlaneCutAtItsLinesGivesTheOnePassStore) {
  for (PlaneKind kind : {PlaneKind::kGpu, PlaneKind::kTpu, PlaneKind::kHost}) {
    const std::string what = kind == PlaneKind::kGpu   ? "gpu"
                             : kind == PlaneKind::kTpu ? "tpu"
                                                       : "host";
    const std::string data = serialize(one_big_plane(kind, 12, 150));
    const Loaded one = one_pass(data);
    ASSERT_GT(one.events, 1500u) << what;
    EXPECT_TRUE(one.errors.empty()) << what;
    for (size_t n : {2, 3, 4, 7}) {
      SlicedImportStats st;
      expect_same(sliced(data, n, &st), one, what + " n=" + std::to_string(n));
      EXPECT_TRUE(split_a_plane(data, st.cuts)) << what << " n=" << n;
      EXPECT_EQ(st.refused, 0u) << what << " n=" << n;
      expect_same(through_codec(data, st.cuts), one, what + " codec n=" + std::to_string(n));
      // Between planes only, as before.
      SlicedImportStats planes;
      TraceStore store;
      add_file(&store, data.size());
      import_xspace_sliced(&store, data, n, &planes, nullptr, false);
      EXPECT_FALSE(split_a_plane(data, planes.cuts)) << what;
    }
    // Every line of the big plane a slice of its own.
    std::vector<uint64_t> every = xspace_cut_points(data, 1 << 20);
    SlicedImportStats st;
    expect_same(cut_at(data, every, &st), one, what + " every line");
    EXPECT_TRUE(split_a_plane(data, every)) << what;
    EXPECT_EQ(st.refused, 0u) << what;
    expect_same(through_codec(data, every), one, what + " codec, every line");
  }
}

TEST(XSpaceSlicedLines, DamagedLinesAndATruncatedFileStayExact) {
  const std::string base = serialize(one_big_plane(PlaneKind::kGpu, 10, 120));
  std::mt19937 rng(7);
  for (int trial = 0; trial < 10; ++trial) {
    std::string data = base;
    for (int k = 0; k < 1 + trial % 3; ++k)
      data[data.size() / 5 + rng() % (data.size() * 3 / 5)] = static_cast<char>(rng() & 0xff);
    const Loaded one = one_pass(data);
    for (size_t n : {2, 4})
      expect_same(sliced(data, n), one,
                  "trial " + std::to_string(trial) + " n=" + std::to_string(n));
  }
  for (size_t k = 1; k < 8; ++k) {
    const std::string data = base.substr(0, base.size() * k / 8 + k);
    expect_same(sliced(data, 3), one_pass(data), "cut at " + std::to_string(data.size()));
  }
}

TEST(XSpaceSliced, RealFilesGiveTheOnePassStoreAndTables) {
  int found = 0, split = 0;
  for (const char* rel : kRealFiles) {
    std::string data;
    if (!read_real(rel, &data)) continue;
    ++found;
    const Loaded one = one_pass(data);
    if (std::string(rel).find("tpu_inference") == std::string::npos) {
      EXPECT_GT(one.events, 0u) << rel;
    }
    for (size_t n : {2, 3, 4, 8}) {
      SlicedImportStats st;
      expect_same(sliced(data, n, &st), one, std::string(rel) + " n=" + std::to_string(n));
      if (split_a_plane(data, st.cuts)) ++split;
      if (!one.failed) {
        EXPECT_GE(st.cuts.size(), 1u) << rel;  // several planes
      }
      if (!one.failed) {
        EXPECT_EQ(st.refused, 0u) << rel;
      }
    }
    SlicedImportStats st;
    expect_same(cut_at(data, every_field(data), &st), one, std::string(rel) + " every field");
    if (!one.failed) {
      EXPECT_EQ(st.refused, 0u) << rel;
    }
  }
  if (found == 0) GTEST_SKIP() << "../shared/data is absent";
  EXPECT_GT(split, 0) << "the largest planes (host planes of 54-73%) are cut at their lines";
}

TEST(XSpaceSliced, HostPlanesPoolsAndFlowsAcrossCutsGiveTheOnePassStore) {
  const std::string data = serialize(state_across_planes(3, 200));
  const Loaded one = one_pass(data);
  ASSERT_GT(one.events, 1800u);
  // The second host plane's sections are numbered after the first's: 701, 702 + pools.
  TraceStore ref;
  add_file(&ref, data.size());
  import_xspace_at(&ref, data, {});
  std::vector<int64_t> host_pids;
  for (const Process& p : ref.processes)
    if (p.pid > 700 && p.pid < 1000) host_pids.push_back(p.pid);
  std::sort(host_pids.begin(), host_pids.end());
  EXPECT_EQ(host_pids, (std::vector<int64_t>{701, 702, 702, 703})) << "two hosts, a pool each";
  EXPECT_GT(ref.flows.from.size(), 0u);
  for (size_t n = 2; n <= 6; ++n) {
    SlicedImportStats st;
    expect_same(sliced(data, n, &st), one, "n=" + std::to_string(n));
    EXPECT_EQ(st.refused, 0u);
  }
  SlicedImportStats st;
  const std::vector<uint64_t> all = every_field(data);
  EXPECT_EQ(all.size(), 7u);  // 6 planes, a warning, a hostname: 8 fields
  expect_same(cut_at(data, all, &st), one, "every field");
  EXPECT_EQ(st.refused, 0u);
}

TEST(XSpaceSliced, APlaneNameRepeatedAcrossACutIsRefusedAndStillExact) {
  pb::XSpace space = state_across_planes(2, 50);
  *space.add_planes() = space.planes(3);  // "/device:GPU:0" again: one pass names it "#2"
  const std::string data = serialize(space);
  const Loaded one = one_pass(data);
  SlicedImportStats st;
  expect_same(cut_at(data, every_field(data), &st), one, "every field");
  EXPECT_EQ(st.refused, 1u);
}

TEST(XSpaceSliced, CutsThatAreNotFieldBoundariesAreRefusedAndStillExact) {
  const std::string data = serialize(state_across_planes(2, 100));
  const Loaded one = one_pass(data);
  std::vector<uint64_t> cuts;
  for (uint64_t at = 1; at < data.size(); at += data.size() / 9 + 13) cuts.push_back(at);
  SlicedImportStats st;
  expect_same(cut_at(data, cuts, &st), one, "arbitrary cuts");
  EXPECT_GT(st.refused, 0u);
}

TEST(XSpaceSliced, ACutOffFileGivesTheOnePassMessages) {
  std::string full;
  if (!read_real(kRealFiles[2], &full)) full = serialize(state_across_planes(3, 100));
  for (size_t k = 1; k < 12; ++k) {
    const std::string data = full.substr(0, full.size() * k / 12 + k);
    const Loaded one = one_pass(data);
    for (size_t n : {2, 3, 5})
      expect_same(sliced(data, n), one, "cut at " + std::to_string(data.size()));
    expect_same(cut_at(data, every_field(data)), one,
                "every field, cut at " + std::to_string(data.size()));
  }
}

TEST(XSpaceSliced, CorruptBytesGiveTheOnePassStoreWithoutACrash) {
  std::string base;
  if (!read_real(kRealFiles[4], &base)) base = serialize(state_across_planes(3, 100));
  std::mt19937 rng(25);
  for (int trial = 0; trial < 12; ++trial) {
    std::string data = base;
    for (int k = 0; k < 1 + trial % 4; ++k)
      data[rng() % data.size()] = static_cast<char>(rng() & 0xff);
    const Loaded one = one_pass(data);
    expect_same(sliced(data, 3), one, "trial " + std::to_string(trial));
    expect_same(cut_at(data, every_field(data)), one,
                "every field, trial " + std::to_string(trial));
  }
  // Not an XSpace at all: the one-pass failure, with its message.
  const std::string junk = "\xff\xff\xff\xff garbage, not protobuf";
  const Loaded bad = sliced(junk, 4);
  EXPECT_TRUE(bad.failed);
  EXPECT_FALSE(bad.failure.empty());
  expect_same(bad, one_pass(junk), "junk");
  expect_same(sliced("", 3), one_pass(""), "empty");
}

TEST(XSpaceSlicedCodec, EncodedSlicesAbsorbAsTheSlicesThemselves) {
  int found = 0;
  for (const char* rel : kRealFiles) {
    std::string data;
    if (!read_real(rel, &data)) continue;
    ++found;
    const Loaded one = one_pass(data);
    expect_same(through_codec(data, xspace_cut_points(data, 3)), one, std::string(rel) + " n=3");
    expect_same(through_codec(data, every_field(data)), one, std::string(rel) + " every field");
    const std::string cut = data.substr(0, data.size() * 2 / 3);  // the last slice ends mid-plane
    expect_same(through_codec(cut, every_field(cut)), one_pass(cut), std::string(rel) + " cut");
  }
  const std::string gen = serialize(state_across_planes(3, 100));
  expect_same(through_codec(gen, every_field(gen)), one_pass(gen), "generated");
  if (found == 0) GTEST_SKIP() << "../shared/data is absent";
}

TEST(XSpaceSlicedCodec, AShortOrForeignBufferIsRefused) {
  const std::string data = serialize(state_across_planes(2, 50));
  const std::vector<XSpaceSliceSpec> specs = xspace_slice_specs(data, xspace_cut_points(data, 2));
  ASSERT_EQ(specs.size(), 2u);
  std::unique_ptr<XSpaceSlice> part = XSpaceSlice::later(specs[1]);
  part->feed(u8(data) + specs[1].begin, specs[1].end - specs[1].begin);
  const std::vector<uint8_t> buf = part->encode();
  ASSERT_TRUE(XSpaceSlice::decode(buf.data(), buf.size()) != nullptr);
  for (size_t n : {size_t{0}, size_t{3}, buf.size() / 2, buf.size() - 1})
    EXPECT_TRUE(XSpaceSlice::decode(buf.data(), n) == nullptr) << n;
  std::vector<uint8_t> longer = buf;
  longer.push_back(0);
  EXPECT_TRUE(XSpaceSlice::decode(longer.data(), longer.size()) == nullptr);
  const std::string foreign = "not a slice at all, just some bytes of text";
  EXPECT_TRUE(XSpaceSlice::decode(u8(foreign), foreign.size()) == nullptr);
}

}  // namespace
}  // namespace strata::testing
