// Chrome JSON importer: several files in one load, the Kineto traces of one run's ranks.
//
// Each file's framing starts over while the store and the builder go on, so all ranks share one
// time axis: Kineto writes ts in µs of the system clock, absolute in older traces and relative
// to `baseTimeNanoseconds` (the clock floored to a fixed boundary, the same on every rank of a
// run) in newer ones; ranks line up as they ran. When the files' bases differ, events are shown
// as written and a warning says by how much they are off.
//
// What a file's ids mean is its own: a later file's processes are keyed by (file, pid) (two
// ranks' pid 4037 stay two processes), its flows and async ids by file, its stack frame ids by
// file; record locators count the files' bytes one after the other (SourceFile::stream_base).
// With several files, each process is named after its file's section group: "rank <N>" from
// the file's distributedInfo.rank, else the file's name, and sorted by file.
#include <algorithm>
#include <cstring>

#include "core/formats/chrome_json/chrome_json_importer_impl.h"

namespace strata::chrome_json {

namespace {

std::string file_stem(std::string name) {
  for (const char* ext : {".gz", ".zst", ".json", ".pt.trace"})
    if (name.size() > std::strlen(ext) &&
        name.compare(name.size() - std::strlen(ext), std::string::npos, ext) == 0)
      name.resize(name.size() - std::strlen(ext));
  return name;
}

}  // namespace

bool ChromeJsonImporter::next_file() {
  if (finished_) return false;
  end_of_input();
  report_problems();
  prefix_file_messages();
  ++file_;
  file_base_ = total_;
  if (file_ < store_->files.size()) store_->files[file_].stream_base = file_base_;
  state_ = State::kHead;
  section_ = Section::kEvents;
  head_len_ = 0;
  object_form_ = saw_events_member_ = false;
  capturing_ = false;
  key_.clear();
  unit_.clear();
  frame_key_.clear();
  std::string().swap(carry_);
  carry_keep_ = false;
  for (TrackSlot& c : track_cache_) c.track = kNone;  // (pid, tid) texts name new threads now
  return true;
}

// Several files: messages about file i (added while it was read) start with its name.
void ChromeJsonImporter::prefix_file_messages() {
  const bool several = file_ > 0 || store_->files.size() > 1;
  if (several && file_ < store_->files.size()) {
    const std::string prefix = store_->files[file_].name + ": ";
    for (size_t i = errors_mark_; i < store_->errors.size(); ++i)
      store_->errors[i].insert(0, prefix);
    for (size_t i = warnings_mark_; i < store_->warnings.size(); ++i)
      store_->warnings[i].insert(0, prefix);
  }
  errors_mark_ = store_->errors.size();
  warnings_mark_ = store_->warnings.size();
}

void ChromeJsonImporter::top_level_value_done() {
  if (key_ == "baseTimeNanoseconds") {
    int64_t ns = 0;
    if (!json::parse_int64(capture_, &ns)) return;
    if (base_time_ns_.size() <= file_) base_time_ns_.resize(file_ + 1, -1);
    base_time_ns_[file_] = ns;
    return;
  }
  // distributedInfo: {"backend": "nccl", "rank": 0, "world_size": 8, ...}
  if (capture_.empty() || capture_.front() != '{' || file_ >= store_->files.size()) return;
  args_.reset(capture_);
  while (args_.next()) {
    int64_t rank = 0;
    if (args_.key() == "rank" && args_.kind() == ObjectReader::Kind::kNumber &&
        json::parse_int64(args_.value(), &rank) && rank >= 0)
      store_->files[file_].rank = rank;
  }
}

void ChromeJsonImporter::name_file_groups() {
  TraceStore& s = *store_;
  std::vector<std::string> groups;
  for (SourceFile& f : s.files) {
    const std::string base =
        f.rank >= 0 ? "rank " + std::to_string(f.rank) : sanitize_utf8(file_stem(f.name));
    std::string g = base;
    for (int k = 2; std::find(groups.begin(), groups.end(), g) != groups.end(); ++k)
      g = base + " #" + std::to_string(k);
    groups.push_back(g);
    f.group = g;
  }
  // Within its file, a process keeps the place it has when the file is opened alone (the
  // builder's order: sort index first, then pid).
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < s.processes.size(); ++i)
    if (!s.processes[i].global && s.processes[i].file < groups.size()) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Process& x = s.processes[a];
    const Process& y = s.processes[b];
    if (x.file != y.file) return x.file < y.file;
    if (x.has_sort_index != y.has_sort_index) return x.has_sort_index;
    if (x.sort_index != y.sort_index) return x.sort_index < y.sort_index;
    if (x.pid != y.pid) return x.pid < y.pid;
    return x.key < y.key;
  });
  for (size_t k = 0; k < order.size(); ++k) {
    const uint32_t i = order[k];
    const Process& p = s.processes[i];
    const std::string own =
        p.name ? std::string(s.strings.get(p.name))
               : (p.key.empty() ? std::string("Process (no pid)") : "Process " + p.key);
    builder_.set_process_name(i, builder_.strings().intern(groups[p.file] + " " + own));
    builder_.set_process_sort_index(i, static_cast<int64_t>(k));
  }
  if (!base_time_ns_.empty()) {
    base_time_ns_.resize(s.files.size(), -1);
    for (size_t f = 1; f < s.files.size(); ++f) {
      if (base_time_ns_[f] < 0 || base_time_ns_[0] < 0 || base_time_ns_[f] == base_time_ns_[0])
        continue;
      const double ms = static_cast<double>(base_time_ns_[f] - base_time_ns_[0]) / 1e6;
      builder_.warning(s.files[f].group + ": its clock base (baseTimeNanoseconds) differs from " +
                       s.files[0].group + "'s by " + std::to_string(ms) +
                       " ms; its events are shown as written, not aligned");
    }
  }
}

}  // namespace strata::chrome_json
