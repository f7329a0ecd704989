// Random access to a file's bytes, for SQLite databases: SQLite reads pages wherever they are,
// so a database is not streamed like the other formats. Natively a file or bytes in memory; in
// the engine worker a reader whose read() slices the picked File synchronously
// (engine/wasm/sqlite_exports.cc), so a 2 GB database is never copied whole into memory.
#pragma once
#include <cstdint>
#include <cstdio>
#include <list>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata {

class ByteReader {
 public:
  virtual ~ByteReader() = default;
  virtual uint64_t size() const = 0;
  // Reads bytes [offset, offset + n) into dst. False when they cannot be read (the range is
  // past the end, the file went away).
  virtual bool read(uint64_t offset, uint8_t* dst, size_t n) = 0;
};

// Bytes held by the caller (a URL's body, a test's buffer); they must outlive the reader.
class MemoryByteReader : public ByteReader {
 public:
  MemoryByteReader(const uint8_t* data, size_t n) : data_(data), size_(n) {}
  uint64_t size() const override { return size_; }
  bool read(uint64_t offset, uint8_t* dst, size_t n) override;

 private:
  const uint8_t* data_;
  size_t size_;
};

// A file on disk (native tools and tests).
class FileByteReader : public ByteReader {
 public:
  explicit FileByteReader(const std::string& path);
  ~FileByteReader() override;
  FileByteReader(const FileByteReader&) = delete;
  FileByteReader& operator=(const FileByteReader&) = delete;
  bool ok() const { return file_ != nullptr; }
  uint64_t size() const override { return size_; }
  bool read(uint64_t offset, uint8_t* dst, size_t n) override;

 private:
  std::FILE* file_ = nullptr;
  uint64_t size_ = 0;
};

// Blocks of another reader, least recently used dropped first. Each read of the browser's File
// is a round trip to its file thread that costs milliseconds whatever its size, so SQLite's
// page-sized reads are served from blocks of megabytes (a table scan reads each block once);
// SQLite keeps its own cache of decoded pages on top.
class CachedByteReader : public ByteReader {
 public:
  static constexpr size_t kBlockBytes = size_t{4} << 20;
  static constexpr size_t kMaxBlocks = 8;  // 32 MB
  explicit CachedByteReader(ByteReader* source) : source_(source) {}
  uint64_t size() const override { return source_->size(); }
  bool read(uint64_t offset, uint8_t* dst, size_t n) override;
  uint64_t source_reads() const { return source_reads_; }

 private:
  struct Block {
    uint64_t index = 0;
    std::vector<uint8_t> bytes;
  };
  const Block* block(uint64_t index);
  ByteReader* source_;
  std::list<Block> blocks_;  // most recently used first
  std::unordered_map<uint64_t, std::list<Block>::iterator> by_index_;
  uint64_t source_reads_ = 0;
};

}  // namespace strata
