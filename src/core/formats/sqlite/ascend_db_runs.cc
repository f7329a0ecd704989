#include "core/formats/sqlite/ascend_db_runs.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <unordered_map>
#include <vector>

#include "core/base/json_writer.h"
#include "core/base/text.h"
#include "core/formats/sqlite/ascend_db.h"

namespace strata {

namespace {

// ns → "µs.fff" exactly (epoch ns do not fit a double's 53 bits).
std::string us_text(int64_t ns) {
  const bool neg = ns < 0;
  const uint64_t v = neg ? uint64_t(0) - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%llu.%03llu", neg ? "-" : "",
                static_cast<unsigned long long>(v / 1000),
                static_cast<unsigned long long>(v % 1000));
  return buf;
}

std::string ms_text(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(ns) / 1e6);
  return buf;
}

// A CSV cell, quoted when it holds a separator, a quote or a line break.
void cell(std::string* o, std::string_view v, bool last = false) {
  if (v.find_first_of(",\"\n\r") == std::string_view::npos) {
    *o += v;
  } else {
    *o += '"';
    for (char c : v) {
      if (c == '"') *o += '"';
      *o += c;
    }
    *o += '"';
  }
  *o += last ? '\n' : ',';
}

int64_t time_of(const SqliteStatement& s, int col) { return s.null(col) ? 0 : s.i64(col); }

struct Step {
  int64_t id = 0, start = 0, end = 0;
};

class RunFilesWriter {
 public:
  explicit RunFilesWriter(SqliteDb* db) : db_(db) {}

  void run(AscendDbRunFiles* out) {
    read_strings();
    read_steps();
    read_tasks();
    out->kernel_details_csv = kernels();
    out->operator_details_csv = operators();
    out->step_trace_time_csv = step_trace();
    out->communication_json = communication();
  }

 private:
  struct Task {
    int64_t start = 0, end = 0, connection = -1, global_id = -1;
  };
  struct ComputeInfo {
    int64_t name = -1, op_type = -1, core = -1, inputs = -1, block_dim = 0, wait_ns = 0;
    bool has_wait = false;
  };

  std::string_view str(int64_t id) const {
    auto it = strings_.find(id);
    return it == strings_.end() ? std::string_view() : std::string_view(it->second);
  }

  void read_strings() {
    SqliteStatement s = db_->select("STRING_IDS", {"id", "value"});
    while (s.step()) strings_[s.i64(0)] = std::string(s.text(1));
  }
  void read_steps() {
    SqliteStatement s = db_->select("STEP_TIME", {"id", "startNs", "endNs"});
    while (s.step()) steps_.push_back({s.i64(0), time_of(s, 1), time_of(s, 2)});
    std::sort(steps_.begin(), steps_.end(),
              [](const Step& a, const Step& b) { return a.start < b.start; });
  }
  // The step holding `ns`, or null.
  const Step* step_of(int64_t ns) const {
    for (const Step& st : steps_)
      if (ns >= st.start && ns <= st.end) return &st;
    return nullptr;
  }
  std::string step_text(int64_t ns) const {
    const Step* st = step_of(ns);
    return st ? std::to_string(st->id) : std::string();
  }

  void read_tasks() {
    SqliteStatement t = db_->select("TASK", {"startNs", "endNs", "connectionId", "globalTaskId"},
                                    "ORDER BY startNs");
    while (t.step()) {
      Task k{time_of(t, 0), time_of(t, 1), t.null(2) ? -1 : t.i64(2), t.null(3) ? -1 : t.i64(3)};
      tasks_.push_back(k);
    }
    for (uint32_t i = 0; i < tasks_.size(); ++i) {
      by_global_[tasks_[i].global_id] = i;
      if (tasks_[i].connection >= 0) by_connection_[tasks_[i].connection].push_back(i);
    }
    SqliteStatement c = db_->select(
        "COMPUTE_TASK_INFO",
        {"globalTaskId", "name", "opType", "taskType", "inputShapes", "blockDim", "waitNs"});
    while (c.step()) {
      ComputeInfo info{c.i64(1),
                       c.i64(2),
                       c.i64(3),
                       c.null(4) ? -1 : c.i64(4),
                       c.null(5) ? 0 : c.i64(5),
                       c.null(6) ? 0 : c.i64(6),
                       !c.null(6)};
      compute_[c.i64(0)] = info;
    }
  }

