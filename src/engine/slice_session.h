// What a slice worker (web/worker/slice-worker.js) does with its piece of a big Chrome JSON or
// XSpace file: parses the bytes from a cut point on, in chunks, into a partial result of its own,
// and hands it over encoded (store/slice_codec.h) for the engine worker's
// Engine::load_absorb_slice. One slice at a time; a new begin() drops the one in progress.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace strata {

class ChromeJsonSlice;
class XSpaceSlice;

class SliceSession {
 public:
  SliceSession();
  ~SliceSession();
  // A slice that starts at byte `base` of the file (an element of its traceEvents array);
  // `object_form`: the file is {"traceEvents": [...]}, else a bare array.
  void begin(uint64_t base, bool object_form);
  // An XSpace slice from byte `base` (a top-level field) after `planes_before` planes
  // (formats/xplane/xplane_sliced.h); before its bytes, context(n, offset) takes each earlier
  // plane it reads the metadata of, from buffer(n).
  void begin_xspace(uint64_t base, uint32_t planes_before);
  void context(size_t n, uint64_t offset);
  // Scratch space of at least n bytes for the next chunk, then commit(n) feeds it.
  uint8_t* buffer(size_t n);
  void commit(size_t n);
  uint64_t records() const;
  // The slice's result as bytes; the session is empty afterwards. Empty when no slice was begun
  // or it ran out of memory (the engine worker then reads those bytes itself).
  std::vector<uint8_t> end();

 private:
  std::unique_ptr<ChromeJsonSlice> slice_;
  std::unique_ptr<XSpaceSlice> xspace_;
  std::vector<uint8_t> scratch_;
};

}  // namespace strata
