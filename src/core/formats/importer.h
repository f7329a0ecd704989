// The shape every importer has (Chrome JSON now; xplane, HLO, logs later): bytes in, in chunks
// of any size and split at any byte; a TraceStore out. The engine streams a file through
// feed() without ever holding it whole, and calls finish() once at the end of input.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace strata {

struct TraceStore;

class Importer {
 public:
  virtual ~Importer() = default;
  // Consumes the next `n` bytes of the file. May be called with n == 0.
  virtual void feed(const uint8_t* data, size_t n) = 0;
  // End of input: flushes pending state, records truncation, builds the store's indices.
  virtual void finish() = 0;
  // True once the input is known to be unusable (not this format, or nothing loadable).
  // The message says why, for the user (e.g. "not a Chrome trace: byte 0 is 0x89, expected
  // '{' or '['"). A truncated but partly loaded file is not failed; it has store errors.
  virtual bool failed() const = 0;
  virtual const std::string& failure() const = 0;
  // Records (events of any phase) read so far, for progress reports.
  virtual uint64_t records() const = 0;
  // The bytes fed from now on are a new file of the same load (store->files.back() names it),
  // e.g. the xplanes of a multi-host run, opened together onto one time axis. False: this
  // format takes one file per load (the caller reports it; the files so far stay loaded).
  virtual bool next_file() { return false; }
};

}  // namespace strata
