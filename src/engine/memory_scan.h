// Reads the records of Kineto `[memory]` instants back from the source after a load: the
// importer stores only each record's byte span, and memory needs its args. One pass over the
// file in order (decompressing gzip/zstd as it goes) collects every wanted span, however many
// there are, so a trace with 100k allocator calls costs one extra read, not 100k.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/formats/compression/stream_decoder.h"

namespace strata {

class MemoryScan {
 public:
  struct Want {
    uint64_t offset;
    uint32_t length;
    uint32_t event;
  };
  // `wants` in any order; sorted here by offset.
  void begin(Compression c, std::vector<Want> wants);
  // The file's next bytes, from its start. True once every record has passed (or the stream
  // ended or broke).
  bool feed(const uint8_t* data, size_t n);
  bool done() const { return done_; }
  size_t size() const { return wants_.size(); }
  // After done(): record i (in offset order), empty when it was not read.
  const Want& want(size_t i) const { return wants_[i]; }
  const std::string& record(size_t i) const { return records_[i]; }

 private:
  void take(const uint8_t* p, size_t n);
  std::unique_ptr<StreamDecoder> decoder_;
  std::vector<Want> wants_;
  std::vector<std::string> records_;
  size_t next_ = 0;   // first want not complete
  uint64_t pos_ = 0;  // decompressed bytes seen
  bool done_ = true;
};

}  // namespace strata
