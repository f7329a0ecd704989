// A big Chrome JSON trace parsed in slices: the bytes are cut at elements of the traceEvents
// array, each slice is parsed on its own (by another worker, in the browser) into a partial
// result, and the partials are merged, in file order, into the store one pass would have made.
//
// A cut is found by a scan from an approximate offset for "}" "," "{" (blanks allowed) followed
// by a key; that scan cannot know it is not inside a string (a name may contain `},{"`), so a
// cut is only trusted once the slice before it, parsed from its own trusted start, ends exactly
// there between two events (ChromeJsonSlice::ends_at_event_boundary). When it does not, the
// later slice's result is dropped and its bytes are fed to the slice before it: the merge stays
// exact, only that slice's parallelism is lost.
// One file per load: the later files of a multi-file load (next_file) are read in one pass.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/store/run_slices.h"
#include "core/store/trace_store.h"

namespace strata {

class Importer;

// Where to cut `data` into about `slices` slices of equal size: the offsets (ascending, each
// > 0) of the '{' that starts an event of a later slice. Fewer when the file is small or no cut
// is found near an approximate offset.
std::vector<uint64_t> chrome_json_cut_points(std::string_view data, size_t slices);
// The same search in a piece of the file read around an approximate offset (the browser reads
// a small window per cut instead of the file): the offset in `window`, at or after `from`, of
// the first '{' that may start a later slice, or npos.
size_t chrome_json_cut_in(std::string_view window, size_t from);
// True when the file is the object form {"traceEvents": [...]} (after a UTF-8 BOM and blanks).
bool chrome_json_object_form(std::string_view head);

// One slice's parse. The first slice reads into the final store (which the caller owns, with
// store.files pre-filled as for a one-pass load); later slices own a partial store.
class ChromeJsonSlice {
 public:
  static std::unique_ptr<ChromeJsonSlice> first(TraceStore* store);
  // A slice that starts at byte `base` (a cut point) of a file of that form.
  static std::unique_ptr<ChromeJsonSlice> later(uint64_t base, bool object_form);
  ~ChromeJsonSlice();

  void feed(const uint8_t* data, size_t n);
  // The bytes fed so far end between two events of the traceEvents array.
  bool ends_at_event_boundary() const;
  // `next` read the bytes right after this slice's: merge it into this one (it is left empty).
  void absorb(ChromeJsonSlice& next);
  // A later slice as bytes, for the worker that absorbs it (store/slice_codec.h), and back:
  // decode() gives null when `data` is not a whole encoded slice of this build.
  std::vector<uint8_t> encode() const;
  static std::unique_ptr<ChromeJsonSlice> decode(const uint8_t* data, size_t n);
  // The first slice, after absorbing all others: the one-pass finish (end-of-input checks,
  // aggregated messages, the store's layout).
  Importer& importer() { return *importer_; }
  const TraceStore& store() const;

 private:
  friend void chrome_json_head_absorb(Importer& head, ChromeJsonSlice& later);
  ChromeJsonSlice() = default;
  std::unique_ptr<TraceStore> own_store_;
  std::unique_ptr<Importer> importer_;
};

// The engine's first slice (engine/engine_sliced.cc): an importer it feeds and finishes like any
// other, which can also say whether it stands between two events and take a later slice over.
// The two functions below take only an importer that make_chrome_json_slice_head made.
std::unique_ptr<Importer> make_chrome_json_slice_head(TraceStore* store);
bool chrome_json_head_at_boundary(const Importer& head);
void chrome_json_head_absorb(Importer& head, ChromeJsonSlice& later);

// The whole sliced path in memory: `data` cut into `slices`, each parsed (one after another
// unless `run` says otherwise), merged in file order and finished into `store`. The store equals
// a one-pass load's.
SlicedImportResult import_chrome_json_sliced(TraceStore* store, std::string_view data,
                                             size_t slices, SlicedImportStats* stats = nullptr,
                                             const SliceRunner& run = nullptr);
// The same with the cuts given (ascending offsets; tests cut anywhere, also where no event
// starts).
SlicedImportResult import_chrome_json_at(TraceStore* store, std::string_view data,
                                         const std::vector<uint64_t>& cuts,
                                         SlicedImportStats* stats = nullptr,
                                         const SliceRunner& run = nullptr);

}  // namespace strata
