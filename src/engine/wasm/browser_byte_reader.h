// The worker's reader of the database being opened: each read calls the worker's
// self.strataDbRead(offset, n) (web/worker/db.js), which slices the File synchronously.
#pragma once
#include "core/formats/sqlite/byte_reader.h"

namespace strata {

class BrowserByteReader : public ByteReader {
 public:
  explicit BrowserByteReader(uint64_t size) : size_(size) {}
  uint64_t size() const override { return size_; }
  bool read(uint64_t offset, uint8_t* dst, size_t n) override;

 private:
  uint64_t size_;
};

}  // namespace strata