  bool on_ai_core(const ComputeInfo& c) const {
    const std::string_view core = str(c.core);
    return core == "AI_CORE" || core == "MIX_AIC";
  }

  std::string kernels() const {
    if (compute_.empty()) return {};
    std::string o =
        "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block "
        "Dim,Input Shapes\n";
    for (const Task& k : tasks_) {
      auto it = compute_.find(k.global_id);
      if (it == compute_.end()) continue;
      const ComputeInfo& c = it->second;
      cell(&o, step_text(k.start));
      cell(&o, str(c.name));
      cell(&o, str(c.op_type));
      cell(&o, str(c.core));
      cell(&o, us_text(k.start));
      cell(&o, us_text(k.end - k.start));
      cell(&o, c.has_wait ? us_text(c.wait_ns) : std::string());
      cell(&o, std::to_string(c.block_dim));
      cell(&o, str(c.inputs), true);
    }
    return o;
  }

  // ---- operators ------------------------------------------------------------------------------
  struct Op {
    int64_t start = 0, end = 0, tid = 0, connection = -1, name = -1, shapes = -1, chain = -1;
    int64_t child_host = 0;               // host time of the ops directly nested in it
    int64_t dev_self = 0, dev_total = 0;  // ns
    int64_t ai_self = 0, ai_total = 0;
  };

