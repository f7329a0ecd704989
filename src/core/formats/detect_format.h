// "What kind of file is this", answered in one place for every entry point (open, drop, folder,
// ?url=, iframe, recent files) from the file's name and first bytes. Compression is told by
// magic bytes; a compressed head is inflated (at most kDetectInflateBytes) and the kind is
// decided on the inflated bytes. The rules, in this order:
//   name *.xplane.pb(.gz|.zst)                  → never a graph (the content decides below);
//   name *.hlo_proto.pb, *.hlo.pb, *hlo_proto*.pb (or hloproto), any case → HloProto;
//   "HloModule " first (after blanks and // comment lines) → HLO text;
//   the header of an Ascend memory CSV (memory_record, npu_module_mem, operator_memory)
//                                               → Ascend CSV;
//   plain text (formats/loss_log/text_sniff), JSON lines or records of metrics, a TFRecord
//   start, or "tfevents" in the name (formats/loss_log/log_scan) → training log;
//   '{' or '[' first, or a length-delimited first field (trace_kind below) → Chrome JSON / Perfetto
//   / XSpace; anything else                               → unknown (the trace engine's error says
//   why).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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
  kPerfetto = 7,
  kSqlite = 8,  // a SQLite database (a profiler's export: which one is told by its tables)
  kBundle = 9,  // a Strata tile bundle or a split bundle's manifest (docs/BUNDLE.md)
};

struct DetectedFormat {
  FileKind kind = FileKind::kUnknown;
  Compression compression = Compression::kNone;
};

// Bytes of a compressed head inflated to decide its kind; plain heads are read this far too.
constexpr size_t kDetectInflateBytes = 64u << 10;

DetectedFormat detect_format(std::string_view name, const uint8_t* head, size_t n);

// Among the trace formats only, on decompressed bytes: '{' or '[' after optional whitespace and
// UTF-8 BOM → Chrome JSON; else a Trace of TracePackets (formats/perfetto/perfetto_sniff.h)
// → Perfetto; else a first byte 0x0A (planes), 0x12/0x1A/0x22 (errors, warnings, hostnames)
// → XSpace; else unknown. The trace engine's importer choice.
FileKind trace_kind(const uint8_t* p, size_t n);

// What a file Strata does not read looks like, for the user, from its name and first bytes:
// "a PNG image. Strata reads ..." (kWhatStrataReads; the engine puts the file's name first). Empty
// when its bytes match nothing known (the Chrome JSON importer's error then says what it expected).
// A compressed head is described by what it inflates to; `inflated_from` says the head is
// already inflated from that compression (the trace engine's importers see inflated bytes).
std::string describe_unknown(std::string_view name, const uint8_t* head, size_t n,
                             Compression inflated_from = Compression::kNone);
extern const char* const kWhatStrataReads;
// describe_unknown without the sentence on what Strata reads: "a PNG image", or "binary data of
// no format Strata knows" when its bytes match nothing known.
std::string what_unknown_file_is(std::string_view name, const uint8_t* head, size_t n);

// A file of a drop, a pick or a folder that Strata does not read, and what it looks like
// (what_unknown_file_is).
struct UnreadFile {
  std::string name;
  std::string what;
};
// The message for a drop, pick or folder in which no file is one Strata reads: each file named
// with what it looks like, the first `shown` of them, then "and N more", then what Strata
// reads.
std::string describe_unread_files(const std::vector<UnreadFile>& files, size_t shown = 5);

// "unknown", "chrome-json", "xplane", "hlo-text", "hlo-proto", "ascend-csv", "training-log",
// "perfetto" ("chrome-json", "xplane" and "perfetto" are also the summary's files[].format).
const char* file_kind_name(FileKind kind);

}  // namespace strata
