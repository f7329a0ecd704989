// An XSpace parsed in slices, as a big Chrome JSON is (formats/chrome_json/sliced_import.h): the
// file is cut between top-level fields (its planes, XSpace.planes = 1, each with its own
// metadata), each slice is parsed on its own into a partial result, and the partials are merged
// in file order into the store one pass makes (same store_digest, same XSpaceTables).
//
// A top-level field's tag and length say where the next one starts, so the cuts are found by
// reading only the headers, and a cut is exact (no guess to refuse, as a JSON cut may be). What
// a plane takes from the planes before it is carried across the cut: the plane count (plane
// numbers, pids of unknown planes), the host planes and thread pools before it (host pids,
// renumbered at the merge) and the HLO symbols of the metadata plane (a later slice reads that
// plane's metadata itself, `context`). A slice is refused, and its bytes are read by the slice
// before it, when the merge could not be exact: the earlier slice did not end between two fields
// (a corrupt or cut-off file), or a plane name repeats across the cut.
//
// A plane bigger than a slice's share is cut too, between its lines (XPlane.lines = 3; the
// largest plane of a real file holds most of its bytes): each part reads the plane's header
// and metadata (written after the lines) and the headers of all its lines (thread pools and
// the derive source are chosen over all of them), and the events of its own run of lines. The
// rows derived from all the plane's lines are made at the merge, once its last part is in, so
// a slice holding a plane's last lines ends with that plane. Only a plane whose fields read
// cleanly is cut (the damage messages of one pass would come from the whole plane).
//
// One file per load.
#pragma once
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "core/store/run_slices.h"
#include "core/store/trace_store.h"

namespace strata {

class Importer;

// A run of lines [lo, hi) of a plane cut at its lines: the plane's field starts at `at`, its
// message is [body, body + len).
struct XPlanePart {
  uint64_t at = 0, body = 0, len = 0;
  uint32_t lo = 0, hi = 0;
};

// One slice of an XSpace: bytes [begin, end) of the file, after `planes_before` planes, and the
// earlier planes it reads the metadata of (each a plane's message: offset and length). With a
// part, the whole fields are [begin, fields_end) and the slice ends with `part` (its lines; it
// reads the whole plane message for the header, metadata and the other lines' headers); a
// slice that starts inside a plane (part.lo > 0) has no whole fields, and `planes_before`
// does not count that plane.
struct XSpaceSliceSpec {
  uint64_t begin = 0, end = 0;
  uint32_t planes_before = 0;
  std::vector<std::pair<uint64_t, uint64_t>> context;
  bool has_part = false;
  uint64_t fields_end = 0;
  XPlanePart part;
};

// Where to cut `data` into about `slices` slices of equal size: starts of top-level fields
// (ascending, each > 0), the field boundary nearest each share, and with `lines`, also the
// starts of the lines of a plane bigger than a share (then that plane's end too). Fewer when
// there are fewer fields, and none after a corrupt or cut-off header.
std::vector<uint64_t> xspace_cut_points(std::string_view data, size_t slices, bool lines = true);
// The slices that `cuts` make of `data` (any ascending offsets: one that is not a field
// boundary is refused at the merge).
std::vector<XSpaceSliceSpec> xspace_slice_specs(std::string_view data,
                                                const std::vector<uint64_t>& cuts);

// One slice's parse. The first reads into the final store (files pre-filled as for a one-pass
// load); a later one owns a partial store.
class XSpaceSlice {
 public:
  static std::unique_ptr<XSpaceSlice> first(TraceStore* store);
  // A later slice; feed it context(i) for each spec.context entry first, then its bytes.
  static std::unique_ptr<XSpaceSlice> later(const XSpaceSliceSpec& spec);
  ~XSpaceSlice();

  void context(const uint8_t* plane, size_t n, uint64_t offset);
  void feed(const uint8_t* data, size_t n);
  // The part of a cut plane the spec ends with: `plane` is its whole message.
  void plane_part(const uint8_t* plane, const XPlanePart& part, uint64_t end);
  // Whether `next` (the slice right after this one's bytes) can be absorbed exactly; when not,
  // its bytes are fed here instead.
  bool can_absorb(const XSpaceSlice& next) const;
  void absorb(XSpaceSlice& next);
  // A later slice as bytes, for the worker that absorbs it (store/slice_codec.h), and back:
  // decode() gives null when `data` is not a whole encoded slice of this build.
  std::vector<uint8_t> encode() const;
  static std::unique_ptr<XSpaceSlice> decode(const uint8_t* data, size_t n);
  // The first slice, after all others: the one-pass finish.
  Importer& importer() { return *importer_; }

 private:
  friend bool xspace_head_can_absorb(const Importer& head, const XSpaceSlice& later);
  friend void xspace_head_absorb(Importer& head, XSpaceSlice& later);
  XSpaceSlice() = default;
  std::unique_ptr<TraceStore> own_store_;
  std::unique_ptr<Importer> importer_;
};

// The engine's first slice (engine/engine_sliced.cc): an importer it feeds and finishes like any
// other, which can also say whether it stands between two top-level fields and take a later
// slice over. The functions below take only an importer that make_xspace_slice_head made.
std::unique_ptr<Importer> make_xspace_slice_head(TraceStore* store);
bool xspace_head_at_boundary(const Importer& head);
bool xspace_head_can_absorb(const Importer& head, const XSpaceSlice& later);
void xspace_head_absorb(Importer& head, XSpaceSlice& later);

// One top-level field of an XSpace read from `window`, the file's bytes from the field's start
// `at` on (the browser reads the headers one small window at a time): false when the header is
// corrupt, cut off, or its field runs past `file_size`.
struct XSpaceField {
  uint64_t at = 0, end = 0;    // the field's tag and the next field's
  uint64_t body = 0, len = 0;  // a plane's message
  bool plane = false, context = false;
};
bool xspace_field_at(std::string_view window, uint64_t at, uint64_t file_size, XSpaceField* out);
// The cuts for `slices` slices of a file of `size` bytes with these fields (xspace_cut_points).
std::vector<uint64_t> xspace_cuts_of(const std::vector<XSpaceField>& fields, uint64_t size,
                                     size_t slices);
// The slices these cuts make (xspace_slice_specs) from the fields.
std::vector<XSpaceSliceSpec> xspace_specs_of(const std::vector<XSpaceField>& fields, uint64_t size,
                                             const std::vector<uint64_t>& cuts);

// The whole sliced path in memory: `data` cut into `slices` (or at `cuts`), each parsed (one
// after another unless `run` says otherwise), merged in file order and finished into `store`.
// With `lines` false, planes are never cut (the path before planes were cut at their lines).
SlicedImportResult import_xspace_sliced(TraceStore* store, std::string_view data, size_t slices,
                                        SlicedImportStats* stats = nullptr,
                                        const SliceRunner& run = nullptr, bool lines = true);
SlicedImportResult import_xspace_at(TraceStore* store, std::string_view data,
                                    const std::vector<uint64_t>& cuts,
                                    SlicedImportStats* stats = nullptr,
                                    const SliceRunner& run = nullptr);

}  // namespace strata
