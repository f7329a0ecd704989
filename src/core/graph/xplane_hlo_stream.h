// The HloProtos of one xplane file read in a single streaming pass from its start, for a file
// that cannot be read at random offsets: a gzip or zstd xplane (told by its magic bytes, not
// its name). The spans are the importer's (XSpaceTables::hlo_protos: offsets in the
// decompressed file); each module is parsed as soon as its last byte has passed and its bytes
// dropped, so memory holds one HloProto's bytes at a time, never the decompressed file. The
// pass ends once the last span has passed: profilers write the /host:metadata plane first, so
// only the start of the file is decompressed. A plain file goes through the same way.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/formats/compression/stream_decoder.h"
#include "core/formats/hlo/hlo_module.h"
#include "core/formats/xplane/xplane_tables.h"

namespace strata::graph {

// A module read, with the name its metadata plane gives it ("jit_dot(5)").
struct StreamedHlo {
  std::string name;
  hlo::HloModule module;
};

class XplaneHloStream {
 public:
  // `spans`: this file's HloProtos, offsets in its decompressed bytes, in any order.
  void begin(std::vector<HloProtoSpan> spans);
  // The file's next (compressed or plain) bytes, from its start, split anywhere. True once
  // nothing more is wanted: every span has passed, or the stream ended or broke.
  bool feed(const uint8_t* data, size_t n);
  // After the last feed: the modules in the spans' offset order (program_id set), and one
  // message per span that did not parse or was not reached (a cut or corrupt stream).
  std::vector<StreamedHlo> finish(std::vector<std::string>* errors);

  Compression compression() const { return compression_; }
  uint64_t decompressed_bytes() const { return pos_; }  // how far the pass went
  uint64_t peak_buffered() const { return peak_; }      // largest span held at once

 private:
  void take(const uint8_t* p, size_t n);
  void complete(size_t i);

  std::vector<HloProtoSpan> spans_;
  std::vector<hlo::HloModule> modules_;
  std::vector<uint8_t> parsed_;  // per span: 1 when it parsed into modules_
  std::vector<std::string> errors_;
  std::unique_ptr<StreamDecoder> decoder_;
  Compression compression_ = Compression::kNone;
  std::string head_;  // the first bytes, until there are enough to tell the compression
  bool sniffed_ = false;
  std::string buf_;   // the bytes of span next_ gathered so far
  size_t next_ = 0;   // first span not complete
  uint64_t pos_ = 0;  // decompressed bytes seen
  uint64_t peak_ = 0;
  bool done_ = true;
};

}  // namespace strata::graph
