#include "core/formats/detect_format.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/base/text.h"
#include "core/bundle/bundle_format.h"
#include "core/formats/ascend_csv/ascend_csv_kind.h"
#include "core/formats/hlo/hlo_text_parser.h"
#include "core/formats/loss_log/log_scan.h"
#include "core/formats/loss_log/text_sniff.h"
#include "core/formats/perfetto/perfetto_sniff.h"
#include "core/formats/sqlite/sqlite_db.h"

namespace strata {

namespace {

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

bool xplane_name(const std::string& n) {
  return ends_with(n, ".xplane.pb") || ends_with(n, ".xplane.pb.gz") ||
         ends_with(n, ".xplane.pb.zst");
}

// *.hlo_proto.pb, *.hlo.pb, or "hlo_proto" / "hloproto" anywhere in the last path part of a
// *.pb name ("module.hloproto.pb", "jit_f.hlo_proto_after_opt.pb").
bool hlo_proto_name(const std::string& n) {
  if (!ends_with(n, ".pb")) return false;
  if (ends_with(n, ".hlo.pb")) return true;
  const size_t slash = n.rfind('/');
  const std::string_view last =
      std::string_view(n).substr(slash == std::string::npos ? 0 : slash + 1);
  const std::string_view stem = last.substr(0, last.size() - 3);  // without ".pb"
  return stem.find("hlo_proto") != std::string_view::npos ||
         stem.find("hloproto") != std::string_view::npos;
}

// The first inflated bytes of a compressed head (fewer when the head ends or breaks sooner).
// Fed in slices so a big head is not inflated whole for a 64 KB look.
std::string inflate_head(Compression c, const uint8_t* p, size_t n) {
  std::string out;
  std::unique_ptr<StreamDecoder> d = make_stream_decoder(c);
  const ByteSink sink = [&out](const uint8_t* b, size_t k) {
    out.append(reinterpret_cast<const char*>(b), k);
  };
  constexpr size_t kSlice = 4096;
  for (size_t at = 0; at < n && out.size() < kDetectInflateBytes; at += kSlice)
    if (!d->feed(p + at, std::min(kSlice, n - at), sink)) break;
  if (out.size() > kDetectInflateBytes) out.resize(kDetectInflateBytes);
  return out;
}

// A pod manifest: a JSON object with "format": "strata-pod" among its first bytes (strata-pack
// --merge-pod writes it first; a hand-written one may put it later).
constexpr size_t kPodHeadBytes = 4096;
bool looks_like_pod_manifest(std::string_view text) {
  text = text.substr(0, kPodHeadBytes);
  size_t i = text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  const auto blank = [&text](size_t k) {
    return k < text.size() &&
           (text[k] == ' ' || text[k] == '\t' || text[k] == '\r' || text[k] == '\n');
  };
  while (blank(i)) ++i;
  if (i >= text.size() || text[i] != '{') return false;
  constexpr std::string_view kKey = "\"format\"", kValue = "\"strata-pod\"";
  for (size_t at = text.find(kKey, i); at != std::string_view::npos; at = text.find(kKey, at + 1)) {
    size_t j = at + kKey.size();
    while (blank(j)) ++j;
    if (j >= text.size() || text[j] != ':') continue;
    ++j;
    while (blank(j)) ++j;
    if (text.substr(j, kValue.size()) == kValue) return true;
  }
  return false;
}

}  // namespace

FileKind trace_kind(const uint8_t* p, size_t n) {
  size_t i = 0;
  if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) i = 3;
  while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) ++i;
  if (i < n && (p[i] == '{' || p[i] == '[')) return FileKind::kChromeJson;
  if (perfetto::looks_like_perfetto(p, n)) return FileKind::kPerfetto;
  const uint8_t b0 = n ? p[0] : 0;
  if (b0 == 0x0A || b0 == 0x12 || b0 == 0x1A || b0 == 0x22) return FileKind::kXSpace;
  return FileKind::kUnknown;
}

