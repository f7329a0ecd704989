#include "engine/slice_session.h"

#include <new>

#include "core/formats/chrome_json/sliced_import.h"
#include "core/formats/importer.h"
#include "core/formats/xplane/xplane_sliced.h"

namespace strata {

SliceSession::SliceSession() = default;
SliceSession::~SliceSession() = default;

void SliceSession::begin(uint64_t base, bool object_form) {
  xspace_.reset();
  slice_ = ChromeJsonSlice::later(base, object_form);
}

void SliceSession::begin_xspace(uint64_t base, uint32_t planes_before) {
  slice_.reset();
  XSpaceSliceSpec spec;
  spec.begin = base, spec.planes_before = planes_before;
  xspace_ = XSpaceSlice::later(spec);
}

void SliceSession::context(size_t n, uint64_t offset) {
  if (!xspace_ || n > scratch_.size()) return;
  try {
    xspace_->context(scratch_.data(), n, offset);
  } catch (const std::bad_alloc&) {
    xspace_.reset();
  }
}

uint8_t* SliceSession::buffer(size_t n) {
  if (scratch_.size() < n) scratch_.resize(n);
  return scratch_.data();
}

void SliceSession::commit(size_t n) {
  if ((!slice_ && !xspace_) || n > scratch_.size()) return;
  try {
    if (xspace_)
      xspace_->feed(scratch_.data(), n);
    else
      slice_->feed(scratch_.data(), n);
  } catch (const std::bad_alloc&) {
    slice_.reset();  // end() says so by an empty result
    xspace_.reset();
  }
}

uint64_t SliceSession::records() const {
  return xspace_ ? xspace_->importer().records() : slice_ ? slice_->importer().records() : 0;
}

std::vector<uint8_t> SliceSession::end() {
  std::vector<uint8_t>().swap(scratch_);
  std::vector<uint8_t> out;
  if (!slice_ && !xspace_) return out;
  try {
    out = xspace_ ? xspace_->encode() : slice_->encode();
  } catch (const std::bad_alloc&) {
    out.clear();
  }
  slice_.reset();
  xspace_.reset();
  return out;
}

}  // namespace strata
