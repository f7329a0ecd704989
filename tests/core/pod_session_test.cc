// The pod manifest read back (PodSession: the host table, stragglers, refusals) and a pod's
// hosts opened as one trace (Engine::load_host*): generated hosts packed with strata-pack's
// writer and merged by its --merge-pod code, as a real pod is.
#include "engine/pod/pod_session.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/formats/json/json_flat.h"
#include "core/formats/sqlite/byte_reader.h"
#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "pod_test_util.h"
#include "tools/pack/bundle_writer.h"
#include "tools/pack/pod_manifest.h"
#include "ui/pod/pod_view.h"

namespace strata {
namespace {

using strata::testing::make_pod;
using strata::testing::Pod;
using strata::testing::read_file;
using strata::testing::scratch_path;

const JsonLine* member(const std::vector<JsonLine>& lines, size_t from, std::string_view key) {
  for (size_t i = from + 1; i < lines.size() && lines[i].depth > lines[from].depth; ++i)
    if (lines[i].depth == lines[from].depth + 1 && lines[i].key == key) return &lines[i];
  return nullptr;
}

TEST(PodSession, TableIsTheManifestsHostsWithTheSlowHostMarked) {
  Pod p;
  make_pod(&p);
  PodSession s;
  ASSERT_TRUE(s.load(p.manifest)) << (s.errors().empty() ? "" : s.errors()[0]);
  EXPECT_TRUE(s.errors().empty());
  ASSERT_EQ(s.hosts().size(), 4u);
  EXPECT_EQ(s.base(), "10000000");
  for (int h = 0; h < 4; ++h) {
    const PodHost& x = s.hosts()[h];
    const TraceStore& alone = *p.alone[h].store();
    EXPECT_EQ(x.name, "rank" + std::to_string(h));
    EXPECT_EQ(x.bundle, x.name + ".strata");
    EXPECT_EQ(x.offset_ns, h * 1000000);
    EXPECT_EQ(x.span_ns, alone.end_ns - alone.start_ns);
    EXPECT_EQ(x.events, alone.events.size());
    EXPECT_EQ(x.tracks, alone.tracks.size());
    EXPECT_EQ(x.steps, 6u) << x.name;
    EXPECT_EQ(x.step_ns, (h == 2 ? 1500 : 1000) * 1000) << x.name;
    EXPECT_GT(x.busy_ns, 0);
    EXPECT_EQ(x.straggler, h == 2) << x.name << ": " << x.why;
  }
  EXPECT_EQ(s.median_step_ns(), 1000000);
  EXPECT_NEAR(s.hosts()[2].step_ratio, 1.5, 1e-9);
  EXPECT_NE(s.hosts()[2].why.find("1.50x"), std::string::npos) << s.hosts()[2].why;
  EXPECT_EQ(s.find("rank3"), 3);
  EXPECT_EQ(s.find("rank9"), -1);

  // The reply lists the same table.
  std::vector<JsonLine> lines;
  std::string error;
  ASSERT_TRUE(json_flatten(s.table_json(), &lines, &error)) << error;
  int hosts = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].depth != 1 || lines[i].kind != 'o') continue;
    const JsonLine* name = member(lines, i, "name");
    const JsonLine* straggler = member(lines, i, "straggler");
    const JsonLine* offset = member(lines, i, "offsetNs");
    ASSERT_TRUE(name && straggler && offset);
    EXPECT_EQ(name->value, "rank" + std::to_string(hosts));
    EXPECT_EQ(straggler->value, hosts == 2 ? "true" : "false");
    EXPECT_EQ(offset->value, std::to_string(hosts * 1000000));
    ++hosts;
  }
  EXPECT_EQ(hosts, 4);

  // The Pod tab reads the same table: every row, sortable, picks kept across a new table.
  PodView v;
  ASSERT_TRUE(pod_view_set_table(&v, "pod.json", s.table_json().c_str()));
  ASSERT_EQ(v.rows.size(), 4u);
  for (size_t h = 0; h < 4; ++h) {
    EXPECT_EQ(v.rows[h].name, s.hosts()[h].name);
    EXPECT_EQ(v.rows[h].offset_ns, static_cast<double>(s.hosts()[h].offset_ns));
    EXPECT_EQ(v.rows[h].events, static_cast<double>(s.hosts()[h].events));
    EXPECT_EQ(v.rows[h].step_ns, static_cast<double>(s.hosts()[h].step_ns));
    EXPECT_EQ(v.rows[h].straggler, h == 2);
  }
  EXPECT_EQ(v.stragglers, 1);
  pod_view_sort(&v, PodColumn::kStep, true);
  EXPECT_EQ(v.rows[0].name, "rank2");  // the slow host first
  EXPECT_TRUE(pod_view_pick(&v, {"rank3", "rank1"}));
  EXPECT_FALSE(pod_view_pick(&v, {"rank1", "rank7"}));
  EXPECT_TRUE(pod_view_pick(&v, {"rank3", "rank1"}));
  pod_view_sort(&v, PodColumn::kName, false);
  EXPECT_EQ(pod_view_picked_json(v), "[\"rank1\",\"rank3\"]");
  s.mark(1, "");
  s.mark(3, "its bundle cannot be read");
  ASSERT_TRUE(pod_view_set_table(&v, "pod.json", s.table_json().c_str()));
  EXPECT_EQ(pod_view_picked_json(v), "[\"rank1\",\"rank3\"]");
  EXPECT_TRUE(v.rows[1].open);
  EXPECT_EQ(v.rows[3].error, "its bundle cannot be read");
  EXPECT_FALSE(pod_view_set_table(&v, "x", "{\"hosts\":["));
  EXPECT_EQ(v.rows.size(), 4u) << "a table that does not parse leaves the view";
  ASSERT_EQ(::system(("rm -rf '" + p.dir + "'").c_str()), 0);
}

