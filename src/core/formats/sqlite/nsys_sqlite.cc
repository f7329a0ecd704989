#include "core/formats/sqlite/nsys_sqlite.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace strata {

namespace {

constexpr std::string_view kKernels = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr std::string_view kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME";
constexpr std::string_view kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY";
constexpr std::string_view kMemset = "CUPTI_ACTIVITY_KIND_MEMSET";
constexpr std::string_view kNvtx = "NVTX_EVENTS";

// NVTX event types (ENUM_NSYS_EVENT_TYPE): marks, push/pop and start/end ranges, C and
// NVTXT variants.
constexpr int64_t kNvtxMark = 34, kNvtxPushPop = 59, kNvtxStartEnd = 60, kNvtxtMark = 65,
                  kNvtxtPushPop = 70, kNvtxtStartEnd = 71;

class NsysImport {
 public:
  NsysImport(SqliteDb* db, TraceBuilder* b) : db_(db), b_(b) {}

  void run() {
    read_strings();
    read_names();
    cat_kernel_ = b_->strings().intern("kernel");
    cat_memcpy_ = b_->strings().intern("gpu_memcpy");
    cat_memset_ = b_->strings().intern("gpu_memset");
    cat_runtime_ = b_->strings().intern("cuda_runtime");
    cat_nvtx_ = b_->strings().intern("nvtx");
    flow_name_ = b_->strings().intern("ac2g");
    kernels();
    copies(kMemcpy);
    copies(kMemset);
    runtime();
    nvtx();
  }
  uint64_t events() const { return events_; }

 private:
  StrId str(int64_t id) {
    auto it = string_ids_.find(id);
    return it == string_ids_.end() ? b_->strings().intern("?") : it->second;
  }

  void read_strings() {
    SqliteStatement s = db_->select("StringIds", {"id", "value"});
    while (s.step()) string_ids_[s.i64(0)] = b_->strings().intern(s.text(1));
  }

  void read_names() {
    SqliteStatement p = db_->select("PROCESSES", {"pid", "name"});
    while (p.step()) process_names_[p.i64(0)] = std::string(p.text(1));
    SqliteStatement t = db_->select("ThreadNames", {"globalTid", "nameId"});
    while (t.step()) thread_names_[t.i64(0)] = str(t.i64(1));
    SqliteStatement g = db_->select("TARGET_INFO_GPU", {"id", "name"});
    while (g.step()) gpu_names_[g.i64(0)] = std::string(g.text(1));
  }

  uint32_t host_track(int64_t global_tid) {
    auto it = host_tracks_.find(global_tid);
    if (it != host_tracks_.end()) return it->second;
    const int64_t pid = nsys_pid(global_tid), tid = nsys_tid(global_tid);
    const uint32_t proc = b_->process(std::to_string(pid), pid);
    auto pn = process_names_.find(pid);
    if (pn != process_names_.end() && !pn->second.empty())
      b_->set_process_name(proc, b_->strings().intern(pn->second));
    const uint32_t t = b_->thread_track(proc, std::to_string(tid), tid);
    auto tn = thread_names_.find(global_tid);
    if (tn != thread_names_.end()) b_->set_thread_name(t, tn->second);
    host_tracks_[global_tid] = t;
    return t;
  }

  // One process per GPU (after the host processes: GPU pids are far above real ones), one
  // track per stream.
  uint32_t gpu_track(int64_t device, int64_t stream) {
    const int64_t key = device << 32 | (stream & 0xffffffff);
    auto it = gpu_tracks_.find(key);
    if (it != gpu_tracks_.end()) return it->second;
    const std::string pkey = "gpu " + std::to_string(device);
    const uint32_t proc = b_->process(pkey, device);
    auto gn = gpu_names_.find(device);
    std::string name = "GPU " + std::to_string(device);
    if (gn != gpu_names_.end() && !gn->second.empty()) name += " " + gn->second;
    b_->set_process_name(proc, b_->strings().intern(name));
    b_->set_process_sort_index(proc, (int64_t{1} << 40) + device);
    if (seen_devices_.insert(device).second) b_->add_device();
    const uint32_t t = b_->thread_track(proc, "stream " + std::to_string(stream), stream);
    b_->set_thread_name(t, b_->strings().intern("Stream " + std::to_string(stream)));
    gpu_tracks_[key] = t;
    return t;
  }