  std::string operators() {
    if (!db_->has_table("PYTORCH_API")) return {};
    int64_t op_type = -1;
    SqliteStatement e = db_->select("ENUM_API_TYPE", {"id", "name"});
    while (e.step())
      if (e.text(1) == "op") op_type = e.i64(0);
    std::vector<Op> ops;
    SqliteStatement s = db_->select("PYTORCH_API", {"startNs", "endNs", "globalTid", "connectionId",
                                                    "name", "inputShapes", "callchainId", "type"});
    while (s.step()) {
      if (op_type >= 0 && !s.null(7) && s.i64(7) != op_type) continue;
      Op op;
      op.start = time_of(s, 0);
      op.end = time_of(s, 1);
      op.tid = s.null(2) ? 0 : s.i64(2);
      op.connection = s.null(3) ? -1 : s.i64(3);
      op.name = s.i64(4);
      op.shapes = s.null(5) ? -1 : s.i64(5);
      op.chain = s.null(6) ? -1 : s.i64(6);
      ops.push_back(op);
    }
    if (ops.empty()) return {};
    // The device tasks each op launched itself, through CONNECTION_IDS (op → its launches).
    std::unordered_map<int64_t, std::vector<int64_t>> launches;
    SqliteStatement c = db_->select("CONNECTION_IDS", {"id", "connectionId"});
    while (c.step()) launches[c.i64(0)].push_back(c.i64(1));
    for (Op& op : ops) {
      auto l = launches.find(op.connection);
      if (l == launches.end()) continue;
      for (int64_t conn : l->second) {
        auto t = by_connection_.find(conn);
        if (t == by_connection_.end()) continue;
        for (uint32_t i : t->second) {
          const Task& k = tasks_[i];
          op.dev_self += k.end - k.start;
          auto ci = compute_.find(k.global_id);
          if (ci != compute_.end() && on_ai_core(ci->second)) op.ai_self += k.end - k.start;
        }
      }
    }
    // Nesting per thread: by start, the longer first; a stack of the open ops.
    std::vector<uint32_t> order(ops.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      if (ops[a].tid != ops[b].tid) return ops[a].tid < ops[b].tid;
      if (ops[a].start != ops[b].start) return ops[a].start < ops[b].start;
      return ops[a].end > ops[b].end;
    });
    std::vector<uint32_t> parent(ops.size(), UINT32_MAX), stack;
    for (uint32_t i : order) {
      while (!stack.empty() &&
             (ops[stack.back()].tid != ops[i].tid || ops[stack.back()].end < ops[i].end))
        stack.pop_back();
      if (!stack.empty()) parent[i] = stack.back();
      stack.push_back(i);
    }
    for (Op& op : ops) {
      op.dev_total = op.dev_self;
      op.ai_total = op.ai_self;
    }
    // Children before parents: the reverse of the nesting order adds each op into its parent.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const uint32_t p = parent[*it];
      if (p == UINT32_MAX) continue;
      ops[p].child_host += ops[*it].end - ops[*it].start;
      ops[p].dev_total += ops[*it].dev_total;
      ops[p].ai_total += ops[*it].ai_total;
    }
    const std::unordered_map<int64_t, std::string> stacks = call_stacks();
    std::string o =
        "Name,Input Shapes,Call Stack,Host Self Duration(us),Host Total Duration(us),Device Self "
        "Duration(us),Device Total Duration(us),Device Self Duration With AICore(us),Device Total "
        "Duration With AICore(us)\n";
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return ops[a].start < ops[b].start; });
    for (uint32_t i : order) {
      const Op& op = ops[i];
      auto st = stacks.find(op.chain);
      cell(&o, str(op.name));
      cell(&o, str(op.shapes));
      cell(&o, st == stacks.end() ? std::string_view() : std::string_view(st->second));
      cell(&o, us_text(op.end - op.start - op.child_host));
      cell(&o, us_text(op.end - op.start));
      cell(&o, us_text(op.dev_self));
      cell(&o, us_text(op.dev_total));
      cell(&o, us_text(op.ai_self));
      cell(&o, us_text(op.ai_total), true);
    }
    return o;
  }

  // callchainId → "frame;\nframe;..." innermost first, as operator_details.csv writes them.
  std::unordered_map<int64_t, std::string> call_stacks() const {
    std::map<std::pair<int64_t, int64_t>, int64_t> frames;  // (chain, depth) → string id
    SqliteStatement s = db_->select("PYTORCH_CALLCHAINS", {"id", "stack", "stackDepth"});
    while (s.step()) frames[{s.i64(0), s.null(2) ? 0 : s.i64(2)}] = s.i64(1);
    std::unordered_map<int64_t, std::string> out;
    for (const auto& [key, frame] : frames) {
      std::string& st = out[key.first];
      if (!st.empty()) st += ";\n";
      st += str(frame);
    }
    return out;
  }

  // ---- distributed ----------------------------------------------------------------------------
  std::string step_trace() const {
    if (!db_->has_table("OVERLAP_ANALYSIS")) return {};
    std::vector<Step> steps = steps_;
    struct Interval {
      int64_t start, end, type;
    };
    std::vector<Interval> iv;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    SqliteStatement s = db_->select("OVERLAP_ANALYSIS", {"startNs", "endNs", "type"});
    while (s.step()) {
      iv.push_back({time_of(s, 0), time_of(s, 1), s.i64(2)});
      lo = std::min(lo, iv.back().start);
      hi = std::max(hi, iv.back().end);
    }
    if (iv.empty()) return {};
    const bool by_step = !steps.empty();
    if (!by_step) steps.push_back({0, lo, hi});
    std::string o =
        "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage\n";
    for (const Step& st : steps) {
      int64_t sum[4] = {0, 0, 0, 0};
      for (const Interval& i : iv) {
        if (i.type < 0 || i.type > 3) continue;
        const int64_t a = std::max(i.start, st.start), b = std::min(i.end, st.end);
        if (b > a) sum[i.type] += b - a;
      }
      cell(&o, by_step ? std::to_string(st.id) : std::string());
      cell(&o, us_text(sum[0]));
      cell(&o, us_text(sum[2]));
      cell(&o, us_text(sum[1] - sum[2]));
      cell(&o, us_text(sum[1]));
      cell(&o, us_text(sum[3]));
      cell(&o, us_text(sum[0] + sum[2] + sum[3]), true);
    }
    return o;
  }

  std::string communication() const {
    if (!db_->has_table("COMMUNICATION_OP")) return {};
    // Each op's tasks (COMMUNICATION_TASK_INFO.opId), in time order.
    std::unordered_map<int64_t, std::vector<std::pair<int64_t, uint32_t>>> op_tasks;
    SqliteStatement c =
        db_->select("COMMUNICATION_TASK_INFO", {"globalTaskId", "taskType", "opId"});
    while (c.step()) {
      auto t = by_global_.find(c.i64(0));
      if (t == by_global_.end() || c.null(2)) continue;
      op_tasks[c.i64(2)].push_back({c.i64(1), t->second});
    }
    // step → kind → op → times (ns)
    struct Times {
      int64_t start = 0, elapse = 0, transit = 0, wait = 0, sync = 0;
    };
    std::map<std::string, std::map<std::string, std::map<std::string, Times>>> out;
    SqliteStatement s =
        db_->select("COMMUNICATION_OP", {"opName", "startNs", "endNs", "groupName", "opId"});
    while (s.step()) {
      const int64_t start = time_of(s, 1), end = time_of(s, 2);
      std::string name(str(s.i64(0)));
      if (!s.null(3)) name += "@" + std::string(str(s.i64(3)));
      const Step* st = step_of(start);
      const std::string step = st ? "step" + std::to_string(st->id) : std::string("step");
      const std::string lower = ascii_lower(name);
      const bool p2p = lower.find("send") != std::string::npos ||
                       lower.find("receive") != std::string::npos ||
                       lower.find("recv") != std::string::npos;
      Times& t = out[step][p2p ? "p2p" : "collective"][name];
      t.start = start;
      t.elapse += end - start;
      auto tasks = op_tasks.find(s.null(4) ? -1 : s.i64(4));
      if (tasks == op_tasks.end()) continue;
      std::vector<std::pair<int64_t, uint32_t>> list = tasks->second;
      std::sort(list.begin(), list.end(), [&](const auto& a, const auto& b) {
        return tasks_[a.second].start < tasks_[b.second].start;
      });
      bool transferred = false;
      for (const auto& [type, i] : list) {
        const std::string_view kind = str(type);
        const int64_t d = tasks_[i].end - tasks_[i].start;
        if (kind == "Notify_Wait" || kind == "Notify Wait") {
          t.wait += d;
          if (!transferred) t.sync += d;
        } else if (kind != "Notify_Record" && kind != "Notify Record") {
          t.transit += d;
          transferred = true;
        }
      }
    }
    std::string o = "{";
    bool first_step = true;
    for (const auto& [step, kinds] : out) {
      if (!first_step) o += ',';
      first_step = false;
      json_append_string(&o, step);
      o += ":{\"p2p\":{";
      auto ops_json = [&](const std::map<std::string, Times>& ops) {
        bool first = true;
        for (const auto& [name, t] : ops) {
          if (!first) o += ',';
          first = false;
          json_append_string(&o, name);
          o += ":{\"Communication Time Info\":{\"Start Timestamp(us)\":" + us_text(t.start) +
               ",\"Elapse Time(ms)\":" + ms_text(t.elapse) +
               ",\"Transit Time(ms)\":" + ms_text(t.transit) +
               ",\"Wait Time(ms)\":" + ms_text(t.wait) +
               ",\"Synchronization Time(ms)\":" + ms_text(t.sync) +
               ",\"Idle Time(ms)\":" + ms_text(t.elapse - t.transit - t.wait) + "}}";
        }
      };
      auto p = kinds.find("p2p");
      if (p != kinds.end()) ops_json(p->second);
      o += "},\"collective\":{";
      auto col = kinds.find("collective");
      if (col != kinds.end()) ops_json(col->second);
      o += "}}";
    }
    return o + "}";
  }

  SqliteDb* db_;
  std::unordered_map<int64_t, std::string> strings_;
  std::vector<Step> steps_;
  std::vector<Task> tasks_;
  std::unordered_map<int64_t, uint32_t> by_global_;
  std::unordered_map<int64_t, std::vector<uint32_t>> by_connection_;
  std::unordered_map<int64_t, ComputeInfo> compute_;
};

}  // namespace

bool ascend_db_run_files(SqliteDb* db, AscendDbRunFiles* out, std::string* error) {
  if (!is_ascend_profiler_db(*db)) {
    *error = "not an Ascend PyTorch profiler database (ascend_pytorch_profiler_<rank>.db)";
    return false;
  }
  RunFilesWriter(db).run(out);
  if (!db->error().empty()) {
    *error = "the Ascend profiler database is damaged or cut short: " + db->error();
    return false;
  }
  return true;
}

}  // namespace strata
