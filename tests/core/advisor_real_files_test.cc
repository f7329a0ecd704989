// The advisor on real files of ../shared/data (skipped when absent): the rule file applies
// without errors, every rule is found, passed, not checked with a reason or not applicable, and
// every finding's evidence resolves to existing events through the select query the Report
// view's row clicks send, or (an HLO instruction the trace did not run) to an instruction of
// the Graph tab's modules. An xplane's HloProtos are opened as the worker opens them after the
// load; an Ascend export gets its Ascend rules listed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/base/json_writer.h"
#include "core/formats/json/json_flat.h"
#include "engine/advisor/advisor.h"
#include "engine/engine.h"
#include "engine/graph_session.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "protocol/reply_keys_links.h"

namespace strata {
namespace {

// The select query's count for one evidence link.
uint64_t selected(Engine& e, const AnalysisLink& l) {
  std::string args;
  if (!l.name.empty()) {
    args = "{\"name\":" + std::string();
    json_append_string(&args, l.name);
    args += ",\"tracks\":[";
    for (size_t i = 0; i < l.tracks.size(); ++i)
      args += (i ? "," : "") + std::to_string(l.tracks[i]);
    args += "],\"programId\":";
    json_append_string(&args, l.program_id);
    args += '}';
  } else {
    args = "{\"step\":" + std::to_string(l.step_event) + ",\"part\":";
    json_append_string(&args, l.part);
    args += '}';
  }
  const std::string reply = e.query_json("select", args);
  std::vector<JsonLine> lines;
  std::string err;
  if (!json_flatten(reply, &lines, &err)) return 0;
  for (const JsonLine& x : lines)
    if (x.depth == 0 && x.key == "count") return static_cast<uint64_t>(json_number(x));
  return 0;
}

bool shared(const std::string& rel) {
  std::FILE* f = std::fopen(testing::shared_path(rel).c_str(), "rb");
  if (f) std::fclose(f);
  return f != nullptr;
}

// The trace's HloProtos into the graph session, as web/worker/graph.js does after a load.
void open_trace_modules(Engine* e, const std::string& bytes) {
  if (!e->store()->xspace) return;
  GraphSession& g = e->graph_session();
  for (const HloProtoSpan& h : e->store()->xspace->hlo_protos) {
    std::memcpy(g.buffer(h.src_len), bytes.data() + h.src_offset, h.src_len);
    EXPECT_EQ(g.add(2, h.module, true, h.program_id), 1) << h.module << ": " << g.error();
  }
}

AdvisorReport check_file(const std::string& rel, bool gz) {
  std::string bytes, raw;
  if (!testing::read_shared(rel, &raw)) return {};
  if (gz) {
    EXPECT_TRUE(testing::gunzip(raw, &bytes));
  } else {
    bytes = std::move(raw);
  }
  Engine e;
  EXPECT_TRUE(testing::load_trace(&e, rel.substr(rel.rfind('/') + 1), bytes)) << e.last_error();
  if (!e.store()) return {};
  open_trace_modules(&e, bytes);
  const AdvisorFigureSet f = advisor_figures(e);
  const TraceStore& s = *e.store();
  const AdvisorReport r =
      advise(advisor_default_rules(), f, s.files.empty() ? std::string() : s.files[0].format);
  EXPECT_TRUE(r.rule_errors.empty());
  EXPECT_EQ(r.findings.size() + r.passed.size() + r.not_checked.size() + r.not_applicable.size(),
            advisor_default_rules().rules.size());
  for (const AdvisorUnchecked& u : r.not_checked) EXPECT_FALSE(u.why.empty()) << u.id;
  EXPECT_GE(r.summary.size(), 2u);
  EXPECT_LE(r.summary.size(), 5u);
  for (const AdvisorFinding& x : r.findings)
    for (const AdvisorEvidence& ev : x.evidence) {
      if (ev.link.name.empty() && ev.link.step_event == kNone) {
        // An instruction of a module: the Graph tab opens it.
        bool found = false;
        const GraphSession& g = e.graph_session();
        for (uint32_t m = 0; m < g.module_count(); ++m)
          found |= g.module(m)->module_name == ev.link.module && g.find_instr(m, ev.link.op) >= 0;
        EXPECT_TRUE(found) << rel << ": " << x.id << ": " << ev.label;
        continue;
      }
      EXPECT_GT(selected(e, ev.link), 0u) << rel << ": " << x.id << ": " << ev.label;
    }
  return r;
}

bool listed(const AdvisorReport& r, const std::string& id) {
  for (const AdvisorFinding& f : r.findings)
    if (f.id == id) return true;
  for (const AdvisorUnchecked& u : r.not_checked)
    if (u.id == id) return true;
  return std::find(r.passed.begin(), r.passed.end(), id) != r.passed.end();
}

TEST(AdvisorRealFiles, KinetoBertEvidenceSelectsEvents) {
  const char* rel = "pytorch_kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz";
  if (!shared(rel)) GTEST_SKIP() << rel;
  const AdvisorReport r = check_file(rel, true);
  // Not an Ascend profile: the Ascend rules do not apply.
  EXPECT_NE(std::find(r.not_applicable.begin(), r.not_applicable.end(), "aicpu_tasks"),
            r.not_applicable.end());
}

TEST(AdvisorRealFiles, XplaneEvidenceSelectsEvents) {
  const char* rel = "xplane/tracelens/jax_conv_minimal_08/tw003.xplane.pb";
  if (!shared(rel)) GTEST_SKIP() << rel;
  const AdvisorReport r = check_file(rel, false);
  // The modules were read: the HLO detectors and the precision share ran.
  for (const char* id : {"unfused_data_movement", "layout_copies", "upcast_reduce",
                         "low_precision_share", "debug_print_bound", "barrier_cores_bound"})
    EXPECT_TRUE(listed(r, id)) << id;
  for (const AdvisorUnchecked& u : r.not_checked)
    EXPECT_NE(u.id, "unfused_data_movement") << unchecked_text(u);
}

TEST(AdvisorRealFiles, AscendExportListsTheAscendRules) {
  const char* rel =
      "ascend/msinsight/text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json";
  if (!shared(rel)) GTEST_SKIP() << rel;
  const AdvisorReport r = check_file(rel, false);
  for (const char* id : {"aicpu_tasks", "slow_link", "small_packets", "unaligned_packets",
                         "slow_dataloader", "gc_pauses"})
    EXPECT_TRUE(listed(r, id)) << id;
}

}  // namespace
}  // namespace strata