DetectedFormat detect_format(std::string_view name, const uint8_t* head, size_t n) {
  DetectedFormat f;
  f.compression = sniff_compression(head, n);
  const std::string lname = ascii_lower(name);
  const bool maybe_graph = !xplane_name(lname);
  if (maybe_graph && hlo_proto_name(lname)) {
    f.kind = FileKind::kHloProto;
    return f;
  }
  if (f.compression == Compression::kNone && is_sqlite_header(head, n)) {
    f.kind = FileKind::kSqlite;
    return f;
  }
  if (f.compression == Compression::kNone && n >= sizeof(bundle::kMagic) &&
      std::memcmp(head, bundle::kMagic, sizeof(bundle::kMagic)) == 0) {
    f.kind = FileKind::kBundle;
    return f;
  }
  // Named as a bundle but without its magic: not read as a log or a trace (a text file would
  // open as an empty training log), so the load says what it is not.
  if (ends_with(lname, ".strata")) return f;
  std::string inflated;
  if (f.compression != Compression::kNone) inflated = inflate_head(f.compression, head, n);
  const uint8_t* p = f.compression == Compression::kNone
                         ? head
                         : reinterpret_cast<const uint8_t*>(inflated.data());
  const size_t len =
      f.compression == Compression::kNone ? std::min(n, kDetectInflateBytes) : inflated.size();
  const std::string_view text(reinterpret_cast<const char*>(p), len);
  if (looks_like_pod_manifest(text))  // before the logs: its host lines read as metrics
    f.kind = FileKind::kPod;
  else if (maybe_graph && hlo::looks_like_hlo_text(text))
    f.kind = FileKind::kHloText;
  else if (ascend_csv_kind(text) != AscendCsvKind::kOther)
    f.kind = FileKind::kAscendCsv;
  else if (looks_like_text_log(p, len) || sniff_log_format(p, len) != LogFormat::kText ||
           lname.find("tfevents") != std::string::npos)
    f.kind = FileKind::kTrainingLog;
  else
    f.kind = trace_kind(p, len);
  return f;
}

const char* const kWhatStrataReads =
    "Strata reads Chrome / Kineto JSON traces, XProf XSpace (.xplane.pb), Perfetto protobuf "
    "traces (.pftrace), Nsight Systems and Ascend SQLite exports (.sqlite, .db), HLO text and "
    "HloProto, Ascend memory CSVs and training logs, plain or gzip / zstd compressed";

namespace {

bool starts(const uint8_t* p, size_t n, std::string_view magic) {
  return n >= magic.size() && std::memcmp(p, magic.data(), magic.size()) == 0;
}

bool contains(const uint8_t* p, size_t n, std::string_view s) {
  return std::string_view(reinterpret_cast<const char*>(p), n).find(s) != std::string_view::npos;
}

// What the bytes are, as "a PNG image"; empty when unknown. `lname` is the lower-case name.
std::string what_it_is(const std::string& lname, const uint8_t* p, size_t n) {
  if (ends_with(lname, ".nsys-rep"))
    return "an Nsight Systems report (.nsys-rep, Nsight's own format): export it with "
           "`nsys export --type sqlite` and open the .sqlite";
  if (ends_with(lname, ".qdrep"))
    return "an older Nsight Systems report (.qdrep): open it in Nsight Systems and export it "
           "with `nsys export --type sqlite`";
  if (starts(p, n, "SQLite format 3")) return "an SQLite database";
  if (starts(p, n, "\x89PNG\r\n\x1a\n")) return "a PNG image";
  if (starts(p, n, "\xff\xd8\xff")) return "a JPEG image";
  if (starts(p, n, "GIF87a") || starts(p, n, "GIF89a")) return "a GIF image";
  if (starts(p, n, "%PDF-")) return "a PDF document";
  if (starts(p, n, "\x89HDF\r\n\x1a\n")) return "an HDF5 file";
  if (starts(p, n,
             "\x7f"
             "ELF"))
    return "an ELF binary (a program or shared library)";
  if (starts(p, n, "MZ")) return "a Windows executable";
  if (starts(p, n, "PK\x03\x04") || starts(p, n, "PK\x05\x06")) {
    if (contains(p, n, "data.pkl") || ends_with(lname, ".pt") || ends_with(lname, ".pth"))
      return "a PyTorch checkpoint (.pt: a ZIP of pickled tensors), not a profile";
    return "a ZIP archive: unpack it and open the files (or the folder) inside";
  }
  if (n >= 2 && p[0] == 0x80 && p[1] >= 2 && p[1] <= 5)
    return ends_with(lname, ".pt") || ends_with(lname, ".pth")
               ? "a PyTorch checkpoint (a pickle), not a profile"
               : "a Python pickle";
  if (starts(p, n,
             "\xfd"
             "7zXZ"))
    return "an xz-compressed file (Strata inflates gzip and zstd)";
  if (starts(p, n, "BZh")) return "a bzip2-compressed file (Strata inflates gzip and zstd)";
  if (starts(p, n, "7z\xbc\xaf\x27\x1c")) return "a 7-Zip archive";
  if (n > 262 && std::memcmp(p + 257, "ustar", 5) == 0)
    return "a tar archive: unpack it and open the files (or the folder) inside";
  if (starts(p, n, "NVTX") || lname.find("nvtx") != std::string::npos)
    return "NVTX data: Strata reads NVTX ranges from an Nsight Systems SQLite export "
           "(`nsys export --type sqlite`)";
  size_t i = 0;
  while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) ++i;
  const std::string_view rest(reinterpret_cast<const char*>(p + i), n - i);
  if (rest.substr(0, 9) == "<!DOCTYPE" || rest.substr(0, 9) == "<!doctype" ||
      rest.substr(0, 5) == "<html" || rest.substr(0, 5) == "<HTML")
    return "an HTML page (a URL that answers with a web page, such as a login page?)";
  if (rest.substr(0, 5) == "<?xml" || rest.substr(0, 4) == "<svg") return "an XML document";
  if (ends_with(lname, ".strata"))
    return "named as a Strata tile bundle (.strata) but not one: a bundle's first bytes are "
           "\"STRATABN\" (a download cut short, a page answering in its place, or another file "
           "renamed?)";
  return "";
}

}  // namespace