std::string manifest_of(const std::string& hosts, const std::string& head = "") {
  return "{\"format\":\"strata-pod\",\"version\":1,\"base\":\"0\"" + head + ",\"hosts\":[" + hosts +
         "],\"errors\":[]}";
}

std::string host_entry(const std::string& name, int64_t span, int64_t busy, int64_t step,
                       const std::string& bundle = "") {
  return "{\"name\":\"" + name + "\",\"bundle\":\"" + (bundle.empty() ? name + ".strata" : bundle) +
         "\",\"origin\":\"0\",\"offset\":0,\"span\":" + std::to_string(span) +
         ",\"events\":10,\"tracks\":1,\"busy\":" + std::to_string(busy) +
         ",\"steps\":" + std::to_string(step ? 5 : 0) + ",\"step\":" + std::to_string(step) +
         ",\"sources\":[\"" + name + ".json\"]}";
}

TEST(PodSession, StragglersAreSlowStepsOrLowBusyAmongEnoughHosts) {
  PodSession s;
  // Medians: step 100, busy 80%. h1: 1.05x (not marked), h2: 1.2x, h3: busy 50% < 0.8 * 80%.
  ASSERT_TRUE(s.load(
      manifest_of(host_entry("h0", 1000, 800, 100) + "," + host_entry("h1", 1000, 800, 105) + "," +
                  host_entry("h2", 1000, 850, 120) + "," + host_entry("h3", 1000, 500, 100) + "," +
                  host_entry("h4", 1000, 790, 98))));
  ASSERT_EQ(s.hosts().size(), 5u);
  EXPECT_EQ(s.median_step_ns(), 100);
  EXPECT_DOUBLE_EQ(s.median_busy_pct(), 80);
  const bool expected[] = {false, false, true, true, false};
  for (size_t i = 0; i < 5; ++i)
    EXPECT_EQ(s.hosts()[i].straggler, expected[i]) << s.hosts()[i].name << ": " << s.hosts()[i].why;
  EXPECT_NE(s.hosts()[2].why.find("median step 1.20x"), std::string::npos) << s.hosts()[2].why;
  EXPECT_NE(s.hosts()[3].why.find("busy 50%"), std::string::npos) << s.hosts()[3].why;
  EXPECT_EQ(s.hosts()[0].sources, std::vector<std::string>{"h0.json"});

  // Two hosts: a median of two says nothing, nobody is marked.
  ASSERT_TRUE(
      s.load(manifest_of(host_entry("a", 1000, 900, 100) + "," + host_entry("b", 1000, 100, 300))));
  EXPECT_FALSE(s.hosts()[0].straggler || s.hosts()[1].straggler);
  // A host without steps is judged on busy only, and its ratio is 0.
  ASSERT_TRUE(s.load(
      manifest_of(host_entry("a", 1000, 800, 100) + "," + host_entry("b", 1000, 800, 100) + "," +
                  host_entry("c", 1000, 800, 100) + "," + host_entry("d", 1000, 800, 0))));
  EXPECT_FALSE(s.hosts()[3].straggler);
  EXPECT_EQ(s.hosts()[3].step_ratio, 0);
}

