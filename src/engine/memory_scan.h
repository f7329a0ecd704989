// Reads the records of Kineto `[memory]` instants back from the source after a load: the
// importer stores only each record's byte span, and memory needs its args. One pass over the
// file in order (decompressing gzip/zstd as it goes) collects every wanted span, however many
// there are, so a trace with 100k allocator calls costs one extra read, not 100k.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
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
  // `wants` in any order; sorted here by offset. Then begin_file() for each file of the load.
  void begin(std::vector<Want> wants);
  // One file: begin(wants) and its begin_file.
  void begin(Compression c, std::vector<Want> wants) {
    begin(std::move(wants));
    begin_file(c, 0, UINT64_MAX);
  }
  // The next file of the load (several xplanes, one per host): its decompressed bytes are
  // [stream_base, stream_end) in the wants' offsets (SourceFile::stream_base; UINT64_MAX ends
  // the last file).
  void begin_file(Compression c, uint64_t stream_base, uint64_t stream_end);
  // The current file's next bytes, from its start. True once nothing more is wanted from this
  // file: every record in it has passed, or its stream ended or broke.
  bool feed(const uint8_t* data, size_t n);
  // Every record of every file has passed.
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
  uint64_t pos_ = 0;  // position in the wants' numbering
  uint64_t file_end_ = 0;
  bool file_done_ = true, done_ = true;
};

}  // namespace strata
