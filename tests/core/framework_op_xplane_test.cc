// Framework Op Stats on xplanes: TPU-shaped XSpaces written with the protoc classes (host
// TensorFlow ops, one nested in another, two of one type; XLA ops whose metadata carry tf_op
// stats), and the real xplanes of ../shared/data (skipped when absent): on the GPU JAX runs the
// device totals per framework op equal an independent sum over the XLA Ops rows by the op_name
// their module's HloProto gives (an op whose instruction names none: a row of its own, by the
// op's name, as XProf's); on the TensorFlow run the rows are the host ops by full name.
#include "engine/analysis/framework_op_xplane.h"

#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <set>
#include <string_view>

#include "core/base/json_writer.h"
#include "core/formats/hlo/hlo_module.h"
#include "core/formats/hlo/hlo_proto_parser.h"
#include "core/formats/json/json_flat.h"
#include "core/formats/xplane/xplane_derived.h"
#include "core/formats/xplane/xplane_tables.h"
#include "core/query/selection.h"
#include "engine/analysis/framework_op_stats.h"
#include "engine/analysis/op_cells.h"
#include "engine/analysis/op_metrics.h"
#include "engine/query_args.h"
#include "xla_ops_test_util.h"
#include "xplane_test_util.h"

namespace strata {
namespace {

using testing::PlaneWriter;
namespace pb = testing::pb;

constexpr int64_t kUs = 1000 * 1000;  // ps

size_t column(const AnalysisTable& t, const std::string& key) {
  for (size_t i = 0; i < t.columns.size(); ++i)
    if (t.columns[i].key == key) return i;
  ADD_FAILURE() << "no column " << key;
  return 0;
}

const AnalysisRow* row_named(const AnalysisTable& t, const std::string& name) {
  for (const AnalysisRow& r : t.rows)
    if (r.cells[0].text == name) return &r;
  return nullptr;
}

QueryArgs no_args() {
  QueryArgs a;
  std::string err;
  a.parse("{}", &err);
  return a;
}

// Host: "dense/MatMul:MatMul" 0-50 µs with "dense/Relu:Relu" 10-20 µs in it, a user TraceMe
// "outer" (not an op) around both, and "dense/MatMul:MatMul" again 60-70 µs. Device: XLA ops
// dot.1 (tf_op jit(f)/dot_general, 2 runs), add.2 (jit(f)/add) and copy.3 (no tf_op).
std::string tpu_space() {
  pb::XSpace space;
  {
    PlaneWriter h(&space, "/host:CPU", 2);
    h.meta("dense/MatMul:MatMul", "MatMul");
    h.meta("dense/Relu:Relu", "Relu");
    pb::XLine* l = h.line(1, "tf_Compute", 1000);
    h.event(l, "outer", 0, 80 * kUs);
    h.event(l, "dense/MatMul:MatMul", 0, 50 * kUs);
    h.event(l, "dense/Relu:Relu", 10 * kUs, 10 * kUs);
    h.event(l, "dense/MatMul:MatMul", 60 * kUs, 10 * kUs);
  }
  PlaneWriter w(&space, "/device:TPU:0", 1);
  const char* const kTfOps[][2] = {
      {"dot.1", "jit(f)/dot_general"}, {"add.2", "jit(f)/add"}, {"copy.3", ""}};
  for (const auto& [op, tf_op] : kTfOps) {
    pb::XEventMetadata* m = w.meta(op);
    w.stat_uint(m, "program_id", 7);
    if (*tf_op) w.stat_str(m, "tf_op", tf_op);
  }
  pb::XLine* modules = w.line(1, "XLA Modules", 1000);
  w.event(modules, "jit_f(7)", 0, 100 * kUs);
  pb::XLine* ops = w.line(2, "XLA Ops", 1000);
  w.event(ops, "dot.1", 0, 10 * kUs);
  w.event(ops, "add.2", 10 * kUs, 5 * kUs);
  w.event(ops, "dot.1", 20 * kUs, 30 * kUs);
  w.event(ops, "copy.3", 60 * kUs, 4 * kUs);
  return testing::serialize(space);
}

TEST(FrameworkOpXplane, HostOpsAndDeviceOpsByTheirTfOpOnATpuPlane) {
  Engine engine;
  ASSERT_TRUE(testing::engine_load(&engine, tpu_space()));
  const TraceStore& s = *engine.store();
  std::string why;
  ASSERT_TRUE(framework_op_xplane_available(s, &why)) << why;
  const AnalysisTable t =
      framework_op_xplane_table(s, build_op_metrics(s, op_cores(s), -1),
                                store_to_display(engine.display_tracks(), s.tracks.size()));
  ASSERT_TRUE(t.errors.empty());
  const size_t count = column(t, "count"), host_total = column(t, "host_total"),
               host_self = column(t, "host_self"), dev = column(t, "device_total"),
               dev_self = column(t, "device_self"), pct = column(t, "device_self_pct"),
               events = column(t, "launches");
  // Host rows, by the op's name (its full name less its type), with its type; "outer" is no op.
  EXPECT_EQ(row_named(t, "outer"), nullptr);
  const AnalysisRow* matmul = row_named(t, "dense/MatMul");
  ASSERT_NE(matmul, nullptr);
  EXPECT_EQ(matmul->cells[column(t, "type")].text, "MatMul");
  EXPECT_EQ(matmul->link.name, "MatMul");  // the name the timeline shows
  EXPECT_EQ(matmul->cells[count].number, 2);
  EXPECT_EQ(matmul->cells[host_total].number, 60e3);
  EXPECT_EQ(matmul->cells[host_self].number, 50e3);  // the nested Relu's 10 µs left out
  EXPECT_EQ(matmul->cells[dev].number, 0);
  const AnalysisRow* relu = row_named(t, "dense/Relu");
  ASSERT_NE(relu, nullptr);
  EXPECT_EQ(relu->cells[host_self].number, 10e3);
  // Device rows: XLA ops grouped by tf_op; the op without one is its own row.
  const AnalysisRow* dot = row_named(t, "jit(f)/dot_general");
  ASSERT_NE(dot, nullptr);
  EXPECT_EQ(dot->cells[dev].number, 40e3);
  EXPECT_EQ(dot->cells[dev_self].number, 40e3);
  EXPECT_EQ(dot->cells[events].number, 2);
  EXPECT_EQ(dot->cells[count].number, 2);  // XProf's occurrences: its device op's
  EXPECT_EQ(dot->cells[host_total].kind, AnalysisCell::Kind::kEmpty);
  EXPECT_NE(dot->cells[host_total].why.find("device only"), std::string::npos);
  EXPECT_NEAR(dot->cells[pct].number, 100.0 * 40 / 49, 1e-9);
  EXPECT_EQ(dot->cells[column(t, "type")].text, "Unknown");  // a name without a type
  const AnalysisRow* copy = row_named(t, "copy.3");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->cells[dev].number, 4e3);
  EXPECT_EQ(copy->cells[column(t, "type")].text, "Unknown");
  // A device row links to its events on the Framework Ops row (derived from the tf_op stats).
  EXPECT_EQ(dot->link.name, "jit(f)/dot_general");
  auto track_name = [&](const AnalysisRow* r) {
    EXPECT_EQ(r->link.tracks.size(), 1u);
    return r->link.tracks.empty() ? std::string()
                                  : std::string(s.strings.get(
                                        s.tracks[engine.display_tracks()[r->link.tracks[0]]].name));
  };
  EXPECT_EQ(track_name(dot), "Framework Ops");
  EXPECT_EQ(track_name(copy), "XLA Ops");
}

// Two TensorFlow ops of one type, both shown as "MatMul" on the timeline: host "a/MatMul" on
// two threads and under a second metadata id, and "b/MatMul"; on the device an XLA op whose
// tf_op is a/MatMul. XProf keys a row by the op's name, so a/MatMul is one row (host and
// device) and b/MatMul another.
TEST(FrameworkOpXplane, TwoTensorFlowOpsOfOneTypeAreTwoRows) {
  pb::XSpace space;
  {
    PlaneWriter h(&space, "/host:CPU", 2);
    h.meta("a/MatMul:MatMul", "MatMul");
    h.meta("b/MatMul:MatMul", "MatMul");
    pb::XEventMetadata& again = (*h.plane()->mutable_event_metadata())[50];
    again.set_id(50);
    again.set_name("a/MatMul:MatMul");
    again.set_display_name("MatMul");
    pb::XLine* l = h.line(1, "tf_Compute", 1000);
    h.event(l, "a/MatMul:MatMul", 0, 10 * kUs);
    h.event(l, "b/MatMul:MatMul", 20 * kUs, 5 * kUs);
    h.event(l, "a/MatMul:MatMul", 30 * kUs, 3 * kUs)->set_metadata_id(50);
    pb::XLine* l2 = h.line(2, "tf_Compute", 1000);
    h.event(l2, "a/MatMul:MatMul", 0, 2 * kUs);
  }
  {
    PlaneWriter w(&space, "/device:TPU:0", 1);
    pb::XEventMetadata* m = w.meta("dot.1");
    w.stat_uint(m, "program_id", 7);
    w.stat_str(m, "tf_op", "a/MatMul:MatMul");
    w.event(w.line(1, "XLA Modules", 1000), "jit_f(7)", 0, 10 * kUs);
    w.event(w.line(2, "XLA Ops", 1000), "dot.1", 0, 4 * kUs);
  }
  Engine engine;
  ASSERT_TRUE(testing::engine_load(&engine, testing::serialize(space)));
  const TraceStore& s = *engine.store();
  // The store shows every host event as "MatMul"; the full names tell the ops apart.
  EXPECT_EQ(host_framework_op_events(s).size(), 4u);
  const AnalysisTable t =
      framework_op_xplane_table(s, build_op_metrics(s, op_cores(s), -1),
                                store_to_display(engine.display_tracks(), s.tracks.size()));
  ASSERT_TRUE(t.errors.empty());
  const size_t type = column(t, "type"), count = column(t, "count"),
               host_total = column(t, "host_total"), dev = column(t, "device_total");
  EXPECT_EQ(row_named(t, "MatMul"), nullptr);
  ASSERT_EQ(t.rows.size(), 2u);
  const AnalysisRow* a = row_named(t, "a/MatMul");
  const AnalysisRow* b = row_named(t, "b/MatMul");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->cells[type].text, "MatMul");
  EXPECT_EQ(b->cells[type].text, "MatMul");
  EXPECT_EQ(a->cells[count].number, 3);
  EXPECT_EQ(a->cells[host_total].number, 15e3);
  EXPECT_EQ(a->cells[dev].number, 4e3);
  EXPECT_EQ(b->cells[count].number, 1);
  EXPECT_EQ(b->cells[host_total].number, 5e3);
  EXPECT_EQ(b->cells[dev].number, 0);
  // Both link to what the timeline shows: the host threads' "MatMul" events (and a/MatMul to
  // its device runs on the Framework Ops row).
  EXPECT_EQ(a->link.name, "MatMul");
  EXPECT_EQ(b->link.name, "MatMul");
  EXPECT_EQ(a->link.tracks.size(), 3u);
  EXPECT_EQ(b->link.tracks.size(), 1u);
  // But each link names its op, and the select query's framework op mode gives that op's own
  // events only: a/MatMul's three host events (0 and 30 µs on one thread, 0 on the other) and
  // its device run on the Framework Ops row; b/MatMul's one host event at 20 µs.
  EXPECT_EQ(a->link.framework_op, "a/MatMul");
  EXPECT_EQ(b->link.framework_op, "b/MatMul");
  auto selected = [&](const AnalysisRow* r) {
    std::string args = "{\"name\":";
    json_append_string(&args, r->link.name);
    args += ",\"tracks\":[";
    for (size_t i = 0; i < r->link.tracks.size(); ++i)
      args += (i ? "," : "") + std::to_string(r->link.tracks[i]);
    args += "],\"frameworkOp\":";
    json_append_string(&args, r->link.framework_op);
    args += '}';
    std::vector<JsonLine> lines;
    std::string err;
    EXPECT_TRUE(json_flatten(engine.query_json("select", args), &lines, &err)) << err;
    std::multiset<std::pair<std::string, TimeNs>> out;  // (track name, start)
    for (const JsonLine& l : lines)
      if (l.depth == 2 && l.key == "event") {
        const auto e = static_cast<uint32_t>(json_number(l));
        out.insert(
            {std::string(s.strings.get(s.tracks[s.events.track[e]].name)), s.events.start[e]});
      }
    return out;
  };
  // Independently: the events by start time on their rows, from the file written above.
  auto starts_of = [&](std::string_view track, std::string_view full) {
    std::vector<TimeNs> v;
    for (uint32_t e = 0; e < s.events.size(); ++e)
      if (s.strings.get(s.tracks[s.events.track[e]].name) == track &&
          event_full_name(s, e) == s.strings.find(full))
        v.push_back(s.events.start[e]);
    return v;
  };
  const std::vector<TimeNs> a_host = starts_of("tf_Compute", "a/MatMul:MatMul");
  const std::vector<TimeNs> b_host = starts_of("tf_Compute", "b/MatMul:MatMul");
  ASSERT_EQ(a_host.size(), 3u);
  ASSERT_EQ(b_host.size(), 1u);
  std::multiset<std::pair<std::string, TimeNs>> a_want, b_want;
  for (TimeNs at : a_host) a_want.insert({"tf_Compute", at});
  for (TimeNs at : b_host) b_want.insert({"tf_Compute", at});
  const std::vector<TimeNs> a_dev = starts_of("Framework Ops", "MatMul");
  ASSERT_EQ(a_dev.size(), 1u);
  a_want.insert({"Framework Ops", a_dev[0]});
  EXPECT_EQ(selected(a), a_want);
  EXPECT_EQ(selected(b), b_want);
  // The name mode alone (the type) takes both ops' host events.
  std::vector<uint32_t> by_type;
  select_named(s, s.strings.find("MatMul"), {}, SIZE_MAX, &by_type);
  EXPECT_GE(by_type.size(), 5u);
}