  // The events are in the store without a JSON record; a distinct locator per event keys the
  // kernel launch table (src_len 0: no record to re-read).
  uint64_t next_locator() { return ++locator_; }

  void gpu_flow_end(int64_t correlation, uint32_t track, TimeNs start) {
    if (correlation <= 0) return;
    launched_.insert(correlation);
    b_->add_flow(flow_key(correlation), track, 'f', false, start, flow_name_, flow_name_);
  }
  static uint64_t flow_key(int64_t correlation) {
    return TraceBuilder::flow_key("ac2g " + std::to_string(correlation));
  }

  void kernels() {
    SqliteStatement s = db_->select(
        kKernels, {"start", "end", "deviceId", "streamId", "correlationId", "demangledName",
                   "shortName", "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
                   "registersPerThread", "staticSharedMemory", "dynamicSharedMemory"});
    std::vector<KernelLaunch>& rows = b_->store().kernel_launches.rows;
    while (s.step()) {
      const TimeNs start = s.i64(0), end = s.i64(1);
      const uint32_t t = gpu_track(s.i64(2), s.i64(3));
      const StrId name = str(s.null(5) ? s.i64(6) : s.i64(5));
      const uint64_t loc = next_locator();
      b_->add_complete(t, start, end - start, name, cat_kernel_, loc, 0);
      ++events_;
      KernelLaunch k;
      k.src_offset = loc;
      if (!s.null(7)) {
        for (int d = 0; d < 3; ++d) k.grid[d] = static_cast<uint32_t>(s.i64(7 + d));
        k.has |= KernelLaunch::kGrid;
      }
      if (!s.null(10)) {
        for (int d = 0; d < 3; ++d) k.block[d] = static_cast<uint32_t>(s.i64(10 + d));
        k.has |= KernelLaunch::kBlock;
      }
      if (!s.null(13)) {
        k.registers = static_cast<uint32_t>(s.i64(13));
        k.has |= KernelLaunch::kRegisters;
      }
      if (!s.null(14) || !s.null(15)) {
        k.shared_memory = static_cast<uint64_t>(s.i64(14) + s.i64(15));
        k.has |= KernelLaunch::kSharedMemory;
      }
      rows.push_back(k);
      if (!s.null(4)) gpu_flow_end(s.i64(4), t, start);
    }
    std::sort(rows.begin(), rows.end(), [](const KernelLaunch& a, const KernelLaunch& c) {
      return a.src_offset < c.src_offset;
    });
  }

  // Memcpy (named by its direction, ENUM_CUDA_MEMCPY_OPER) or memset.
  void copies(std::string_view table) {
    const bool memcpy = table == kMemcpy;
    std::unordered_map<int64_t, StrId> kind_names;
    if (memcpy) {
      SqliteStatement e = db_->select("ENUM_CUDA_MEMCPY_OPER", {"id", "label"});
      while (e.step())
        kind_names[e.i64(0)] = b_->strings().intern("Memcpy " + std::string(e.text(1)));
    }
    const StrId plain = b_->strings().intern(memcpy ? "Memcpy" : "Memset");
    SqliteStatement s = db_->select(table, {"start", "end", "deviceId", "streamId", "correlationId",
                                            memcpy ? "copyKind" : "memKind"});
    while (s.step()) {
      const TimeNs start = s.i64(0), end = s.i64(1);
      const uint32_t t = gpu_track(s.i64(2), s.i64(3));
      StrId name = plain;
      if (memcpy) {
        auto k = kind_names.find(s.i64(5));
        if (k != kind_names.end()) name = k->second;
      }
      b_->add_complete(t, start, end - start, name, memcpy ? cat_memcpy_ : cat_memset_,
                       next_locator(), 0);
      ++events_;
      if (!s.null(4)) gpu_flow_end(s.i64(4), t, start);
    }
  }

