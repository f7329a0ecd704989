// Chrome JSON importer: the launch parameters of Kineto's GPU kernels (core/store/
// kernel_launches.h), read from the args of records in the "kernel" category only, so the
// cost on the load path is one category comparison per complete event; and the task types and
// communication sizes of an Ascend export's device tasks (core/store/ascend_task_args.h), from
// records without a category whose args name a task type.
#include <algorithm>
#include <cstring>

#include "core/formats/chrome_json/chrome_json_importer_impl.h"

namespace strata::chrome_json {

namespace {

bool is_kernel_category(std::string_view cat) {
  return cat.size() == 6 && (cat[0] == 'k' || cat[0] == 'K') &&
         std::memcmp(cat.data() + 1, "ernel", 5) == 0;
}

bool parse_count(std::string_view text, uint32_t* out) {
  int64_t v = 0;
  if (!json::parse_int64(text, &v) || v < 0 || v > UINT32_MAX) return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

// "[564, 1, 1]" → three counts; false unless it is exactly three non-negative integers.
bool parse_dims(std::string_view text, uint32_t out[3]) {
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') return false;
  text = text.substr(1, text.size() - 2);
  for (int i = 0; i < 3; ++i) {
    const size_t comma = text.find(',');
    if ((i < 2) != (comma != std::string_view::npos)) return false;
    std::string_view part = text.substr(0, comma);
    while (!part.empty() && json::is_ws(part.front())) part.remove_prefix(1);
    while (!part.empty() && json::is_ws(part.back())) part.remove_suffix(1);
    if (!parse_count(part, &out[i])) return false;
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  return true;
}

}  // namespace

void ChromeJsonImporter::note_kernel_launch(const EventRecord& r, uint64_t offset) {
  if (r.args.empty() || !is_kernel_category(r.cat)) return;
  KernelLaunch k;
  k.src_offset = offset;
  args_.reset(r.args);
  while (args_.next()) {
    const std::string_view key = args_.key(), v = args_.value();
    const bool number = args_.kind() == ObjectReader::Kind::kNumber;
    double d = 0;
    if (key == "grid" && parse_dims(v, k.grid)) {
      k.has |= KernelLaunch::kGrid;
    } else if (key == "block" && parse_dims(v, k.block)) {
      k.has |= KernelLaunch::kBlock;
    } else if (key == "registers per thread" && number && parse_count(v, &k.registers)) {
      k.has |= KernelLaunch::kRegisters;
    } else if (key == "shared memory" && number && json::parse_double(v, &d) && d >= 0) {
      k.shared_memory = static_cast<uint64_t>(d);
      k.has |= KernelLaunch::kSharedMemory;
    } else if (key == "est. achieved occupancy %" && number && json::parse_double(v, &d) &&
               d >= 0 && d <= 100) {
      k.occupancy_pct = static_cast<float>(d);
      k.has |= KernelLaunch::kOccupancy;
    }
  }
  if (!k.has) return;
  std::vector<KernelLaunch>& rows = store_->kernel_launches.rows;
  if (rows.empty() || rows.back().src_offset < offset) {
    rows.push_back(k);
  } else {  // not met in one file's records (offsets grow), kept sorted all the same
    auto at = std::lower_bound(rows.begin(), rows.end(), offset,
                               [](const KernelLaunch& a, uint64_t o) { return a.src_offset < o; });
    if (at == rows.end() || at->src_offset != offset) rows.insert(at, k);
  }
}

// NCCL kernels' communication metadata (core/store/collective_args.h), when PyTorch wrote it.
void ChromeJsonImporter::note_collective(const EventRecord& r, uint64_t offset) {
  if (r.args.empty() || !is_kernel_category(r.cat) ||
      r.name.find("ccl") == std::string_view::npos)  // nccl / rccl kernels only
    return;
  CollectiveArgs c;
  c.src_offset = offset;
  bool any = false;
  args_.reset(r.args);
  while (args_.next()) {
    const std::string_view key = args_.key(), v = args_.value();
    if (args_.kind() == ObjectReader::Kind::kOther) continue;
    int64_t n = 0;
    const bool number = args_.kind() == ObjectReader::Kind::kNumber && json::parse_int64(v, &n);
    if (key == "Collective name") {
      c.collective.assign(v);
    } else if (key == "Process Group Name") {
      c.process_group.assign(v);
    } else if (key == "dtype") {
      c.dtype.assign(v);
    } else if (key == "In msg nelems" && number) {
      c.in_nelems = n;
    } else if (key == "Out msg nelems" && number) {
      c.out_nelems = n;
    } else if (key == "Group size" && number) {
      c.group_size = n;
    } else if (key == "Seq" && number) {
      c.seq = n;
    } else {
      continue;
    }
    any = true;
  }
  if (!any) return;
  std::vector<CollectiveArgs>& rows = store_->collectives.rows;
  if (rows.empty() || rows.back().src_offset < offset) {
    rows.push_back(std::move(c));
  } else {
    auto at =
        std::lower_bound(rows.begin(), rows.end(), offset,
                         [](const CollectiveArgs& a, uint64_t o) { return a.src_offset < o; });
    if (at == rows.end() || at->src_offset != offset) rows.insert(at, std::move(c));
  }
}

// torch_npu's trace_view.json: Ascend Hardware slices carry "Task Type", HCCL's tasks "task type"
// with the transport, link and size of what they moved. Its records have no category, which
// keeps the text search off Kineto's records.
void ChromeJsonImporter::note_ascend_task(const EventRecord& r, uint64_t offset) {
  if (!r.cat.empty() || r.args.size() < 12 ||
      (r.args.find("ask Type\"") == std::string_view::npos &&
       r.args.find("ask type\"") == std::string_view::npos))
    return;
  AscendTaskArgs a;
  a.src_offset = offset;
  args_.reset(r.args);
  while (args_.next()) {
    const std::string_view key = args_.key(), v = args_.value();
    if (args_.kind() == ObjectReader::Kind::kOther) continue;
    const bool number = args_.kind() == ObjectReader::Kind::kNumber;
    int64_t n = 0;
    double d = 0;
    if (key == "Task Type" || key == "task type") {
      a.task_type.assign(v);
    } else if (key == "transport type") {
      a.transport.assign(v);
    } else if (key == "link type") {
      a.link.assign(v);
    } else if (key == "size(Byte)" && number && json::parse_int64(v, &n) && n >= 0) {
      a.size_bytes = n;
    } else if (key == "bandwidth(GB/s)" && number && json::parse_double(v, &d) && d >= 0) {
      a.bandwidth_gbps = d;
    }
  }
  if (!a.task_type.empty()) store_->ascend_tasks.add(std::move(a));
}

}  // namespace strata::chrome_json
