#include "core/formats/detect_format.h"

#include <algorithm>
#include <string>

#include "core/formats/ascend_csv/ascend_csv_kind.h"
#include "core/formats/hlo/hlo_text_parser.h"
#include "core/formats/loss_log/text_sniff.h"

namespace strata {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

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

}  // namespace

FileKind trace_kind(const uint8_t* p, size_t n) {
  size_t i = 0;
  if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) i = 3;
  while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) ++i;
  if (i < n && (p[i] == '{' || p[i] == '[')) return FileKind::kChromeJson;
  const uint8_t b0 = n ? p[0] : 0;
  if (b0 == 0x0A || b0 == 0x12 || b0 == 0x1A || b0 == 0x22) return FileKind::kXSpace;
  return FileKind::kUnknown;
}

DetectedFormat detect_format(std::string_view name, const uint8_t* head, size_t n) {
  DetectedFormat f;
  f.compression = sniff_compression(head, n);
  const std::string lname = lower(name);
  const bool maybe_graph = !xplane_name(lname);
  if (maybe_graph && hlo_proto_name(lname)) {
    f.kind = FileKind::kHloProto;
    return f;
  }
  std::string inflated;
  if (f.compression != Compression::kNone) inflated = inflate_head(f.compression, head, n);
  const uint8_t* p = f.compression == Compression::kNone
                         ? head
                         : reinterpret_cast<const uint8_t*>(inflated.data());
  const size_t len =
      f.compression == Compression::kNone ? std::min(n, kDetectInflateBytes) : inflated.size();
  const std::string_view text(reinterpret_cast<const char*>(p), len);
  if (maybe_graph && hlo::looks_like_hlo_text(text))
    f.kind = FileKind::kHloText;
  else if (ascend_csv_kind(text) != AscendCsvKind::kOther)
    f.kind = FileKind::kAscendCsv;
  else if (looks_like_text_log(p, len))
    f.kind = FileKind::kTrainingLog;
  else
    f.kind = trace_kind(p, len);
  return f;
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
    case FileKind::kUnknown:
      break;
  }
  return "unknown";
}

}  // namespace strata
