#include "core/formats/sqlite/ascend_db.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata {

namespace {

// torch_npu writes the host times of PYTORCH_API as text; every time is ns since the epoch.
int64_t time_of(const SqliteStatement& s, int col) {
  if (s.null(col)) return 0;
  return s.i64(col);  // SQLite converts a decimal text to its integer
}

class AscendImport {
 public:
  AscendImport(SqliteDb* db, TraceBuilder* b) : db_(db), b_(b) {}

  void run() {
    read_strings();
    read_api_types();
    python_ = process("Python", 0);
    cann_ = process("CANN", 7);
    hardware_ = process("Ascend Hardware", 13);
    hccl_ = process("HCCL", 15);
    b_->add_process_label(python_, b_->strings().intern("CPU"));
    b_->add_process_label(cann_, b_->strings().intern("CPU"));
    b_->add_process_label(hardware_, b_->strings().intern("NPU"));
    b_->add_process_label(hccl_, b_->strings().intern("NPU"));
    read_task_names();
    read_comm_tasks();
    read_pytorch_connections();
    pytorch();
    cann();
    tasks();
    communication();
    memory();
  }
  uint64_t events() const { return events_; }

 private:
  StrId str(int64_t id) {
    auto it = strings_.find(id);
    return it == strings_.end() ? b_->strings().intern(std::to_string(id)) : it->second;
  }
  StrId intern(std::string_view s) { return b_->strings().intern(s); }

  void read_strings() {
    SqliteStatement s = db_->select("STRING_IDS", {"id", "value"});
    while (s.step()) strings_[s.i64(0)] = intern(s.text(1));
  }
  void read_api_types() {
    SqliteStatement s = db_->select("ENUM_API_TYPE", {"id", "name"});
    while (s.step()) api_types_[s.i64(0)] = intern(s.text(1));
  }
  StrId api_type(int64_t id) {
    auto it = api_types_.find(id);
    return it == api_types_.end() ? intern("api") : it->second;
  }

  // The text export's processes: fixed keys, sort indices as torch_npu writes them.
  uint32_t process(std::string_view name, int64_t sort) {
    const uint32_t p = b_->process(name, 0);
    b_->set_process_name(p, intern(name));
    b_->set_process_sort_index(p, sort);
    return p;
  }
  uint32_t thread(uint32_t proc, int64_t tid, std::string_view label) {
    const uint64_t key = uint64_t{proc} << 40 | static_cast<uint64_t>(tid & 0xffffffffff);
    if (key == last_thread_key_ && last_thread_ != kNoTrack) return last_thread_;
    last_thread_key_ = key;
    last_thread_ = thread_of(key, proc, tid, label);
    return last_thread_;
  }
  uint32_t thread_of(uint64_t key, uint32_t proc, int64_t tid, std::string_view label) {
    auto it = threads_.find(key);
    if (it != threads_.end()) return it->second;
    const uint32_t t = b_->thread_track(proc, std::to_string(tid), tid);
    b_->set_thread_name(t, intern(std::string(label) + " " + std::to_string(tid)));
    b_->set_thread_sort_index(t, tid);
    threads_[key] = t;
    return t;
  }

