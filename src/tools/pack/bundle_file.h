// A bundle on the local disk (one file, or a split bundle's directory): strata-pack's --verify
// and --merge-pod and the native tests read it through the same parse functions a browser uses
// (core/bundle/bundle_reader.h), with the file reads standing in for Range requests.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/bundle/bundle_reader.h"

namespace strata::bundle {

class BundleFile {
 public:
  // Reads the header and the index (the search index on first use). False, with the reason.
  bool open(const std::string& path, std::string* error);
  const Manifest& manifest() const { return m_; }
  bool split() const { return (m_.header.flags & kFlagSplit) != 0; }
  // Tile i's bytes as stored (a missing split tile file reads as no bytes).
  std::vector<uint8_t> tile_bytes(uint32_t i) const;
  const SearchIndex* search(std::string* error);

 private:
  bool read(const std::string& path, uint64_t offset, uint64_t n, std::vector<uint8_t>* out) const;
  std::string path_, manifest_path_;
  Manifest m_;
  SearchIndex search_;
  bool search_read_ = false;
};

}  // namespace strata::bundle
