#include "core/formats/compression/whole_text.h"

namespace strata {

ByteSink WholeText::sink() {
  return [this](const uint8_t* p, size_t k) {
    if (too_big_) return;
    if (text_.size() + k > cap_) {
      too_big_ = true;
      std::string().swap(text_);
      return;
    }
    text_.append(reinterpret_cast<const char*>(p), k);
  };
}

bool WholeText::finish() {
  in_.finish(sink());
  if (too_big_) {
    error_ = too_big_message_;
    return false;
  }
  if (!in_.error().empty()) {
    if (text_.empty()) {
      error_ = in_.error();
      return false;
    }
    warning_ = in_.error() + "; what precedes it is read";
  } else if (!in_.complete()) {
    warning_ = std::string("the ") + compression_name(in_.compression()) +
               " stream ends early: the file is cut off after " + std::to_string(in_.consumed()) +
               " compressed bytes";
  }
  return true;
}

}  // namespace strata
