// Engine's sliced load (engine.h, formats/chrome_json/sliced_import.h, formats/xplane/
// xplane_sliced.h): the engine worker reads a big file's first slice itself and absorbs the
// slices other workers parsed, in file order.
#include <new>

#include "core/formats/chrome_json/sliced_import.h"
#include "core/formats/xplane/xplane_sliced.h"
#include "engine/engine.h"

namespace strata {

void Engine::load_begin_sliced(std::string_view name, uint64_t total_bytes, bool xspace) {
  load_begin(name, total_bytes);
  importer_ =
      xspace ? make_xspace_slice_head(loading_.get()) : make_chrome_json_slice_head(loading_.get());
  sliced_ = true;
  sliced_xspace_ = xspace;
}

bool Engine::load_at_slice_boundary() const {
  if (!sliced_ || !importer_ || csv_) return false;
  return sliced_xspace_ ? xspace_head_at_boundary(*importer_)
                        : chrome_json_head_at_boundary(*importer_);
}

bool Engine::load_absorb_slice(const uint8_t* data, size_t n, uint64_t bytes) {
  if (!load_at_slice_boundary()) return false;
  try {
    if (sliced_xspace_) {
      std::unique_ptr<XSpaceSlice> slice = XSpaceSlice::decode(data, n);
      if (!slice || !xspace_head_can_absorb(*importer_, *slice)) return false;
      xspace_head_absorb(*importer_, *slice);
      loaded_bytes_ += bytes;
      return true;
    }
    std::unique_ptr<ChromeJsonSlice> slice = ChromeJsonSlice::decode(data, n);
    if (!slice) return false;
    chrome_json_head_absorb(*importer_, *slice);
    loaded_bytes_ += bytes;
    return true;
  } catch (const std::bad_alloc&) {
    load_fail("out of memory while loading (the browser's wasm memory limit is 4 GB)");
    return true;  // the load is over: nothing is to be fed instead
  }
}

}  // namespace strata