  void runtime() {
    SqliteStatement s =
        db_->select(kRuntime, {"start", "end", "globalTid", "correlationId", "nameId"});
    while (s.step()) {
      const TimeNs start = s.i64(0), end = s.i64(1);
      const uint32_t t = host_track(s.i64(2));
      b_->add_complete(t, start, end - start, str(s.i64(4)), cat_runtime_, next_locator(), 0);
      ++events_;
      const int64_t corr = s.null(3) ? 0 : s.i64(3);
      if (corr > 0 && launched_.count(corr))
        b_->add_flow(flow_key(corr), t, 's', false, start, flow_name_, flow_name_);
    }
  }

  void nvtx() {
    SqliteStatement s = db_->select(
        kNvtx, {"start", "end", "eventType", "text", "textId", "globalTid", "rangeId", "domainId"});
    while (s.step()) {
      const int64_t type = s.i64(2);
      const TimeNs start = s.i64(0);
      const StrId name = !s.null(3)   ? b_->strings().intern(s.text(3))
                         : !s.null(4) ? str(s.i64(4))
                                      : b_->strings().intern("(unnamed NVTX range)");
      const int64_t gtid = s.null(5) ? 0 : s.i64(5);
      if (type == kNvtxPushPop || type == kNvtxtPushPop) {
        const uint32_t t = host_track(gtid);
        if (s.null(1)) {
          b_->add_instant(t, start, name, cat_nvtx_, next_locator(), 0);
        } else {
          b_->add_complete(t, start, s.i64(1) - start, name, cat_nvtx_, next_locator(), 0);
        }
      } else if (type == kNvtxMark || type == kNvtxtMark) {
        b_->add_instant(host_track(gtid), start, name, cat_nvtx_, next_locator(), 0);
      } else if (type == kNvtxStartEnd || type == kNvtxtStartEnd) {
        // Start/end ranges may cross threads: an async slice of the process.
        host_track(gtid);
        const int64_t pid = nsys_pid(gtid);
        const uint32_t proc = b_->process(std::to_string(pid), pid);
        const uint32_t g =
            b_->async_group("nvtx " + std::to_string(pid) + " " + std::to_string(s.i64(6)), false);
        b_->add_async(g, proc, 'b', start, name, cat_nvtx_, next_locator(), 0);
        if (!s.null(1)) b_->add_async(g, proc, 'e', s.i64(1), name, cat_nvtx_, 0, 0);
      } else {
        continue;  // categories, domain and resource names: not events
      }
      ++events_;
    }
  }

  SqliteDb* db_;
  TraceBuilder* b_;
  std::unordered_map<int64_t, StrId> string_ids_;
  std::unordered_map<int64_t, std::string> process_names_;
  std::unordered_map<int64_t, StrId> thread_names_;
  std::unordered_map<int64_t, std::string> gpu_names_;
  std::unordered_map<int64_t, uint32_t> host_tracks_, gpu_tracks_;
  std::unordered_set<int64_t> seen_devices_, launched_;
  StrId cat_kernel_ = 0, cat_memcpy_ = 0, cat_memset_ = 0, cat_runtime_ = 0, cat_nvtx_ = 0,
        flow_name_ = 0;
  uint64_t locator_ = 0, events_ = 0;
};

}  // namespace

bool is_nsys_db(const SqliteDb& db) {
  return db.has_table("StringIds") &&
         (db.has_table(kKernels) || db.has_table(kRuntime) || db.has_table(kNvtx) ||
          db.has_table("TARGET_INFO_SESSION_START_TIME"));
}

bool import_nsys_db(SqliteDb* db, TraceBuilder* b, std::string* error) {
  NsysImport imp(db, b);
  imp.run();
  if (!db->error().empty()) {
    *error = "the Nsight Systems database is damaged or cut short: " + db->error();
    return false;
  }
  if (imp.events() == 0) {
    *error =
        "this Nsight Systems export holds no CUDA kernels, memory copies, runtime calls or NVTX "
        "ranges (the capture recorded none of what Strata draws)";
    return false;
  }
  return true;
}

}  // namespace strata