std::string what_unknown_file_is(std::string_view name, const uint8_t* head, size_t n) {
  std::string what = describe_unknown(name, head, n);
  const size_t tail = what.rfind(std::string(". ") + kWhatStrataReads);
  if (tail != std::string::npos) what.resize(tail);
  return what.empty() ? "binary data of no format Strata knows" : what;
}

std::string describe_unread_files(const std::vector<UnreadFile>& files, size_t shown) {
  std::string s = files.size() == 1 ? std::string("the one file here is not one Strata reads: ")
                                    : "none of the " + std::to_string(files.size()) +
                                          " files here is one Strata reads: ";
  for (size_t i = 0; i < files.size() && i < shown; ++i) {
    if (i) s += "; ";
    s += files[i].name + " (" + files[i].what + ")";
  }
  if (files.size() > shown) s += "; and " + std::to_string(files.size() - shown) + " more";
  return s + ". " + kWhatStrataReads + ".";
}

std::string describe_unknown(std::string_view name, const uint8_t* head, size_t n,
                             Compression inflated_from) {
  const std::string lname = ascii_lower(name);
  const Compression c =
      inflated_from != Compression::kNone ? inflated_from : sniff_compression(head, n);
  std::string what;
  if (c != Compression::kNone) {
    const std::string inner =
        inflated_from != Compression::kNone
            ? std::string(reinterpret_cast<const char*>(head), std::min(n, kDetectInflateBytes))
            : inflate_head(c, head, n);
    const std::string is =
        what_it_is(lname, reinterpret_cast<const uint8_t*>(inner.data()), inner.size());
    const std::string how = compression_name(c);
    what = is.empty() ? "a " + how + "-compressed file whose content is not a format Strata reads"
                      : how + "-compressed: " + is;
  } else {
    what = what_it_is(lname, head, n);
  }
  if (what.empty()) return "";
  return what + ". " + kWhatStrataReads + ".";
}

const char* file_kind_name(FileKind kind) {
  switch (kind) {
    case FileKind::kChromeJson:
      return "chrome-json";
    case FileKind::kXSpace:
      return "xplane";
    case FileKind::kHloText:
      return "hlo-text";
    case FileKind::kHloProto:
      return "hlo-proto";
    case FileKind::kAscendCsv:
      return "ascend-csv";
    case FileKind::kTrainingLog:
      return "training-log";
    case FileKind::kPerfetto:
      return "perfetto";
    case FileKind::kSqlite:
      return "sqlite";
    case FileKind::kPod:
      return "strata-pod";
    case FileKind::kBundle:
      return "strata-bundle";
    case FileKind::kUnknown:
      break;
  }
  return "unknown";
}

}  // namespace strata