  void read_task_names() {
    SqliteStatement c = db_->select("COMPUTE_TASK_INFO", {"globalTaskId", "name"});
    while (c.step()) task_names_[c.i64(0)] = str(c.i64(1));
    SqliteStatement m = db_->select("COMMUNICATION_TASK_INFO", {"globalTaskId", "name"});
    while (m.step()) task_names_.emplace(m.i64(0), str(m.i64(1)));
  }
  // What each communication task moved and over what (core/store/ascend_task_args.h): its
  // task type, transport and link by the enum tables' names, its size in bytes.
  void read_comm_tasks() {
    std::unordered_map<int64_t, std::string> transports, links;
    SqliteStatement t = db_->select("ENUM_HCCL_TRANSPORT_TYPE", {"id", "name"});
    while (t.step()) transports[t.i64(0)] = std::string(t.text(1));
    SqliteStatement l = db_->select("ENUM_HCCL_LINK_TYPE", {"id", "name"});
    while (l.step()) links[l.i64(0)] = std::string(l.text(1));
    SqliteStatement m =
        db_->select("COMMUNICATION_TASK_INFO",
                    {"globalTaskId", "taskType", "transportType", "linkType", "size"});
    while (m.step()) {
      AscendTaskArgs a;
      a.task_type = b_->strings().get(str(m.i64(1)));
      if (auto it = transports.find(m.i64(2)); it != transports.end()) a.transport = it->second;
      if (auto it = links.find(m.i64(3)); it != links.end()) a.link = it->second;
      if (!m.null(4) && m.i64(4) >= 0) a.size_bytes = m.i64(4);
      comm_tasks_.emplace(m.i64(0), std::move(a));
    }
  }
  // A PyTorch op's connectionId names a row group of CONNECTION_IDS: the CANN connections
  // (and so the tasks) it caused.
  void read_pytorch_connections() {
    SqliteStatement s = db_->select("CONNECTION_IDS", {"id", "connectionId"});
    while (s.step()) op_connections_.emplace_back(s.i64(0), s.i64(1));
    // Stable: an op's connections keep the table's order (their flows are added in it).
    if (!std::is_sorted(op_connections_.begin(), op_connections_.end(), by_op))
      std::stable_sort(op_connections_.begin(), op_connections_.end(), by_op);
  }
  static bool by_op(const std::pair<int64_t, int64_t>& a, const std::pair<int64_t, int64_t>& b) {
    return a.first < b.first;
  }
  // The key of "<kind> <connection>", written on the stack: it is made for most rows.
  static uint64_t flow_key(std::string_view kind, int64_t connection) {
    char text[48];
    const size_t n = std::min(kind.size(), sizeof(text) - 24);
    std::memcpy(text, kind.data(), n);
    text[n] = ' ';
    const std::to_chars_result r = std::to_chars(text + n + 1, text + sizeof(text), connection);
    return TraceBuilder::flow_key(std::string_view(text, static_cast<size_t>(r.ptr - text)));
  }

  void pytorch() {
    SqliteStatement s = db_->select(
        "PYTORCH_API", {"startNs", "endNs", "globalTid", "connectionId", "name", "type"});
    const StrId flow = intern("async_npu");
    while (s.step()) {
      const TimeNs start = time_of(s, 0), end = time_of(s, 1);
      const uint32_t t = thread(python_, s.i64(2) & 0xffffffff, "Thread");
      b_->add_complete(t, start, end - start, str(s.i64(4)), api_type(s.i64(5)), ++locator_, 0);
      ++events_;
      if (s.null(3)) continue;
      const std::pair<int64_t, int64_t> op{s.i64(3), 0};
      auto [from, to] = std::equal_range(op_connections_.begin(), op_connections_.end(), op, by_op);
      for (auto it = from; it != to; ++it) {
        const int64_t c = it->second;
        task_connections_.emplace(c, 0);
        b_->add_flow(flow_key("async_npu", c), t, 's', false, start, flow, flow);
      }
    }
  }

  void cann() {
    SqliteStatement s =
        db_->select("CANN_API", {"startNs", "endNs", "globalTid", "connectionId", "name", "type"});
    const StrId flow = intern("HostToDevice");
    while (s.step()) {
      const TimeNs start = time_of(s, 0), end = time_of(s, 1);
      const uint32_t t = thread(cann_, s.i64(2) & 0xffffffff, "Thread");
      b_->add_complete(t, start, end - start, str(s.i64(4)), api_type(s.i64(5)), ++locator_, 0);
      ++events_;
      if (!s.null(3)) {
        cann_connections_[s.i64(3)] = 1;
        b_->add_flow(flow_key("HostToDevice", s.i64(3)), t, 's', false, start, flow, flow);
      }
    }
  }

  void tasks() {
    SqliteStatement s = db_->select(
        "TASK", {"startNs", "endNs", "streamId", "connectionId", "globalTaskId", "taskType"});
    const StrId h2d = intern("HostToDevice"), npu = intern("async_npu");
    while (s.step()) {
      const TimeNs start = time_of(s, 0), end = time_of(s, 1);
      const uint32_t t = thread(hardware_, s.i64(2), "Stream");
      auto n = task_names_.find(s.i64(4));
      const StrId name = n != task_names_.end() ? n->second : str(s.i64(5));
      b_->add_complete(t, start, end - start, name, 0, ++locator_, 0);
      ++events_;
      auto comm = comm_tasks_.find(s.i64(4));
      AscendTaskArgs a = comm != comm_tasks_.end() ? comm->second : AscendTaskArgs{};
      if (comm == comm_tasks_.end()) a.task_type = b_->strings().get(str(s.i64(5)));
      a.src_offset = locator_;
      b_->store().ascend_tasks.add(std::move(a));
      if (s.null(3)) continue;
      const int64_t c = s.i64(3);
      if (cann_connections_.count(c))
        b_->add_flow(flow_key("HostToDevice", c), t, 'f', false, start, h2d, h2d);
      auto p = task_connections_.find(c);
      if (p != task_connections_.end() && p->second == 0) {
        p->second = 1;  // one flow end per PyTorch connection: the first task
        b_->add_flow(flow_key("async_npu", c), t, 'f', false, start, npu, npu);
      }
    }
  }