TEST(FrameworkOpXplane, DeviceTotalsEqualASumOverTheXlaOpsRowsOfRealFiles) {
  size_t tried = 0;
  for (const char* rel : testing::kWithHlo) {
    std::string bytes;
    if (!testing::read_shared(rel, &bytes)) continue;
    SCOPED_TRACE(rel);
    Engine engine;
    ASSERT_TRUE(testing::engine_load(&engine, bytes));
    const TraceStore& s = *engine.store();
    const XSpaceTables& x = *s.xspace;
    // The modules, parsed here from the file's HloProto bytes.
    std::map<int64_t, hlo::HloModule> modules;
    for (const HloProtoSpan& h : x.hlo_protos) {
      std::string err;
      ASSERT_TRUE(hlo::parse_hlo_proto(testing::u8(bytes) + h.src_offset, h.src_len,
                                       &modules[h.program_id], &err))
          << err;
    }
    // Every event of the device planes' XLA Ops rows, by its instruction's op_name, else by the
    // op's own name (XProf's ops without provenance).
    std::map<std::string, double> want;
    double all = 0;
    size_t unnamed = 0;
    for (uint32_t e = 0; e < s.events.size(); ++e) {
      const Track& tr = s.tracks[s.events.track[e]];
      if (s.strings.get(tr.name) != "XLA Ops") continue;
      const uint32_t plane = x.plane_of_process[tr.process];
      if (plane == kNone || !x.planes[plane].name.starts_with("/device:")) continue;
      const std::string op(s.strings.get(s.events.name[e]));
      const auto dur = static_cast<double>(s.events.dur[e]);
      all += dur;
      auto m = modules.find(testing::program_of_event(s, e));
      const uint32_t i = m != modules.end() ? m->second.find(op) : kNone;
      if (i != kNone && m->second.op_name[i]) {
        // A JAX op_name ("jit(dot)/dot_general") has no type after a colon: XProf's name for
        // it is the whole op_name.
        const std::string op_name(m->second.str(m->second.op_name[i]));
        EXPECT_EQ(op_name.find(':'), std::string::npos) << op_name;
        want[op_name] += dur;
      } else {
        want[op] += dur;
        ++unnamed;
      }
    }
    if (all == 0) continue;
    ++tried;
    std::string why;
    ASSERT_TRUE(framework_op_stats_available(engine, &why)) << why;
    const AnalysisTable t = framework_op_stats_run(engine, no_args());
    ASSERT_TRUE(t.errors.empty()) << t.errors[0];
    const size_t dev = column(t, "device_total");
    // Exact on every file: an op's instruction is the one of its own program (the module runs
    // are named "jit_dot(21)": several modules share the name jit_dot, and only some of them
    // have a custom-call.1), whose op_name names its framework op.
    double got_all = 0;
    for (const AnalysisRow& r : t.rows) {
      const double v = r.cells[dev].number;
      got_all += v;
      EXPECT_EQ(r.link.name, r.cells[0].text);
      EXPECT_FALSE(r.link.tracks.empty());
      auto w = want.find(r.cells[0].text);
      EXPECT_EQ(v, w == want.end() ? 0 : w->second) << r.cells[0].text;
      if (w != want.end()) want.erase(w);
    }
    EXPECT_TRUE(want.empty()) << want.size() << " framework ops missing, first "
                              << (want.empty() ? "" : want.begin()->first);
    EXPECT_DOUBLE_EQ(got_all, all);
    if (unnamed > 0) {
      bool noted = false;
      for (const std::string& n : t.notes)
        noted |= n.find("name no framework op") != std::string::npos;
      EXPECT_TRUE(noted);
    }
  }
  if (tried == 0) GTEST_SKIP() << "no real xplane with an XLA Ops row in ../shared/data";
}

