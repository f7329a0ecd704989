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
#include "core/formats/xplane/xplane_tables.h"
#include "tools/bench_common.h"
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

struct Loaded {
  uint64_t digest = 0;
  bool failed = false;
  std::string failure, tables;
  uint64_t records = 0, events = 0;
  std::vector<std::string> errors;
};

void add_file(TraceStore* store, size_t bytes) {
  SourceFile f;
  f.name = "t.xplane.pb";
  f.bytes = bytes;
  f.compression = "none";
  store->files.push_back(f);
}

Loaded summarize(const TraceStore& s, bool failed, std::string failure, uint64_t records) {
  Loaded l;
  l.digest = strata_bench::store_digest(s);
  l.failed = failed;
  l.failure = std::move(failure);
  l.records = records;
  l.events = s.events.size();
  l.tables = tables_text(s);
  l.errors = s.errors;
  return l;
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

// As the browser does: each later slice encoded by its worker, decoded by the engine worker.
Loaded through_codec(std::string_view data, const std::vector<uint64_t>& cuts) {
  TraceStore store;
  add_file(&store, data.size());
  auto* bytes = reinterpret_cast<const uint8_t*>(data.data());
  const std::vector<XSpaceSliceSpec> specs = xspace_slice_specs(data, cuts);
  std::unique_ptr<XSpaceSlice> head = XSpaceSlice::first(&store);
  head->feed(bytes, specs[0].end);
  for (size_t i = 1; i < specs.size(); ++i) {
    const XSpaceSliceSpec& sp = specs[i];
    std::unique_ptr<XSpaceSlice> part = XSpaceSlice::later(sp);
    for (const auto& [at, len] : sp.context) part->context(bytes + at, len, at);
    part->feed(bytes + sp.begin, sp.end - sp.begin);
    const std::vector<uint8_t> buf = part->encode();
    part.reset();
    std::unique_ptr<XSpaceSlice> back = XSpaceSlice::decode(buf.data(), buf.size());
    EXPECT_TRUE(back != nullptr);
    if (back && head->can_absorb(*back))
      head->absorb(*back);
    else
      head->feed(bytes + sp.begin, sp.end - sp.begin);
  }
  Importer& imp = head->importer();
  imp.finish();
  return summarize(store, imp.failed(), imp.failure(), imp.records());
}

void expect_same(const Loaded& a, const Loaded& b, const std::string& what) {
  EXPECT_EQ(a.digest, b.digest) << what;
  EXPECT_EQ(a.failed, b.failed) << what;
  EXPECT_EQ(a.failure, b.failure) << what;
  EXPECT_EQ(a.records, b.records) << what;
  EXPECT_EQ(a.errors, b.errors) << what;
  EXPECT_TRUE(a.tables == b.tables) << what << ": the xspace tables differ";
}

// Every top-level field start after the first: the finest cut there is.
std::vector<uint64_t> every_field(std::string_view data) {
  return xspace_cut_points(data, 1 << 20);
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

TEST(XSpaceSliced, RealFilesGiveTheOnePassStoreAndTables) {
  int found = 0;
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
