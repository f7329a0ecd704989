// A structure-aware mutator for the SQLite target: libFuzzer's byte mutations nearly always
// break the 100-byte header or the page size, and SQLite then refuses the file before any page
// is read. This one keeps the header's magic, page size and fixed fields valid and mutates
// inside the database's structure instead: one page's bytes, one b-tree page header, one cell
// (a record: its header of serial types and its values), the schema's SQL text on page 1,
// whole pages copied over others, dropped or appended, and the header's counters (page count,
// freelist, schema cookie, text encoding). Inputs that are no database get libFuzzer's own
// mutations. (SQLite file format: https://www.sqlite.org/fileformat.html.)
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace strata::fuzz {

inline constexpr size_t kSqliteHeader = 100;
inline constexpr char kSqliteMagic[] = "SQLite format 3";  // and its NUL: 16 bytes

inline uint32_t be16(const uint8_t* p) { return static_cast<uint32_t>(p[0] << 8 | p[1]); }
inline uint32_t be32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) << 24 | static_cast<uint32_t>(p[1]) << 16 |
         static_cast<uint32_t>(p[2]) << 8 | p[3];
}
inline void put16(uint8_t* p, uint32_t v) { p[0] = static_cast<uint8_t>(v >> 8), p[1] = v & 0xff; }
inline void put32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (24 - 8 * i));
}

// The page size the header declares (1 stands for 65536), 0 when it is no power of two in
// 512..65536.
inline size_t sqlite_page_size(const uint8_t* header) {
  const uint32_t v = be16(header + 16);
  const size_t size = v == 1 ? 65536 : v;
  return size >= 512 && size <= 65536 && (size & (size - 1)) == 0 ? size : 0;
}

// Mutates bytes [at, at + n) of data in place with libFuzzer's mutations (the size stays).
inline void mutate_span(uint8_t* data, size_t at, size_t n) {
  if (n == 0) return;
  const size_t got = LLVMFuzzerMutate(data + at, n, n);
  (void)got;  // a shorter result leaves the span's tail as it was: the file keeps its size
}

inline size_t sqlite_mutate(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
  if (size < kSqliteHeader + 8 || std::memcmp(data, kSqliteMagic, 16) != 0 ||
      sqlite_page_size(data) == 0)
    return LLVMFuzzerMutate(data, size, max_size);
  std::minstd_rand rng(seed);
  auto pick = [&](size_t n) { return n ? static_cast<size_t>(rng() % n) : 0; };
  const size_t ps = sqlite_page_size(data);
  size_t pages = size / ps;
  if (pages == 0) return LLVMFuzzerMutate(data, size, max_size);
  uint8_t header[kSqliteHeader];
  std::memcpy(header, data, kSqliteHeader);
  const size_t page = pick(pages);
  uint8_t* base = data + page * ps;
  const size_t bt = page == 0 ? kSqliteHeader : 0;  // the b-tree page header's offset
  switch (pick(9)) {
    case 0:  // bytes inside one page (past the file header)
      mutate_span(data, page * ps + bt, ps - bt);
      break;
    case 1: {  // the b-tree page header: type, freeblock, cell count, content start, right child
      uint8_t* h = base + bt;
      static constexpr uint8_t kTypes[] = {2, 5, 10, 13};
      switch (pick(5)) {
        case 0:
          h[0] = kTypes[pick(4)];
          break;
        case 1:
          put16(h + 1, static_cast<uint32_t>(pick(ps)));
          break;
        case 2:
          put16(h + 3, static_cast<uint32_t>(pick(ps / 4)));
          break;
        case 3:
          put16(h + 5, static_cast<uint32_t>(pick(ps)));
          break;
        default:
          if (h[0] == 2 || h[0] == 5) put32(h + 8, static_cast<uint32_t>(1 + pick(pages + 1)));
      }
      break;
    }
    case 2: {  // one cell: its pointer, or bytes of its record
      uint8_t* h = base + bt;
      const size_t ptrs = bt + (h[0] == 2 || h[0] == 5 ? 12 : 8);
      const size_t cells = be16(h + 3);
      if (cells == 0 || ptrs + 2 * cells > ps) {
        mutate_span(data, page * ps + bt, ps - bt);
        break;
      }
      const size_t c = pick(cells);
      uint8_t* ptr = base + ptrs + 2 * c;
      if (pick(4) == 0) {
        put16(ptr, static_cast<uint32_t>(pick(ps)));
        break;
      }
      const size_t at = be16(ptr);
      if (at >= ps) break;
      mutate_span(data, page * ps + at, std::min<size_t>(ps - at, 8 + pick(56)));
      break;
    }
    case 3: {  // the schema's SQL on page 1: mutate around a CREATE
      const uint8_t* found = nullptr;
      for (size_t i = kSqliteHeader; i + 6 <= std::min(ps, size); ++i)
        if (std::memcmp(data + i, "CREATE", 6) == 0 && (!found || pick(2) == 0)) found = data + i;
      if (!found) break;
      const size_t at = static_cast<size_t>(found - data);
      mutate_span(data, at, std::min<size_t>(std::min(ps, size) - at, 8 + pick(120)));
      break;
    }
    case 4: {  // a page over another (page 1 keeps its file header)
      const size_t from = pick(pages);
      if (from == page) break;
      std::memmove(base + bt, data + from * ps + bt, ps - bt);
      break;
    }
    case 5:  // one more page: a copy of one, at the end
      if (size + ps <= max_size) {
        std::memcpy(data + size, data + pick(pages) * ps, ps);
        size += ps;
        ++pages;
      }
      break;
    case 6:  // one page less, at the end
      if (pages > 1) {
        size = (pages - 1) * ps;
        --pages;
      }
      break;
    case 7: {  // the header's counters
      switch (pick(5)) {
        case 0:  // database size in pages: right, or off by a little
          put32(header + 28, static_cast<uint32_t>(pages + pick(3)) - 1);
          break;
        case 1:  // freelist trunk page and count
          put32(header + 32, static_cast<uint32_t>(pick(pages + 2)));
          put32(header + 36, static_cast<uint32_t>(pick(4)));
          break;
        case 2:  // schema cookie, schema format 1-4
          put32(header + 40, static_cast<uint32_t>(rng()));
          put32(header + 44, static_cast<uint32_t>(1 + pick(4)));
          break;
        case 3:  // text encoding: UTF-8, UTF-16le, UTF-16be
          put32(header + 56, static_cast<uint32_t>(1 + pick(3)));
          break;
        default:  // reserved bytes at each page's end
          header[20] = static_cast<uint8_t>(pick(2) ? 0 : pick(33));
      }
      break;
    }
    default:  // anywhere past the header, libFuzzer's choice of mutation
      mutate_span(data, kSqliteHeader, size - kSqliteHeader);
  }
  // The header as SQLite requires it: magic, page size, versions, payload fractions.
  std::memcpy(data, header, kSqliteHeader);
  std::memcpy(data, kSqliteMagic, 16);
  data[18] = data[19] = 1;  // legacy (rollback journal) read / write versions
  data[21] = 64, data[22] = 32, data[23] = 32;
  return size;
}

}  // namespace strata::fuzz
