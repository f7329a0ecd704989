// What the graph viewer needs of the loaded trace: where its xplane's HloProtos are, by file.
#include "core/base/json_writer.h"
#include "core/formats/xplane/program_id.h"
#include "core/formats/xplane/xplane_tables.h"
#include "engine/engine.h"
#include "protocol/reply_keys.h"

namespace strata {

void Engine::scan_file(MemoryScan* scan, uint32_t i) const {
  const std::vector<SourceFile>& files = store_->files;
  const uint64_t base = i < files.size() ? files[i].stream_base : 0;
  const uint64_t end = i + 1 < files.size() ? files[i + 1].stream_base : UINT64_MAX;
  scan->begin_file(compression_named(i < files.size() ? files[i].compression : "none"), base, end);
}

std::vector<HloProtoSpan> Engine::file_hlo_spans(uint32_t file) const {
  std::vector<HloProtoSpan> out;
  if (!store_->xspace) return out;
  for (const HloProtoSpan& h : store_->xspace->hlo_protos) {
    uint64_t off = h.src_offset;
    if (source_file(&off) != file) continue;
    out.push_back(h);
    out.back().src_offset = off;
  }
  return out;
}

std::string Engine::hlo_protos_json() const {
  namespace key = protocol::keys::hlo_proto;
  using protocol::append_key;
  std::string o = "[";
  if (store_->xspace) {
    for (const HloProtoSpan& h : store_->xspace->hlo_protos) {
      uint64_t off = h.src_offset;
      const uint32_t file = source_file(&off);
      if (o.size() > 1) o += ',';
      append_key(&o, key::kProgramId, '{');
      append_program_id(&o, h.program_id);  // exact: a number only up to 2^53
      append_key(&o, key::kModule);
      json_append_string(&o, h.module);
      append_key(&o, key::kFile);
      o += std::to_string(file);
      append_key(&o, key::kOffset);
      o += std::to_string(off);
      append_key(&o, key::kLength);
      o += std::to_string(h.src_len);
      append_key(&o, key::kCompressed);
      o += file_compressed(file) ? "true}" : "false}";
    }
  }
  return o + "]";
}

}  // namespace strata
