// The sliced Chrome JSON path (sliced_import.h): cut points, one slice's parse, the merge.
#include "core/formats/chrome_json/sliced_import.h"

#include <algorithm>

#include "core/formats/chrome_json/chrome_json_importer_impl.h"

namespace strata::chrome_json {

void ChromeJsonImporter::begin_slice(uint64_t base, bool object_form) {
  head_len_ = 4;  // no head: the slice starts inside the event array
  state_ = State::kArrValue;
  section_ = Section::kEvents;
  object_form_ = saw_events_member_ = object_form;
  total_ = base;  // so record offsets are the file's
}

bool ChromeJsonImporter::at_event_boundary() const {
  return !failed_ && state_ == State::kArrValue && section_ == Section::kEvents;
}

namespace {

// A problem counted with the position of its first occurrence: the earlier part's first wins.
void merge_first(uint64_t* count, uint64_t* at, uint64_t later_count, uint64_t later_at) {
  if (*count == 0 && later_count) *at = later_at;
  *count += later_count;
}

}  // namespace

void ChromeJsonImporter::absorb(ChromeJsonImporter& later) {
  builder_.absorb(later.builder_);
  records_ += later.records_;
  saw_ph_ = saw_ph_ || later.saw_ph_;
  if (malformed_ == 0 && later.malformed_) malformed_reason_ = later.malformed_reason_;
  merge_first(&malformed_, &malformed_at_, later.malformed_, later.malformed_at_);
  merge_first(&bad_ts_, &bad_ts_at_, later.bad_ts_, later.bad_ts_at_);
  merge_first(&bad_dur_, &bad_dur_at_, later.bad_dur_, later.bad_dur_at_);
  merge_first(&bad_utf8_, &bad_utf8_at_, later.bad_utf8_, later.bad_utf8_at_);
  merge_first(&unknown_phase_, &unknown_phase_at_, later.unknown_phase_, later.unknown_phase_at_);
  // Distinct phases in order of appearance, by the rule handle_other_phase applies to each.
  std::string_view rest = later.unknown_phases_;
  while (!rest.empty()) {
    const size_t comma = rest.find(", ");
    const std::string item(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 2);
    if (unknown_phases_.find(item) == std::string::npos && unknown_phases_.size() < 64)
      unknown_phases_ += (unknown_phases_.empty() ? "" : ", ") + item;
  }
  if (later.trailing_at_) trailing_at_ = later.trailing_at_;
  if (later.failed_ && !failed_) {
    failed_ = true;
    failure_ = later.failure_;
  }
  // later's framing goes on here: its state at the end of its bytes is this one's now.
  state_ = later.state_;
  section_ = later.section_;
  saw_events_member_ = saw_events_member_ || later.saw_events_member_;
  total_ = later.total_;
  skipper_ = later.skipper_;
  key_ = later.key_;
  unit_ = later.unit_;
  frame_key_ = later.frame_key_;
  capture_ = later.capture_;
  capturing_ = later.capturing_;
  carry_.swap(later.carry_);
  carry_keep_ = later.carry_keep_;
  record_start_ = later.record_start_;
  if (!later.base_time_ns_.empty()) base_time_ns_ = later.base_time_ns_;
  const std::vector<SourceFile>& lf = later.store_->files;
  if (!lf.empty() && lf[0].rank != -1 && !store_->files.empty()) store_->files[0].rank = lf[0].rank;
  builder_.set_input_progress(total_);
}

}  // namespace strata::chrome_json

namespace strata {

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// A '{' at or after `from` that follows "}" "," (blanks allowed) and is followed by a '"' (a
// key): how one event ends and the next starts. npos when none is found before `limit`.
size_t find_cut(std::string_view d, size_t from, size_t limit) {
  for (size_t i = d.find('{', from); i != std::string_view::npos && i < limit;
       i = d.find('{', i + 1)) {
    size_t k = i + 1;
    while (k < d.size() && blank(d[k])) ++k;
    if (k >= d.size() || d[k] != '"') continue;
    size_t j = i;
    while (j > 0 && blank(d[j - 1])) --j;
    if (j == 0 || d[j - 1] != ',') continue;
    --j;
    while (j > 0 && blank(d[j - 1])) --j;
    if (j == 0 || d[j - 1] != '}') continue;
    return i;
  }
  return std::string_view::npos;
}

}  // namespace

size_t chrome_json_cut_in(std::string_view window, size_t from) {
  return find_cut(window, from, window.size());
}

