// A later slice of a sliced Chrome JSON load as bytes (sliced_import.h, store/slice_codec.h):
// the importer's counts, first problem positions and framing state, which
// ChromeJsonImporter::absorb takes over, then its builder's staging (TraceBuilder::encode_part).
#include "core/store/slice_codec.h"

#include <memory>

#include "core/formats/chrome_json/chrome_json_importer_impl.h"
#include "core/formats/chrome_json/sliced_import.h"

namespace strata::chrome_json {

namespace {
constexpr uint32_t kMagic = 0x534a4353;  // "SCJS": a Chrome JSON slice
}  // namespace

void ChromeJsonImporter::encode(SliceWriter* w) const {
  w->pod(kMagic);
  w->pod(records_), w->pod(saw_ph_), w->pod(object_form_), w->pod(saw_events_member_);
  w->str(malformed_reason_);
  w->pod(malformed_), w->pod(malformed_at_), w->pod(bad_ts_), w->pod(bad_ts_at_);
  w->pod(bad_dur_), w->pod(bad_dur_at_), w->pod(bad_utf8_), w->pod(bad_utf8_at_);
  w->pod(unknown_phase_), w->pod(unknown_phase_at_);
  w->str(unknown_phases_);
  w->pod(trailing_at_), w->pod(failed_);
  w->str(failure_);
  w->pod(state_), w->pod(section_), w->pod(total_), w->pod(skipper_);
  w->str(key_), w->str(unit_), w->str(frame_key_), w->str(capture_), w->pod(capturing_);
  w->str(carry_), w->pod(carry_keep_), w->pod(record_start_);
  w->vec(base_time_ns_);
  w->pod(store_->files.empty() ? int64_t{-1} : store_->files[0].rank);
  builder_.encode_part(w);
}

bool ChromeJsonImporter::decode(SliceReader* r) {
  if (r->get<uint32_t>() != kMagic) return false;
  r->pod(&records_), r->pod(&saw_ph_), r->pod(&object_form_), r->pod(&saw_events_member_);
  r->str(&malformed_reason_);
  r->pod(&malformed_), r->pod(&malformed_at_), r->pod(&bad_ts_), r->pod(&bad_ts_at_);
  r->pod(&bad_dur_), r->pod(&bad_dur_at_), r->pod(&bad_utf8_), r->pod(&bad_utf8_at_);
  r->pod(&unknown_phase_), r->pod(&unknown_phase_at_);
  r->str(&unknown_phases_);
  r->pod(&trailing_at_), r->pod(&failed_);
  r->str(&failure_);
  r->pod(&state_), r->pod(&section_), r->pod(&total_), r->pod(&skipper_);
  r->str(&key_), r->str(&unit_), r->str(&frame_key_), r->str(&capture_), r->pod(&capturing_);
  r->str(&carry_), r->pod(&carry_keep_), r->pod(&record_start_);
  r->vec(&base_time_ns_);
  const auto rank = r->get<int64_t>();
  if (!r->ok() || static_cast<uint8_t>(state_) > static_cast<uint8_t>(State::kStopped) ||
      static_cast<uint8_t>(section_) > static_cast<uint8_t>(Section::kDevices))
    return false;
  if (!store_->files.empty()) store_->files[0].rank = rank;
  return builder_.decode_part(r) && r->at_end();
}

}  // namespace strata::chrome_json

namespace strata {

std::vector<uint8_t> ChromeJsonSlice::encode() const {
  SliceWriter w;
  static_cast<const chrome_json::ChromeJsonImporter&>(*importer_).encode(&w);
  return std::move(w.out());
}

std::unique_ptr<ChromeJsonSlice> ChromeJsonSlice::decode(const uint8_t* data, size_t n) {
  std::unique_ptr<ChromeJsonSlice> s = later(0, false);
  SliceReader r(data, n);
  if (!static_cast<chrome_json::ChromeJsonImporter&>(*s->importer_).decode(&r)) return nullptr;
  return s;
}

}  // namespace strata
