#include "core/formats/sqlite/byte_reader.h"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace strata {

bool MemoryByteReader::read(uint64_t offset, uint8_t* dst, size_t n) {
  if (offset > size_ || n > size_ - offset) return false;
  if (n) std::memcpy(dst, data_ + offset, n);
  return true;
}

FileByteReader::FileByteReader(const std::string& path) : file_(std::fopen(path.c_str(), "rb")) {
  if (!file_) return;
  if (std::fseek(file_, 0, SEEK_END) == 0) {
    const long end = std::ftell(file_);
    size_ = end < 0 ? 0 : static_cast<uint64_t>(end);
  }
}

FileByteReader::~FileByteReader() {
  if (file_) std::fclose(file_);
}

bool FileByteReader::read(uint64_t offset, uint8_t* dst, size_t n) {
  if (!file_ || offset > size_ || n > size_ - offset) return false;
  if (std::fseek(file_, static_cast<long>(offset), SEEK_SET) != 0) return false;
  return std::fread(dst, 1, n, file_) == n;
}

const CachedByteReader::Block* CachedByteReader::block(uint64_t index) {
  auto it = by_index_.find(index);
  if (it != by_index_.end()) {
    blocks_.splice(blocks_.begin(), blocks_, it->second);
    return &blocks_.front();
  }
  const uint64_t start = index * kBlockBytes, total = source_->size();
  if (start >= total) return nullptr;
  // The least recently used block's buffer is reused once the cache is full: a block is
  // megabytes, and allocating (and zeroing) a fresh one per read costs as much as the read.
  if (blocks_.size() >= kMaxBlocks) {
    by_index_.erase(blocks_.back().index);
    blocks_.splice(blocks_.begin(), blocks_, std::prev(blocks_.end()));
  } else {
    blocks_.emplace_front();
  }
  Block& b = blocks_.front();
  b.index = index;
  b.bytes.resize(static_cast<size_t>(std::min<uint64_t>(kBlockBytes, total - start)));
  ++source_reads_;
  if (!source_->read(start, b.bytes.data(), b.bytes.size())) {
    blocks_.pop_front();
    return nullptr;
  }
  by_index_[index] = blocks_.begin();
  return &b;
}

bool CachedByteReader::read(uint64_t offset, uint8_t* dst, size_t n) {
  if (offset > size() || n > size() - offset) return false;
  while (n > 0) {
    const Block* b = block(offset / kBlockBytes);
    if (!b) return false;
    const size_t in = static_cast<size_t>(offset % kBlockBytes);
    const size_t take = std::min(n, b->bytes.size() - in);
    std::memcpy(dst, b->bytes.data() + in, take);
    dst += take, offset += take, n -= take;
  }
  return true;
}

}  // namespace strata
