// Engine's sliced load (engine.h, formats/chrome_json/sliced_import.h): the engine worker reads
// a big file's first slice itself and absorbs the slices other workers parsed, in file order.
#include <new>

#include "core/formats/chrome_json/sliced_import.h"
#include "engine/engine.h"

namespace strata {

void Engine::load_begin_sliced(std::string_view name, uint64_t total_bytes) {
  load_begin(name, total_bytes);
  importer_ = make_chrome_json_slice_head(loading_.get());
  sliced_ = true;
}

bool Engine::load_at_slice_boundary() const {
  return sliced_ && importer_ && !csv_ && chrome_json_head_at_boundary(*importer_);
}

bool Engine::load_absorb_slice(const uint8_t* data, size_t n, uint64_t bytes) {
  if (!load_at_slice_boundary()) return false;
  try {
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