// A TensorFlow GPU profile without XLA Ops rows: its host ops and what they launched.
TEST(FrameworkOpXplane, TensorFlowGpuProfileCountsHostOpsAndTheirLaunches) {
  std::string bytes;
  if (!testing::read_shared("xplane/xprof/34.83.195.179_6003.xplane.pb", &bytes))
    GTEST_SKIP() << "../shared/data absent";
  Engine engine;
  ASSERT_TRUE(testing::engine_load(&engine, bytes));
  const TraceStore& s = *engine.store();
  const std::vector<uint32_t> ops = host_framework_op_events(s);
  ASSERT_FALSE(ops.empty());
  const AnalysisTable t = framework_op_stats_run(engine, no_args());
  const size_t count = column(t, "count"), host = column(t, "host_total"),
               dev = column(t, "device_self");
  double events = 0, host_ns = 0, device_ns = 0;
  for (const AnalysisRow& r : t.rows) {
    events += r.cells[count].number;
    host_ns += r.cells[host].number;
    device_ns += r.cells[dev].number;
  }
  EXPECT_EQ(events, static_cast<double>(ops.size()));
  double want_host = 0;
  for (uint32_t e : ops) want_host += static_cast<double>(s.events.dur[e]);
  EXPECT_EQ(host_ns, want_host);
  EXPECT_GT(device_ns, 0);
}

