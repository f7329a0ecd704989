// The Distributed view from Ascend's step_trace_time.csv / communication.json (one card) or
// msprof-analyze's cluster_step_trace_time.csv / cluster_communication.json (all cards).
//
// Column meanings (Ascend PyTorch Profiler user guide, step_trace_time.csv; analysis.db
// StepTraceTime): Computing = compute time on the NPU; Communication = all communication;
// Overlapped = communication that ran during computing; Communication(Not Overlapped) =
// Communication - Overlapped; Free = the step minus computing and communication; Stage = the
// step without receive time; Bubble = receive time. So Computing + Communication(Not
// Overlapped) + Free = Stage (the real files agree to 0.01 us), i.e. Computing includes the
// overlapped part, as DistributedRow documents.
// communication.json (CommAnalyzerTime): per step, per "collective"/"p2p" op, "Communication
// Time Info" with Elapse (the op's time), Transit (data transfer), Wait (waiting for the peers,
// synchronisation included), Synchronization and Idle = Elapse - Transit - Wait, in ms. The
// NPU plugin's transfer / synchronisation split is Transit / Wait summed over the card's ops.
// "Total Op Info" (the file's own sum) is skipped so nothing counts twice.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>

#include "core/formats/json/json_flat.h"
#include "core/runs/run_stats.h"
#include "core/runs/runs_util.h"
#include "protocol/reply_keys_runs.h"

