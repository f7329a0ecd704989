// One length-delimited top-level field's bytes from a stream given in chunks, for the importers
// that read a file's fields as they come (XSpace's planes, Perfetto's packets): a field that lies
// whole in one chunk is handed over in place, one cut by chunk ends is copied until complete.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace strata::wire {

class FieldBody {
 public:
  // A field of `len` bytes starts at byte `at` of the stream. `first_reserve`: what to reserve
  // when copying begins (capped at `len`); the buffer grows by half from there, so a corrupt
  // length in a stream of unknown size does not reserve it all at once.
  void start(uint64_t len, uint64_t at, uint64_t first_reserve) {
    len_ = len;
    at_ = at;
    first_reserve_ = std::min(first_reserve, len);
    buf_.clear();
  }

  // Takes what it can of data[0, n) and returns how many bytes it used; when the field is
  // complete calls done(bytes, len) (the bytes live until the next start or release).
  template <typename Done>
  size_t take(const uint8_t* data, size_t n, Done&& done) {
    if (buf_.empty() && n >= len_) {  // entirely in this chunk: no copy
      done(data, static_cast<size_t>(len_));
      return static_cast<size_t>(len_);
    }
    if (buf_.empty()) buf_.reserve(static_cast<size_t>(first_reserve_));
    const size_t take = static_cast<size_t>(std::min<uint64_t>(n, len_ - buf_.size()));
    if (buf_.capacity() < buf_.size() + take)
      buf_.reserve(static_cast<size_t>(std::min<uint64_t>(
          len_, std::max<uint64_t>(buf_.size() + take, buf_.capacity() + buf_.capacity() / 2))));
    buf_.insert(buf_.end(), data, data + take);
    if (buf_.size() == len_) done(buf_.data(), buf_.size());
    return take;
  }

  uint64_t len() const { return len_; }
  uint64_t at() const { return at_; }
  // What was copied of a field the stream ended inside.
  const std::vector<uint8_t>& partial() const { return buf_; }
  // Frees the buffer (a big field's copy is not kept while the rest of the file loads).
  void release() { std::vector<uint8_t>().swap(buf_); }
  // Carried between importers (a slice's state handed to the next): where the field is and what
  // was copied of it.
  void restore(uint64_t len, uint64_t at, uint64_t first_reserve, std::vector<uint8_t> partial) {
    start(len, at, first_reserve);
    buf_ = std::move(partial);
  }
  void swap(FieldBody& o) noexcept {
    std::swap(len_, o.len_), std::swap(at_, o.at_), std::swap(first_reserve_, o.first_reserve_);
    buf_.swap(o.buf_);
  }
  void reset() {
    release();
    len_ = at_ = first_reserve_ = 0;
  }

 private:
  uint64_t len_ = 0, at_ = 0, first_reserve_ = 0;
  std::vector<uint8_t> buf_;
};

}  // namespace strata::wire
