#include "core/formats/hlo/hlo_importer.h"

#include "core/formats/hlo/hlo_proto_parser.h"
#include "core/formats/hlo/hlo_text_parser.h"

namespace strata::hlo {

namespace {
std::string size_label(size_t bytes) {
  return bytes % (size_t{1} << 30) == 0 ? std::to_string(bytes >> 30) + " GiB"
                                        : std::to_string(bytes >> 20) + " MB";
}
}  // namespace

HloImporter::HloImporter(HloFileKind kind, int64_t program_id, size_t cap)
    : kind_(kind),
      program_id_(program_id),
      bytes_(cap, "larger than " + size_label(cap) + ", too big for the graph viewer") {}

bool HloImporter::finish() {
  if (!bytes_.finish()) {
    error_ = bytes_.error();
    return false;
  }
  const std::string text = bytes_.take_text();
  bool ok;
  if (kind_ == HloFileKind::kText) {
    ok = parse_hlo_text(text, &modules_, &error_) || !modules_.empty();  // keep what parsed
  } else {
    modules_.emplace_back();
    ok = parse_hlo_proto(reinterpret_cast<const uint8_t*>(text.data()), text.size(),
                         &modules_.back(), &error_);
    if (ok)
      modules_.back().program_id = program_id_;
    else
      modules_.clear();
  }
  if (ok && error_.empty()) error_ = bytes_.warning();  // a compressed file cut short
  return ok;
}

}  // namespace strata::hlo