// An independent reading of a TensorFlow op's XProf name (ParseTfOpFullname's TensorFlow and
// tf.data cases, which are all this file holds): "scope/name:Type" → "scope/name", the name
// matching [A-Za-z0-9.][A-Za-z0-9_./>-]* and the type [A-Z_][A-Za-z0-9_]*; "" when the full
// name is no op (XProf leaves out "_send_x/y:_Send": a name cannot start with "_").
std::string tensorflow_op_name(const std::string& full) {
  if (full.rfind("Iterator::", 0) == 0) return full;
  const size_t colon = full.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == full.size()) return "";
  const std::string name = full.substr(0, colon), type = full.substr(colon + 1);
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  if (!alnum(name[0]) && name[0] != '.') return "";
  for (char c : name)
    if (!alnum(c) && std::string_view("_./>-").find(c) == std::string_view::npos) return "";
  if (!(std::isupper(static_cast<unsigned char>(type[0])) || type[0] == '_')) return "";
  for (char c : type)
    if (!alnum(c) && c != '_') return "";
  return name;
}

// The real TensorFlow GPU profile, read here with the protobuf classes: every host event whose
// metadata names a TensorFlow op, grouped by that op's name. The table has exactly these rows
// (with their counts and host time), whatever type their events show on the timeline.
TEST(FrameworkOpXplane, TensorFlowRowsAreTheOpsByFullNameOfARealFile) {
  std::string bytes;
  if (!testing::read_shared("xplane/xprof/34.83.195.179_6003.xplane.pb", &bytes))
    GTEST_SKIP() << "../shared/data absent";
  pb::XSpace space;
  ASSERT_TRUE(space.ParseFromString(bytes));
  // An op's events may show more than one type ("x:_Retval" and "x:_DeviceRetval"): XProf's
  // row keeps the first it meets.
  struct Want {
    double count = 0, ns = 0;
    std::set<std::string> types, shown;
  };
  std::map<std::string, Want> want;
  for (const pb::XPlane& plane : space.planes()) {
    if (plane.name().rfind("/host:", 0) != 0 || plane.name() == "/host:metadata") continue;
    for (const pb::XLine& line : plane.lines())
      for (const pb::XEvent& e : line.events()) {
        auto m = plane.event_metadata().find(e.metadata_id());
        if (m == plane.event_metadata().end() || e.num_occurrences() > 0) continue;
        const std::string name = tensorflow_op_name(m->second.name());
        if (name.empty()) continue;
        // The store's rounding: each end to the nearest ns from the exact picoseconds.
        const int64_t start = (e.offset_ps() + 500) / 1000;
        const int64_t end = (e.offset_ps() + e.duration_ps() + 500) / 1000;
        Want& w = want[name];
        w.count += 1;
        w.ns += static_cast<double>(end - start);
        const std::string& full = m->second.name();
        w.types.insert(full.rfind("Iterator::", 0) == 0 ? "Dataset" : full.substr(name.size() + 1));
        w.shown.insert(m->second.display_name().empty() ? full : m->second.display_name());
      }
  }
  ASSERT_FALSE(want.empty());
  std::map<std::string, size_t> names_of_type;
  for (const auto& [name, w] : want)
    for (const std::string& type : w.types) ++names_of_type[type];
  size_t shared = 0;
  for (const auto& [type, n] : names_of_type) shared += n > 1;
  EXPECT_GT(shared, 0u) << "some type is shown for several ops";

  Engine engine;
  ASSERT_TRUE(testing::engine_load(&engine, bytes));
  const AnalysisTable t = framework_op_stats_run(engine, no_args());
  ASSERT_TRUE(t.errors.empty());
  const size_t type = column(t, "type"), count = column(t, "count"), host = column(t, "host_total");
  size_t host_rows = 0;
  for (const AnalysisRow& r : t.rows) {
    if (r.cells[host].kind != AnalysisCell::Kind::kNumber) continue;
    ++host_rows;
    const std::string& name = r.cells[0].text;
    auto w = want.find(name);
    ASSERT_NE(w, want.end()) << name;
    EXPECT_EQ(r.cells[count].number, w->second.count) << name;
    EXPECT_EQ(r.cells[host].number, w->second.ns) << name;
    EXPECT_TRUE(w->second.types.count(r.cells[type].text)) << name << " " << r.cells[type].text;
    EXPECT_TRUE(w->second.shown.count(r.link.name)) << name << " " << r.link.name;
  }
  EXPECT_EQ(host_rows, want.size());
}

}  // namespace
}  // namespace strata
