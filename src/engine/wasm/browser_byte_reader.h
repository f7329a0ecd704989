// The worker's reader of the database or bundle being opened: each read calls the worker's
// self.strataDbRead(offset, n) (web/worker/db.js), which slices the File or asks the server
// for the range synchronously.
#pragma once
#include <cstdint>
#include <vector>

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

// Tile `index` of a split bundle (`length` bytes of its tiles/<index>.zst), read through the
// worker's self.strataTileRead(index, length) (db.js); false when it is missing or short.
bool browser_read_split_tile(uint32_t index, uint32_t length, std::vector<uint8_t>* out);

}  // namespace strata
