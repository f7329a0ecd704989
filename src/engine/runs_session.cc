#include "engine/runs_session.h"

#include <algorithm>
#include <memory>

#include "core/base/json_writer.h"
#include "core/formats/sqlite/ascend_db_runs.h"
#include "core/formats/sqlite/byte_reader.h"
#include "core/runs/run_stats_json.h"
#include "core/runs/trace_head.h"
#include "core/store/trace_store.h"
#include "engine/engine.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_links.h"
#include "protocol/reply_keys_runs.h"

namespace strata {

namespace {

constexpr size_t kMaxKernelDetails = 5000;

namespace stats = protocol::keys::runs_stats;
namespace kernel = protocol::keys::runs_kernel;
namespace detail = protocol::keys::runs_kernel_detail;

void key(std::string* o, std::string_view k) {
  *o += ',';
  json_append_string(o, k);
  *o += ':';
}

void strings(std::string* o, std::string_view k, const std::vector<std::string>& v) {
  key(o, k);
  runs::missing_json(v, o);
}

// "operators", "operatorsMissing".
void operators(std::string* o, const runs::OperatorTable& t) {
  key(o, stats::kOperators);
  runs::operators_json(t, 0, true, o);
  strings(o, stats::kOperatorsMissing, t.missing);
}

// "kernels" (Group By Statistic), "kernelCoreTypes" (the core-type pie), "kernelDetails" (Group
// By All: the first kMaxKernelDetails executions), "kernelDetailsTotal", "kernelsMissing".
void kernels(std::string* o, const runs::KernelTable& t) {
  key(o, stats::kKernels);
  runs::kernels_json(t, 0, o);
  key(o, stats::kKernelCoreTypes);
  *o += '[';
  for (size_t i = 0; i < t.by_core_type.size(); ++i) {
    const runs::KernelGroup& g = t.by_core_type[i];
    if (i) *o += ',';
    *o += '{';
    json_append_string(o, kernel::kName);
    *o += ':';
    json_append_string(o, g.key);
    key(o, kernel::kCount);
    json_append_int(o, static_cast<int64_t>(g.count));
    key(o, kernel::kTotalUs);
    json_append_number(o, g.total_us);
    *o += '}';
  }
  *o += ']';
  key(o, stats::kKernelDetails);
  *o += '[';
  const size_t n = std::min(t.details.size(), kMaxKernelDetails);
  for (size_t i = 0; i < n; ++i) {
    const runs::KernelDetail& d = t.details[i];
    if (i) *o += ',';
    *o += '{';
    json_append_string(o, detail::kName);
    *o += ':';
    json_append_string(o, d.name);
    const std::pair<std::string_view, const std::string*> texts[] = {
        {detail::kType, &d.type}, {detail::kCoreType, &d.core_type}, {detail::kStep, &d.step}};
    for (const auto& [k, v] : texts) {
      key(o, k);
      json_append_string(o, *v);
    }
    const std::pair<std::string_view, double> nums[] = {{detail::kStartUs, d.start_us},
                                                        {detail::kDurationUs, d.duration_us},
                                                        {detail::kWaitUs, d.wait_us},
                                                        {detail::kBlockDim, d.block_dim}};
    for (const auto& [k, v] : nums) {
      key(o, k);
      json_append_number(o, v);
    }
    *o += '}';
  }
  *o += ']';
  key(o, stats::kKernelDetailsTotal);
  json_append_int(o, static_cast<int64_t>(t.details.size()));
  strings(o, stats::kKernelsMissing, t.missing);
}

void distributed(std::string* o, const std::vector<runs::DistributedRow>& rows) {
  runs::DistributedTable t;
  t.rows = rows;
  key(o, stats::kDistributed);
  runs::distributed_json(t, o);
}

void append_error(std::vector<std::string>* errors, const std::string& file, std::string* e) {
  if (!e->empty()) errors->push_back(file + ": " + *e);
  e->clear();
}

// A reply's start: `{"ok":true` (its tables follow, each after a comma).
std::string ok_reply() {
  std::string o = "{";
  json_append_string(&o, stats::kOk);
  return o + ":true";
}

std::string finish(std::string o, const std::vector<std::string>& errors) {
  strings(&o, stats::kErrors, errors);
  return o + '}';
}

}  // namespace

uint8_t* RunsSession::buffer(size_t n) {
  buf_.resize(n);
  return buf_.data();
}

std::string RunsSession::trace_head_json(size_t n) const {
  namespace k = protocol::keys::runs_stats;
  const TraceRank r = trace_head_rank_of_file(buf_.data(), std::min(n, buf_.size()));
  std::string o;
  protocol::append_key(&o, k::kRank, '{');
  json_append_int(&o, r.rank);
  protocol::append_key(&o, k::kWorldSize);
  json_append_int(&o, r.world_size);
  protocol::append_key(&o, k::kErrors);
  return o + "[]}";
}

void RunsSession::put(std::string_view key_name, size_t n) {
  if (key_name.size() > 3 && key_name.substr(key_name.size() - 3) == ".db") {
    put_ascend_db(key_name, n);
    return;
  }
  texts_[std::string(key_name)].assign(reinterpret_cast<const char*>(buf_.data()),
                                       std::min(n, buf_.size()));
  std::vector<uint8_t>().swap(buf_);
}

// An Ascend profiler db stands for the text export's files of its profile: they are written from
// its tables under the same prefix ("a/", "card1/"), so every table reads them as it reads the
// CSVs. A db that cannot be read leaves them absent and says why in the tables' warnings.
void RunsSession::put_ascend_db(std::string_view key_name, size_t n) {
  const size_t slash = key_name.rfind('/');
  const std::string prefix(slash == std::string_view::npos ? std::string_view()
                                                           : key_name.substr(0, slash + 1));
  MemoryByteReader bytes(buf_.data(), std::min(n, buf_.size()));
  std::string error;
  AscendDbRunFiles files;
  std::unique_ptr<SqliteDb> db = SqliteDb::open(&bytes, &error);
  if (db && ascend_db_run_files(db.get(), &files, &error)) {
    texts_[prefix + "kernel_details.csv"] = std::move(files.kernel_details_csv);
    texts_[prefix + "operator_details.csv"] = std::move(files.operator_details_csv);
    texts_[prefix + "step_trace_time.csv"] = std::move(files.step_trace_time_csv);
    texts_[prefix + "communication.json"] = std::move(files.communication_json);
  } else {
    db_errors_.push_back(std::string(key_name.substr(slash + 1)) + ": " + error);
  }
  db.reset();
  std::vector<uint8_t>().swap(buf_);
}

const std::string& RunsSession::text(const std::string& k) const {
  static const std::string kEmpty;
  auto it = texts_.find(k);
  return it == texts_.end() ? kEmpty : it->second;
}

runs::RecordLookup RunsSession::record_lookup() const {
  if (record_of_.empty()) return nullptr;
  return [this](uint32_t event) -> std::string_view {
    auto it = record_of_.find(event);
    return it == record_of_.end() ? std::string_view()
                                  : std::string_view(records_.record(it->second));
  };
}

std::string RunsSession::ascend_stats_json(bool group_by_shape, std::string_view step_view,
                                           int cards) const {
  // Only the tables whose files were put: the page reads what the shown view needs.
  const std::string step(step_view);
  std::vector<std::string> errors = db_errors_;
  std::string e;
  std::string o = ok_reply();
  runs::OperatorTable ops;
  if (!text("a/operator_details.csv").empty()) {
    ops = runs::ascend_operator_table(text("a/operator_details.csv"), group_by_shape, &e);
    append_error(&errors, "operator_details.csv", &e);
  }
  operators(&o, ops);
  runs::KernelTable k;
  if (!text("a/kernel_details.csv").empty()) {
    k = runs::ascend_kernel_table(text("a/kernel_details.csv"), text("a/op_statistic.csv"), step,
                                  &e);
    append_error(&errors, "kernel_details.csv", &e);
  }
  kernels(&o, k);
  std::vector<runs::DistributedRow> rows;
  for (int c = 0; c < cards; ++c) {
    const std::string prefix = "card" + std::to_string(c) + "/";
    const std::string& stt = text(prefix + "step_trace_time.csv");
    if (stt.empty()) continue;
    const runs::DistributedTable t =
        runs::ascend_card_distributed(c, stt, text(prefix + "communication.json"), step, &e);
    append_error(&errors, prefix + "step_trace_time.csv", &e);
    rows.insert(rows.end(), t.rows.begin(), t.rows.end());
  }
  distributed(&o, rows);
  return finish(std::move(o), errors);
}

uint32_t RunsSession::records_begin() {
  const TraceStore& s = *engine_.store();
  std::vector<MemoryScan::Want> wants;
  for (uint32_t e : runs::trace_events_with_args(s))
    if (e < s.events.size() && s.events.src_len[e] > 0)
      wants.push_back({s.events.src_offset[e], s.events.src_len[e], e});
  records_.begin(compression_named(s.files.empty() ? "none" : s.files[0].compression),
                 std::move(wants));
  record_of_.clear();
  return static_cast<uint32_t>(records_.size());
}

bool RunsSession::records_commit(size_t n) {
  const bool done = records_.feed(buf_.data(), std::min(n, buf_.size()));
  if (done && record_of_.empty())
    for (size_t i = 0; i < records_.size(); ++i) record_of_[records_.want(i).event] = i;
  return done;
}

void RunsSession::records_clear() {
  records_.begin(Compression::kNone, {});
  record_of_.clear();
}

void RunsSession::trace_keep(std::string_view slot, bool group_by_shape) {
  const TraceStore& store = *engine_.store();
  KeptSide& k = kept_[std::string(slot)];
  k.ops = runs::trace_operator_table(store, record_lookup(), group_by_shape);
  k.steps = runs::trace_step_op_times(store);
}

std::string RunsSession::diff_json(bool group_by_shape, std::string_view step_view) {
  const std::string step(step_view);
  std::vector<std::string> errors;
  std::string e;
  std::string o = ok_reply();
  KeptSide side[2];
  const char* names[2] = {"a", "b"};
  for (int i = 0; i < 2; ++i) {
    auto it = kept_.find(names[i]);
    if (it != kept_.end()) {
      side[i] = std::move(it->second);
      continue;
    }
    const std::string pre = std::string(names[i]) + "/";
    side[i].ops =
        runs::ascend_operator_table(text(pre + "operator_details.csv"), group_by_shape, &e);
    append_error(&errors, pre + "operator_details.csv", &e);
    if (!text(pre + "kernel_details.csv").empty()) {
      side[i].steps = runs::ascend_step_op_times(text(pre + "kernel_details.csv"), &e);
      append_error(&errors, pre + "kernel_details.csv", &e);
    }
  }
  kept_.clear();
  key(&o, stats::kOperatorDiff);
  runs::operator_diff_json(runs::diff_operators(side[0].ops, side[1].ops), 0, &o);
  std::vector<std::string> steps = side[0].steps.steps;
  for (const std::string& s : side[1].steps.steps)
    if (std::find(steps.begin(), steps.end(), s) == steps.end()) steps.push_back(s);
  key(&o, stats::kStepDiff);
  runs::step_diff_json(runs::step_diff(side[0].steps, side[1].steps, step), &o);
  strings(&o, stats::kSteps, steps);
  return finish(std::move(o), errors);
}

std::string RunsSession::trace_stats_json(bool group_by_shape, int card) const {
  const TraceStore& store = *engine_.store();
  std::string o = ok_reply();
  operators(&o, runs::trace_operator_table(store, record_lookup(), group_by_shape));
  kernels(&o, runs::trace_kernel_table(store));
  distributed(&o, {runs::trace_distributed(store, card)});
  return finish(std::move(o), {});
}

}  // namespace strata