namespace strata::runs {
namespace {

std::string_view bare_step(std::string_view s) {
  if (s.size() > 4 && iequals(s.substr(0, 4), "step")) s.remove_prefix(4);
  return s;
}

// "hcom_allReduce__586_0_1@1752..." → "hcom_allReduce"; "HcomAllGather_123_4@g" →
// "HcomAllGather": the op's kind without the per-call hash, sequence and group.
std::string comm_op_kind(std::string_view name) {
  name = name.substr(0, name.find('@'));
  size_t dd = name.find("__");
  if (dd != std::string_view::npos) return std::string(name.substr(0, dd));
  for (size_t i = 0; i + 1 < name.size(); ++i)
    if (name[i] == '_' && name[i + 1] >= '0' && name[i + 1] <= '9')
      return std::string(name.substr(0, i));
  return std::string(name);
}

struct CommTimes {
  double elapse = 0, transit = 0, wait = 0, sync = 0, idle = 0;
};

// Key (card, step, op) → times. Cards are -1 for a single-card file (the caller's card).
using CommMap = std::map<std::tuple<int, std::string, std::string>, CommTimes>;

bool read_comm_json(std::string_view json, int card, CommMap* out, std::string* error) {
  std::vector<JsonLine> lines;
  std::string err;
  if (!json_flatten(json, &lines, &err)) {
    if (error) *error = err;
    if (lines.empty()) return false;
  }
  std::vector<std::string> path;
  for (const JsonLine& l : lines) {
    path.resize(l.depth);
    path.push_back(l.key);
    if (l.kind != 'n' || l.depth < 4 || path[l.depth - 1] != "Communication Time Info") continue;
    const size_t c = l.depth - 1;
    // Single card: step / kind / op / info / field. Cluster: group / step / op / rank / info.
    std::string step, op;
    int rank = card;
    if (c == 3) {
      step = path[0];
      op = path[2];
    } else if (c == 4) {
      step = path[1];
      op = path[2];
      rank = std::atoi(path[3].c_str());
    } else {
      continue;
    }
    if (op == "Total Op Info") continue;
    double ms = std::strtod(l.value.c_str(), nullptr);
    CommTimes& t = (*out)[{rank, std::string(bare_step(step)), op}];
    const std::string& f = l.key;
    if (f == "Elapse Time(ms)")
      t.elapse += ms * 1000;
    else if (f == "Transit Time(ms)")
      t.transit += ms * 1000;
    else if (f == "Wait Time(ms)")
      t.wait += ms * 1000;
    else if (f == "Synchronization Time(ms)")
      t.sync += ms * 1000;
    else if (f == "Idle Time(ms)")
      t.idle += ms * 1000;
  }
  return true;
}

struct StepCols {
  int step, comp, comm_no, overlap, comm, free, stage, bubble, prep;
};

StepCols step_columns(const CsvTable& t) {
  return {find_column(t, {"Step"}),
          find_column(t, {"Computing"}),
          find_column(t, {"Communication(Not Overlapped)"}),
          find_column(t, {"Overlapped"}),
          find_column(t, {"Communication"}),
          find_column(t, {"Free"}),
          find_column(t, {"Stage"}),
          find_column(t, {"Bubble"}),
          find_column(t, {"Preparing"})};
}

// Adds one step_trace_time row into `r` (NaN cells count as 0; span/bubble/preparing stay NaN
// until a row has them).
void add_step_row(const CsvTable& t, size_t i, const StepCols& c, DistributedRow* r) {
  double comp = cell_number(t, i, c.comp), ov = cell_number(t, i, c.overlap);
  double comm = cell_number(t, i, c.comm), no = cell_number(t, i, c.comm_no);
  if (is_missing(comm) && !is_missing(no)) comm = no + or_zero(ov);
  r->compute_us += or_zero(comp);
  r->communication_us += or_zero(comm);
  r->overlap_us += or_zero(ov);
  r->free_us += or_zero(cell_number(t, i, c.free));
  auto acc = [](double* dst, double v) {
    if (is_missing(v)) return;
    *dst = is_missing(*dst) ? v : *dst + v;
  };
  double stage = cell_number(t, i, c.stage), bubble = cell_number(t, i, c.bubble);
  acc(&r->span_us, is_missing(stage) ? stage : stage + or_zero(bubble));
  acc(&r->bubble_us, bubble);
  acc(&r->preparing_us, cell_number(t, i, c.prep));
}

void note_missing(const StepCols& c, DistributedTable* out) {
  if (c.comp < 0) out->missing.emplace_back(protocol::keys::runs_card::kComputeUs);
  if (c.comm < 0 && c.comm_no < 0)
    out->missing.emplace_back(protocol::keys::runs_card::kCommunicationUs);
  if (c.overlap < 0) out->missing.emplace_back(protocol::keys::runs_card::kOverlapUs);
  if (c.free < 0) out->missing.emplace_back(protocol::keys::runs_card::kFreeUs);
}

// Attaches the comm ops of (card, step) — all steps when step is "" — grouped by op kind.
void attach_comm(const CommMap& comm, int card, std::string_view step, DistributedRow* r) {
  std::map<std::string, CommOpRow> kinds;
  bool any = false;
  double transit = 0, wait = 0, sync = 0;
  for (const auto& [key, t] : comm) {
    if (std::get<0>(key) != card) continue;
    if (!step.empty() && std::get<1>(key) != step) continue;
    any = true;
    std::string kind = comm_op_kind(std::get<2>(key));
    CommOpRow& o = kinds[kind];
    if (o.calls == 0) {
      o.name = kind;
      o.transit_us = o.wait_us = o.sync_us = o.idle_us = 0;
    }
    ++o.calls;
    o.elapse_us += t.elapse;
    o.transit_us += t.transit;
    o.wait_us += t.wait;
    o.sync_us += t.sync;
    o.idle_us += t.idle;
    transit += t.transit;
    wait += t.wait;
    sync += t.sync;
  }
  if (!any) return;
  r->transfer_us = transit;
  r->wait_us = wait;
  r->sync_us = sync;
  for (auto& [k, o] : kinds) r->comm_ops.push_back(std::move(o));
  std::sort(r->comm_ops.begin(), r->comm_ops.end(),
            [](const CommOpRow& a, const CommOpRow& b) { return a.elapse_us > b.elapse_us; });
}

}  // namespace

DistributedTable ascend_card_distributed(int card, std::string_view step_csv,
                                         std::string_view comm_json, std::string_view step,
                                         std::string* error) {
  DistributedTable out;
  CsvTable t;
  std::string err;
  if (!step_csv.empty() && !csv_parse(step_csv, &t, &err)) {
    if (error) *error = "step_trace_time.csv: " + err;
    if (t.header.empty()) return out;
  }
  CommMap comm;
  if (!comm_json.empty() && !read_comm_json(comm_json, card, &comm, &err)) {
    out.warnings.push_back("communication.json: " + err);
  }
  if (comm_json.empty()) out.missing.emplace_back(protocol::keys::runs_card::kTransferUs);
  if (step_csv.empty()) {
    for (std::string_view k :
         {protocol::keys::runs_card::kComputeUs, protocol::keys::runs_card::kCommunicationUs,
          protocol::keys::runs_card::kOverlapUs, protocol::keys::runs_card::kFreeUs})
      out.missing.emplace_back(k);
  }
  const StepCols c = step_columns(t);
  if (!step_csv.empty()) note_missing(c, &out);
  const std::string_view want = bare_step(step);

  DistributedRow sum;
  sum.card = card;
  bool found = step_csv.empty();
  for (size_t i = 0; i < t.rows.size(); ++i) {
    std::string_view s = c.step >= 0 ? bare_step(t.cell(i, c.step)) : std::string_view();
    if (!want.empty() && s != want) continue;
    add_step_row(t, i, c, &sum);
    found = true;
  }
  if (!found) {
    if (error) *error = "step " + std::string(step) + " not in step_trace_time.csv";
    return out;
  }
  sum.step = std::string(want);
  // A communication.json written without the CSV still gives the communication time.
  attach_comm(comm, card, want, &sum);
  if (step_csv.empty() && !is_missing(sum.transfer_us)) {
    for (const CommOpRow& o : sum.comm_ops) sum.communication_us += o.elapse_us;
  }
  out.rows.push_back(std::move(sum));
  return out;
}

DistributedTable ascend_cluster_distributed(std::string_view step_csv, std::string_view comm_json,
                                            std::string* error) {
  DistributedTable out;
  CsvTable t;
  std::string err;
  if (!csv_parse(step_csv, &t, &err)) {
    if (error) *error = "cluster_step_trace_time.csv: " + err;
    if (t.header.empty()) return out;
  }
  CommMap comm;
  if (!comm_json.empty() && !read_comm_json(comm_json, -1, &comm, &err))
    out.warnings.push_back("cluster_communication.json: " + err);
  if (comm_json.empty()) out.missing.emplace_back(protocol::keys::runs_card::kTransferUs);
  const StepCols c = step_columns(t);
  note_missing(c, &out);
  const int c_type = find_column(t, {"Type"});
  const int c_index = find_column(t, {"Index"});
  if (c_index < 0) {
    if (error) *error = "cluster_step_trace_time.csv: no Index column";
    return out;
  }
  std::map<int, DistributedRow> cards;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    // "stage" rows summarise a pipeline stage (their Index is a tuple of ranks): not a card.
    if (c_type >= 0 && !iequals(t.cell(i, c_type), "rank")) continue;
    char* end = nullptr;
    const std::string& idx = t.cell(i, c_index);
    long rank = std::strtol(idx.c_str(), &end, 10);
    if (idx.empty() || *end) continue;
    DistributedRow& r = cards[int(rank)];
    r.card = int(rank);
    add_step_row(t, i, c, &r);
  }
  for (auto& [rank, r] : cards) {
    attach_comm(comm, rank, "", &r);
    out.rows.push_back(std::move(r));
  }
  return out;
}

}  // namespace strata::runs