  void communication() {
    SqliteStatement s =
        db_->select("COMMUNICATION_OP", {"startNs", "endNs", "opName", "groupName"});
    while (s.step()) {
      const TimeNs start = time_of(s, 0), end = time_of(s, 1);
      const int64_t group = s.null(3) ? 0 : s.i64(3);
      auto g = groups_.find(group);
      if (g == groups_.end())
        g = groups_.emplace(group, static_cast<int64_t>(groups_.size())).first;
      const uint32_t t = thread(hccl_, g->second, "Group");
      b_->add_complete(t, start, end - start, str(s.i64(2)), intern("hccl"), ++locator_, 0);
      ++events_;
    }
  }

  // Counters the Memory tab reads: byte-valued series ("(B)") on tracks named for memory.
  void memory() {
    const uint32_t proc = process("NPU MEM", 19);
    b_->add_process_label(proc, intern("NPU"));
    SqliteStatement r = db_->select(
        "MEMORY_RECORD", {"timestamp", "component", "totalAllocated", "totalReserved", "deviceId"});
    const StrId allocated = intern("Allocated (B)"), reserved = intern("Reserved (B)");
    std::unordered_map<int64_t, uint32_t> tracks;
    while (r.step()) {
      const int64_t comp = r.i64(1);
      auto it = tracks.find(comp);
      if (it == tracks.end())
        it = tracks
                 .emplace(comp, b_->counter_track(
                                    proc, "Memory " + std::string(b_->strings().get(str(comp))) +
                                              " device " + std::to_string(r.i64(4))))
                 .first;
      b_->add_counter(it->second, allocated, time_of(r, 0), static_cast<double>(r.i64(2)));
      b_->add_counter(it->second, reserved, time_of(r, 0), static_cast<double>(r.i64(3)));
      ++events_;
    }
    SqliteStatement m = db_->select("NPU_MEM", {"timestampNs", "hbm", "ddr", "deviceId"});
    const StrId hbm = intern("HBM (B)"), ddr = intern("DDR (B)");
    std::unordered_map<int64_t, uint32_t> devices;
    while (m.step()) {
      auto it = devices.find(m.i64(3));
      if (it == devices.end())
        it = devices
                 .emplace(m.i64(3),
                          b_->counter_track(proc, "NPU memory device " + std::to_string(m.i64(3))))
                 .first;
      b_->add_counter(it->second, hbm, time_of(m, 0), m.f64(1));
      b_->add_counter(it->second, ddr, time_of(m, 0), m.f64(2));
      ++events_;
    }
  }

  SqliteDb* db_;
  TraceBuilder* b_;
  std::unordered_map<int64_t, StrId> strings_, api_types_, task_names_;
  std::vector<std::pair<int64_t, int64_t>> op_connections_;  // (PyTorch op, CANN connection)
  std::unordered_map<int64_t, int> task_connections_, cann_connections_;
  std::unordered_map<int64_t, int64_t> groups_;
  std::unordered_map<int64_t, AscendTaskArgs> comm_tasks_;  // by globalTaskId
  std::unordered_map<uint64_t, uint32_t> threads_;
  static constexpr uint32_t kNoTrack = ~uint32_t{0};
  uint64_t last_thread_key_ = 0;
  uint32_t last_thread_ = kNoTrack;
  uint32_t python_ = 0, cann_ = 0, hardware_ = 0, hccl_ = 0;
  uint64_t locator_ = 0, events_ = 0;
};

}  // namespace

bool is_ascend_profiler_db(const SqliteDb& db) {
  return db.has_table("STRING_IDS") &&
         (db.has_table("TASK") || db.has_table("PYTORCH_API") || db.has_table("CANN_API"));
}

bool is_ascend_analysis_db(const SqliteDb& db) {
  return db.has_table("StepTraceTime") || db.has_table("CommAnalyzerTime");
}

bool import_ascend_db(SqliteDb* db, TraceBuilder* b, std::string* error) {
  AscendImport imp(db, b);
  imp.run();
  if (!db->error().empty()) {
    *error = "the Ascend profiler database is damaged or cut short: " + db->error();
    return false;
  }
  if (imp.events() == 0) {
    *error = "this Ascend profiler database holds no PyTorch, CANN or device task records";
    return false;
  }
  return true;
}

}  // namespace strata