TEST(PodSession, BadManifestsAndEntriesAreRefusedWithAMessage) {
  PodSession s;
  EXPECT_FALSE(s.load("{\"format\":\"strata-pod\",\"version\":1,\"hosts\":["));
  ASSERT_EQ(s.errors().size(), 1u);
  EXPECT_NE(s.errors()[0].find("not JSON"), std::string::npos) << s.errors()[0];
  EXPECT_FALSE(s.load("{\"traceEvents\":[]}"));
  EXPECT_NE(s.errors()[0].find("not a pod manifest"), std::string::npos) << s.errors()[0];
  EXPECT_FALSE(s.load("{\"format\":\"strata-pod\",\"version\":2,\"hosts\":[]}"));
  EXPECT_NE(s.errors()[0].find("version 2"), std::string::npos) << s.errors()[0];
  EXPECT_TRUE(s.hosts().empty());

  // Entries that would fetch outside pod.json's directory, or name a host twice, are left out.
  ASSERT_TRUE(s.load(
      manifest_of(host_entry("ok", 1000, 800, 100) + "," + host_entry("ok", 1000, 800, 100) + "," +
                      host_entry("up", 1, 1, 1, "../other/up.strata") + "," +
                      host_entry("far", 1, 1, 1, "https://elsewhere.example/far.strata") + "," +
                      host_entry("root", 1, 1, 1, "/etc/root.strata") + "," +
                      host_entry("sub", 1, 1, 1, "hosts/sub.strata") + ",{\"bundle\":\"x.strata\"}",
                  ",\"note\":1")));
  ASSERT_EQ(s.hosts().size(), 2u);
  EXPECT_EQ(s.hosts()[0].name, "ok");
  EXPECT_EQ(s.hosts()[1].name, "sub");
  ASSERT_EQ(s.errors().size(), 5u);
  EXPECT_NE(s.errors()[0].find("listed twice"), std::string::npos) << s.errors()[0];
  EXPECT_NE(s.errors()[1].find("up: bundle \"../other/up.strata\""), std::string::npos)
      << s.errors()[1];
  EXPECT_NE(s.errors()[2].find("scheme"), std::string::npos) << s.errors()[2];
  EXPECT_NE(s.errors()[3].find("absolute"), std::string::npos) << s.errors()[3];
  EXPECT_NE(s.errors()[4].find("no name"), std::string::npos) << s.errors()[4];
}