bool chrome_json_object_form(std::string_view head) {
  size_t i = head.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (i < head.size() && blank(head[i])) ++i;
  return i < head.size() && head[i] == '{';
}

std::vector<uint64_t> chrome_json_cut_points(std::string_view data, size_t slices) {
  std::vector<uint64_t> cuts;
  if (slices < 2) return cuts;
  const size_t step = data.size() / slices;
  for (size_t s = 1; s < slices; ++s) {
    const size_t from = std::max<size_t>(s * step, cuts.empty() ? 1 : cuts.back() + 1);
    const size_t at = find_cut(data, from, (s + 1) * step);
    if (at != std::string_view::npos) cuts.push_back(at);
  }
  return cuts;
}

std::unique_ptr<ChromeJsonSlice> ChromeJsonSlice::first(TraceStore* store) {
  std::unique_ptr<ChromeJsonSlice> s(new ChromeJsonSlice);
  s->importer_ = std::make_unique<chrome_json::ChromeJsonImporter>(store);
  return s;
}

std::unique_ptr<ChromeJsonSlice> ChromeJsonSlice::later(uint64_t base, bool object_form) {
  std::unique_ptr<ChromeJsonSlice> s(new ChromeJsonSlice);
  s->own_store_ = std::make_unique<TraceStore>();
  s->own_store_->files.push_back(SourceFile{});  // where a distributedInfo rank lands
  auto imp = std::make_unique<chrome_json::ChromeJsonImporter>(s->own_store_.get());
  imp->begin_slice(base, object_form);
  s->importer_ = std::move(imp);
  return s;
}

ChromeJsonSlice::~ChromeJsonSlice() = default;

void ChromeJsonSlice::feed(const uint8_t* data, size_t n) { importer_->feed(data, n); }

bool ChromeJsonSlice::ends_at_event_boundary() const {
  return static_cast<const chrome_json::ChromeJsonImporter&>(*importer_).at_event_boundary();
}

void ChromeJsonSlice::absorb(ChromeJsonSlice& next) {
  static_cast<chrome_json::ChromeJsonImporter&>(*importer_)
      .absorb(static_cast<chrome_json::ChromeJsonImporter&>(*next.importer_));
}

const TraceStore& ChromeJsonSlice::store() const {
  return *static_cast<const chrome_json::ChromeJsonImporter&>(*importer_).store();
}

std::unique_ptr<Importer> make_chrome_json_slice_head(TraceStore* store) {
  return std::make_unique<chrome_json::ChromeJsonImporter>(store);
}

bool chrome_json_head_at_boundary(const Importer& head) {
  return static_cast<const chrome_json::ChromeJsonImporter&>(head).at_event_boundary();
}

void chrome_json_head_absorb(Importer& head, ChromeJsonSlice& later) {
  static_cast<chrome_json::ChromeJsonImporter&>(head).absorb(
      static_cast<chrome_json::ChromeJsonImporter&>(*later.importer_));
}

SlicedImportResult import_chrome_json_sliced(TraceStore* store, std::string_view data,
                                             size_t slices, SlicedImportStats* stats,
                                             const SliceRunner& run) {
  return import_chrome_json_at(store, data, chrome_json_cut_points(data, slices), stats, run);
}

SlicedImportResult import_chrome_json_at(TraceStore* store, std::string_view data,
                                         const std::vector<uint64_t>& cuts,
                                         SlicedImportStats* stats, const SliceRunner& run) {
  SlicedImportStats local;
  SlicedImportStats& st = stats ? *stats : local;
  st = SlicedImportStats{};
  st.cuts = cuts;
  const bool object_form = chrome_json_object_form(data.substr(0, 64));
  auto* bytes = reinterpret_cast<const uint8_t*>(data.data());
  std::vector<uint64_t> bounds = {0};
  bounds.insert(bounds.end(), st.cuts.begin(), st.cuts.end());
  bounds.push_back(data.size());

  return run_slices<ChromeJsonSlice>(
      bounds.size() - 1,
      [&](size_t i) {
        auto part =
            i == 0 ? ChromeJsonSlice::first(store) : ChromeJsonSlice::later(bounds[i], object_form);
        part->feed(bytes + bounds[i], bounds[i + 1] - bounds[i]);
        return part;
      },
      // A cut inside a string (or outside the event array) is read in line.
      [](const ChromeJsonSlice& head, const ChromeJsonSlice&) {
        return head.ends_at_event_boundary();
      },
      [&](ChromeJsonSlice& head, size_t i) {
        head.feed(bytes + bounds[i], bounds[i + 1] - bounds[i]);
      },
      run, &st);
}

}  // namespace strata
