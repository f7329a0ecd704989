#include "tools/pack/bundle_file.h"

#include <sys/stat.h>

#include <cstdio>

namespace strata::bundle {

bool BundleFile::read(const std::string& path, uint64_t offset, uint64_t n,
                      std::vector<uint8_t>* out) const {
  out->clear();
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  out->resize(n);
  size_t got = 0;
  if (std::fseek(f, static_cast<long>(offset), SEEK_SET) == 0)
    got = std::fread(out->data(), 1, n, f);
  std::fclose(f);
  out->resize(got);
  return true;
}

bool BundleFile::open(const std::string& path, std::string* error) {
  struct stat st {};
  path_ = path;
  manifest_path_ = path;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    manifest_path_ = path + "/manifest.strata";
  std::vector<uint8_t> head, index;
  if (!read(manifest_path_, 0, kHeaderBytes, &head)) {
    *error = "cannot read " + manifest_path_;
    return false;
  }
  Header h;
  if (!parse_header(head.data(), head.size(), &h, error)) return false;
  read(manifest_path_, h.index_offset, h.index_length, &index);
  if (!parse_index(h, index.data(), index.size(), &m_, error)) return false;
  search_read_ = false;
  return true;
}

std::vector<uint8_t> BundleFile::tile_bytes(uint32_t i) const {
  std::vector<uint8_t> out;
  if (i >= m_.tiles.size()) return out;
  const Tile& t = m_.tiles[i];
  if (split())
    read(path_ + "/tiles/" + std::to_string(i) + ".zst", 0, t.length, &out);
  else
    read(path_, t.offset, t.length, &out);
  return out;
}

const SearchIndex* BundleFile::search(std::string* error) {
  if (!search_read_) {
    std::vector<uint8_t> blob;
    read(manifest_path_, m_.header.search_offset, m_.header.search_length, &blob);
    if (!parse_search(m_.header, blob.data(), blob.size(), m_.strings.size(), &search_, error))
      return nullptr;
    search_read_ = true;
  }
  return &search_;
}

}  // namespace strata::bundle