// Opens `names` of the pod in `dir` into `e` as the page does, reading each bundle whole.
std::vector<bool> open_hosts(Engine* e, const std::string& dir,
                             const std::vector<std::string>& names) {
  std::vector<bool> opened;
  e->load_hosts_begin("pod.json");
  for (const std::string& n : names) {
    std::string bytes;
    if (!read_file(dir + "/" + n + ".strata", &bytes)) {
      e->load_host_fail(n, "its bundle cannot be read");
      opened.push_back(false);
      continue;
    }
    MemoryByteReader reader(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    opened.push_back(e->load_host(n, &reader));
  }
  EXPECT_EQ(e->load_hosts_end(), std::find(opened.begin(), opened.end(), true) != opened.end());
  return opened;
}

// The events of `track` of store `s`, as (name, start, dur, depth) text lines.
std::vector<std::string> track_events(const TraceStore& s, uint32_t track) {
  std::vector<std::string> out;
  const Track& t = s.tracks[track];
  for (uint32_t i = t.first_event; i < t.first_event + t.event_count; ++i)
    out.push_back(std::string(s.strings.get(s.events.name[i])) + " " +
                  std::to_string(s.events.start[i]) + " " + std::to_string(s.events.dur[i]) + " " +
                  std::to_string(s.events.depth[i]));
  return out;
}

TEST(PodSession, HostsOpenAsOneTraceEachAGroupAtItsOffset) {
  Pod p;
  make_pod(&p);
  Engine e;
  const std::vector<bool> opened = open_hosts(&e, p.dir, {"rank1", "rank3"});
  EXPECT_EQ(opened, (std::vector<bool>{true, true}));
  const TraceStore& s = *e.store();
  strata::testing::expect_valid_layout(s);
  const TraceStore& a = *p.alone[1].store();
  const TraceStore& b = *p.alone[3].store();
  EXPECT_TRUE(s.errors.empty()) << s.errors[0];
  ASSERT_EQ(s.events.size(), a.events.size() + b.events.size());
  ASSERT_EQ(s.tracks.size(), a.tracks.size() + b.tracks.size());
  ASSERT_EQ(s.processes.size(), a.processes.size() + b.processes.size());
  ASSERT_EQ(s.samples.size(), a.samples.size() + b.samples.size());
  // One axis: rank1 starts 1 ms after the pod's base, rank3 3 ms: the trace spans both.
  EXPECT_EQ(s.start_ns, a.start_ns);
  EXPECT_EQ(s.end_ns, b.end_ns);
  EXPECT_EQ(b.start_ns - a.start_ns, 2000000);
  // Each host's processes keep their pid, named as a section of the host's group.
  EXPECT_EQ(s.processes[0].pid, 7);
  EXPECT_EQ(std::string(s.strings.get(s.processes[0].name)), "rank1 trainer");
  EXPECT_EQ(s.processes[a.processes.size()].pid, 7);
  EXPECT_EQ(std::string(s.strings.get(s.processes[a.processes.size()].name)), "rank3 trainer");
  ASSERT_EQ(s.files.size(), 2u);
  EXPECT_EQ(s.files[0].group, "rank1");
  EXPECT_EQ(s.files[1].group, "rank3");
  // Every track holds exactly its host's events, at their own times.
  for (uint32_t t = 0; t < a.tracks.size(); ++t) EXPECT_EQ(track_events(s, t), track_events(a, t));
  for (uint32_t t = 0; t < b.tracks.size(); ++t)
    EXPECT_EQ(track_events(s, static_cast<uint32_t>(a.tracks.size()) + t), track_events(b, t));
  // Queries see both hosts: every ProfilerStep#0, one per host, at each host's own start.
  const std::string found = e.query_json("find", "{\"text\":\"ProfilerStep#0\",\"limit\":10}");
  EXPECT_NE(found.find("\"count\":2"), std::string::npos) << found;
  EXPECT_NE(e.summary_json().find("\"events\":" + std::to_string(s.events.size())),
            std::string::npos);
  ASSERT_EQ(::system(("rm -rf '" + p.dir + "'").c_str()), 0);
}

TEST(PodSession, AHostThatDoesNotOpenIsListedAndTheOthersOpen) {
  Pod p;
  make_pod(&p);
  // rank2's bundle is cut short (its index is gone); rank9 has no bundle at all.
  std::string bytes;
  ASSERT_TRUE(read_file(p.dir + "/rank2.strata", &bytes));
  FILE* f = std::fopen((p.dir + "/rank2.strata").c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fwrite(bytes.data(), 1, 200, f);
  std::fclose(f);
  Engine e;
  const std::vector<bool> opened = open_hosts(&e, p.dir, {"rank0", "rank2", "rank9"});
  EXPECT_EQ(opened, (std::vector<bool>{true, false, false}));
  EXPECT_EQ(e.store()->events.size(), p.alone[0].store()->events.size());
  const std::string summary = e.summary_json();
  EXPECT_NE(summary.find("rank2: "), std::string::npos) << summary;
  EXPECT_NE(summary.find("rank9: its bundle cannot be read"), std::string::npos) << summary;

  // No host opens: the trace shown stays, and the errors say why.
  const uint32_t generation = e.generation();
  open_hosts(&e, p.dir, {"rank2", "rank9"});
  EXPECT_EQ(e.generation(), generation);
  EXPECT_EQ(e.store()->events.size(), p.alone[0].store()->events.size());
  EXPECT_NE(e.last_error().find("no host of the pod opened"), std::string::npos) << e.last_error();
  EXPECT_NE(e.last_error().find("rank2: "), std::string::npos) << e.last_error();
  ASSERT_EQ(::system(("rm -rf '" + p.dir + "'").c_str()), 0);
}

}  // namespace
}  // namespace strata
