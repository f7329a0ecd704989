// An HLO file (text or HloProto) fed like any file: chunks split anywhere, gzip / zstd inflated
// as they come, then finish() parses. HLO is parsed whole (a module's instructions refer to
// each other by name across the file, and a proto's fields may come in any order), so the bytes
// are held until the end; a cap turns a file too big for that into a clear error.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/formats/compression/whole_text.h"
#include "core/formats/hlo/hlo_module.h"

namespace strata::hlo {

enum class HloFileKind : uint8_t { kText = 1, kProto = 2 };

class HloImporter {
 public:
  // The HLO viewer holds at most this much (inflated) HLO.
  static constexpr size_t kMaxBytes = size_t{1} << 30;

  explicit HloImporter(HloFileKind kind, int64_t program_id = 0, size_t cap = kMaxBytes);

  void feed(const uint8_t* data, size_t n) { bytes_.feed(data, n); }
  // Parses the file. Text: the modules read before a malformed line are kept, and error() says
  // where it stopped. False when no module came out (error() says why).
  bool finish();

  std::vector<HloModule>& modules() { return modules_; }
  const std::string& error() const { return error_; }

 private:
  HloFileKind kind_;
  int64_t program_id_;
  WholeText bytes_;
  std::vector<HloModule> modules_;
  std::string error_;
};

}  // namespace strata::hlo
