// "What kind of file is this", answered in one place for every entry point (open, drop, folder,
// ?url=, iframe, recent files) from the file's name and first bytes. Compression is told by
// magic bytes; a compressed head is inflated (at most kDetectInflateBytes) and the kind is
// decided on the inflated bytes. The rules, in this order:
//   name *.xplane.pb(.gz|.zst)                  → never a graph (the content decides below);
//   name *.hlo_proto.pb, *.hlo.pb, *hlo_proto*.pb (or hloproto), any case → HloProto;
//   "HloModule " first (after blanks and // comment lines) → HLO text;
//   the header of an Ascend memory CSV (memory_record, npu_module_mem, operator_memory)
//                                               → Ascend CSV;
//   plain text (formats/loss_log/text_sniff)    → training log;
//   '{' or '[' first, or a length-delimited XSpace field (trace_kind below) → Chrome JSON / XSpace;
//   anything else                               → unknown (the trace engine's error says why).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/formats/compression/stream_decoder.h"

namespace strata {

enum class FileKind : uint8_t {
  kUnknown = 0,
  kChromeJson = 1,
  kXSpace = 2,
  kHloText = 3,
  kHloProto = 4,
  kAscendCsv = 5,
  kTrainingLog = 6,
};

struct DetectedFormat {
  FileKind kind = FileKind::kUnknown;
  Compression compression = Compression::kNone;
};

// Bytes of a compressed head inflated to decide its kind; plain heads are read this far too.
constexpr size_t kDetectInflateBytes = 64u << 10;

DetectedFormat detect_format(std::string_view name, const uint8_t* head, size_t n);

// Among the trace formats only, on decompressed bytes: '{' or '[' after optional whitespace and
// UTF-8 BOM → Chrome JSON; else a first byte 0x0A (planes), 0x12/0x1A/0x22 (errors, warnings,
// hostnames) → XSpace; else unknown. The trace engine's importer choice.
FileKind trace_kind(const uint8_t* p, size_t n);

// "unknown", "chrome-json", "xplane", "hlo-text", "hlo-proto", "ascend-csv", "training-log"
// (the first three are also the summary's files[].format).
const char* file_kind_name(FileKind kind);

}  // namespace strata
