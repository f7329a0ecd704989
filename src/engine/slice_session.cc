#include "engine/slice_session.h"

#include <new>

#include "core/formats/chrome_json/sliced_import.h"
#include "core/formats/importer.h"

namespace strata {

SliceSession::SliceSession() = default;
SliceSession::~SliceSession() = default;

void SliceSession::begin(uint64_t base, bool object_form) {
  slice_ = ChromeJsonSlice::later(base, object_form);
}

uint8_t* SliceSession::buffer(size_t n) {
  if (scratch_.size() < n) scratch_.resize(n);
  return scratch_.data();
}

void SliceSession::commit(size_t n) {
  if (!slice_ || n > scratch_.size()) return;
  try {
    slice_->feed(scratch_.data(), n);
  } catch (const std::bad_alloc&) {
    slice_.reset();  // end() says so by an empty result
  }
}

uint64_t SliceSession::records() const { return slice_ ? slice_->importer().records() : 0; }

std::vector<uint8_t> SliceSession::end() {
  std::vector<uint8_t>().swap(scratch_);
  std::vector<uint8_t> out;
  if (!slice_) return out;
  try {
    out = slice_->encode();
  } catch (const std::bad_alloc&) {
    out.clear();
  }
  slice_.reset();
  return out;
}

}  // namespace strata
