// detect_format: every kind plain, gzip and zstd; blanks and BOM; names against content; short
// and empty heads; and on every real file in ../shared/data, the kind the routing before
// detect_format gave it (the page's graph / log checks, then the engine's CSV and trace checks,
// written out again below as that routing did them).
#include "core/formats/detect_format.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <string>

#include "core/formats/ascend_csv/ascend_csv_kind.h"
#include "core/formats/hlo/hlo_text_parser.h"
#include "core/formats/loss_log/text_sniff.h"
#include "import_test_util.h"

namespace strata {
namespace {

using testing::compress_with;

const char kJson[] = R"({"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":5}]})";
const char kHlo[] =
    "// dumped by XLA\nHloModule jit_f, entry_computation_layout={()->f32[]}\n\n"
    "ENTRY main {\n  ROOT c = f32[] constant(1)\n}\n";
const char kCsv[] =
    "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Device Type\n"
    "PTA,1700000000000.5,1.5,2.0,NPU:0\n";
const char kPod[] =
    "{\"format\":\"strata-pod\",\"version\":1,\"base\":\"5\",\"hosts\":[\n"
    "{\"name\":\"rank0\",\"bundle\":\"rank0.strata\",\"events\":10,\"steps\":2,\"step\":7}],\n"
    "\"errors\":[]}\n";
const char kLog[] = " iteration       10/    1000 | lm loss: 7.123E+00 | grad norm: 1.2 |\n";

// A minimal XSpace: one plane (field 1, length-delimited) named "/host:CPU".
std::string xspace() {
  const std::string plane = std::string("\x12\x09/host:CPU", 11);
  return std::string("\x0A") + static_cast<char>(plane.size()) + plane;
}
std::string hlo_proto() { return std::string("\x0A\x05jit_f\x12\x00", 9); }  // name, computations

DetectedFormat detect(std::string_view name, std::string_view bytes) {
  return detect_format(name, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

void expect(std::string_view name, std::string_view bytes, FileKind kind, Compression c) {
  const DetectedFormat f = detect(name, bytes);
  EXPECT_EQ(f.kind, kind) << name << ": " << file_kind_name(f.kind);
  EXPECT_EQ(f.compression, c) << name;
}

struct Sample {
  const char* name;
  std::string bytes;
  FileKind kind;
};

std::vector<Sample> samples() {
  return {{"t.json", kJson, FileKind::kChromeJson},
          {"host.xplane.pb", xspace(), FileKind::kXSpace},
          {"m.hlo", kHlo, FileKind::kHloText},
          {"m.hlo_proto.pb", hlo_proto(), FileKind::kHloProto},
          {"memory_record.csv", kCsv, FileKind::kAscendCsv},
          {"train.log", kLog, FileKind::kTrainingLog},
          {"pod.json", kPod, FileKind::kPod}};
}

TEST(DetectFormat, EveryKindPlain) {
  for (const Sample& s : samples()) expect(s.name, s.bytes, s.kind, Compression::kNone);
}

TEST(DetectFormat, EveryKindGzipAndZstdDecidedOnInflatedBytes) {
  for (const auto& [tool, c] : {std::pair<const char*, Compression>{"gzip -c", Compression::kGzip},
                                {"zstd -q -c", Compression::kZstd}}) {
    for (const Sample& s : samples()) {
      std::string packed;
      if (!compress_with(tool, s.bytes, &packed)) GTEST_SKIP() << tool << " not available";
      expect(s.name, packed, s.kind, c);
      // Names say nothing about content kinds: the same bytes under a neutral name.
      if (s.kind != FileKind::kHloProto) expect("upload", packed, s.kind, c);
    }
  }
}

TEST(DetectFormat, BigCompressedHeadIsReadOnlyAsFarAsNeeded) {
  std::string log;
  while (log.size() < (1u << 20)) log += kLog;
  std::string packed;
  if (!compress_with("gzip -c", log, &packed)) GTEST_SKIP() << "gzip not available";
  expect("train.log.gz", packed, FileKind::kTrainingLog, Compression::kGzip);
  // Cut mid-stream: the bytes that did inflate decide.
  expect("train.log.gz", std::string_view(packed).substr(0, packed.size() / 2),
         FileKind::kTrainingLog, Compression::kGzip);
}

TEST(DetectFormat, BlanksAndBom) {
  expect("t", "\xEF\xBB\xBF  \r\n\t{\"traceEvents\":[]}", FileKind::kChromeJson,
         Compression::kNone);
  expect("t", "\n\n[{\"ph\":\"X\"}]", FileKind::kChromeJson, Compression::kNone);
  expect("t", "\n\n  // comment\nHloModule m\n", FileKind::kHloText, Compression::kNone);
  expect("t", "\xEF\xBB\xBF[2024-01-01 12:00:00] step 1 loss 2.5\n", FileKind::kTrainingLog,
         Compression::kNone);
  // Only blanks: text, hence a log (as the loss view's sniff has it).
  expect("t", "  \n", FileKind::kTrainingLog, Compression::kNone);
}

TEST(DetectFormat, NamesAgainstContent) {
  // An HloProto is told by its name only, whatever its bytes.
  expect("jit_f.hlo.pb", kJson, FileKind::kHloProto, Compression::kNone);
  expect("module_0001.jit_f.HLOPROTO.after_opt.pb", hlo_proto(), FileKind::kHloProto,
         Compression::kNone);
  expect("dir/x_hlo_proto_dump.pb", hlo_proto(), FileKind::kHloProto, Compression::kNone);
  // Not a .pb at the end, or "hloproto" before the last '/': content decides.
  // Not named as an HloProto, its bytes go to the trace importers: field 1 holding "jit_f"
  // reads as a Perfetto packet (its first field number is past XPlane's), whose importer then
  // fails the load with its message, as the XSpace importer did before.
  expect("m.hlo_proto.pb.txt", hlo_proto(), FileKind::kPerfetto, Compression::kNone);
  expect("hlo_proto/x.pb", hlo_proto(), FileKind::kPerfetto, Compression::kNone);
  // An xplane is never a graph, even by a graph's name or content.
  expect("jit.hlo_proto.xplane.pb", xspace(), FileKind::kXSpace, Compression::kNone);
  expect("a.XPLANE.PB.gz", kHlo, FileKind::kTrainingLog, Compression::kNone);
  expect("a.xplane.pb.zst", xspace(), FileKind::kXSpace, Compression::kNone);
  // Other names do not matter.
  expect("trace.json", kHlo, FileKind::kHloText, Compression::kNone);
  expect("memory_record.log", kCsv, FileKind::kAscendCsv, Compression::kNone);
  expect("train.log", kJson, FileKind::kChromeJson, Compression::kNone);
}

TEST(DetectFormat, ShortAndEmptyHeads) {
  expect("t", "", FileKind::kUnknown, Compression::kNone);
  expect("t.hlo.pb", "", FileKind::kHloProto, Compression::kNone);
  expect("t", "{", FileKind::kChromeJson, Compression::kNone);
  expect("t", "[", FileKind::kChromeJson, Compression::kNone);
  expect("t", xspace().substr(0, 1), FileKind::kTrainingLog, Compression::kNone);  // "\n"
  expect("t", "\x12", FileKind::kXSpace, Compression::kNone);
  expect("t", "H", FileKind::kTrainingLog, Compression::kNone);
  // A gzip magic with nothing after it inflates to nothing.
  expect("t", "\x1F\x8B", FileKind::kUnknown, Compression::kGzip);
  expect("t", std::string("\x28\xB5\x2F\xFD", 4), FileKind::kUnknown, Compression::kZstd);
  expect("t", "\x1F", FileKind::kUnknown, Compression::kNone);
}

TEST(DetectFormat, BinaryJunkIsUnknown) {
  std::string junk;
  for (int i = 0; i < 4096; ++i) junk += static_cast<char>((i * 7919 + 13) & 0xFF);
  junk[0] = '\x89';
  expect("x.bin", junk, FileKind::kUnknown, Compression::kNone);
  // A SQLite header is a database now (which profiler's is told by its tables, when opened).
  expect("x", std::string("SQLite format 3\0\x10\0", 19), FileKind::kSqlite, Compression::kNone);
  expect("x", std::string("\x00\x01\x02", 3), FileKind::kUnknown, Compression::kNone);
  // A bundle (or a split bundle's manifest) by its magic, whatever its name.
  expect("trace.json", std::string("STRATABN\x01\0\0\0", 12), FileKind::kBundle,
         Compression::kNone);
  expect("x", std::string("STRATAB\0\x01\0\0\0", 12), FileKind::kUnknown, Compression::kNone);
  // Named as a bundle without its magic: unknown, not a log or a trace, and the load says why.
  expect("run.strata", "hello, just text\n", FileKind::kUnknown, Compression::kNone);
  expect("dir/manifest.STRATA", "{\"traceEvents\": []}", FileKind::kUnknown, Compression::kNone);
  const std::string text = "hello, just text\n";
  const std::string why = what_unknown_file_is(
      "run.strata", reinterpret_cast<const uint8_t*>(text.data()), text.size());
  EXPECT_NE(why.find("not one"), std::string::npos) << why;
  EXPECT_NE(why.find("STRATABN"), std::string::npos) << why;
  // What the bytes are comes first when it is known.
  const std::string png = "\x89PNG\r\n\x1a\n....";
  EXPECT_EQ(
      what_unknown_file_is("x.strata", reinterpret_cast<const uint8_t*>(png.data()), png.size()),
      "a PNG image");
}

TEST(DetectFormat, PodManifestByItsFormatNotItsName) {
  expect("x.json", " \n{ \"version\": 1, \"format\" : \"strata-pod\", \"hosts\": []}",
         FileKind::kPod, Compression::kNone);
  // Another "format", or the words elsewhere, or not an object, or past the first 4 KB: not a
  // pod manifest (what else the bytes are is the other rules' to say).
  const std::string late = "{\"pad\":\"" + std::string(5000, 'x') + "\",\"format\":\"strata-pod\"}";
  for (const std::string& other :
       {std::string("{\"format\":\"strata-bundle\",\"traceEvents\":[]}"),
        std::string("{\"traceEvents\":[{\"name\":\"format\",\"args\":{\"v\":\"strata-pod\"}}]}"),
        std::string("[\"format\",\"strata-pod\"]"), late})
    EXPECT_NE(detect("pod.json", other).kind, FileKind::kPod) << other.substr(0, 60);
}

TEST(DetectFormat, TraceKind) {
  const auto kind = [](std::string_view s) {
    return trace_kind(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  };
  EXPECT_EQ(kind(" {"), FileKind::kChromeJson);
  EXPECT_EQ(kind("\n\n"), FileKind::kXSpace);  // first byte 0x0A, no '{' after
  EXPECT_EQ(kind("\x22\x01x"), FileKind::kXSpace);
  EXPECT_EQ(kind("HloModule"), FileKind::kUnknown);
  EXPECT_EQ(kind(""), FileKind::kUnknown);
}

TEST(DetectFormat, KindNames) {
  EXPECT_STREQ(file_kind_name(FileKind::kUnknown), "unknown");
  EXPECT_STREQ(file_kind_name(FileKind::kChromeJson), "chrome-json");
  EXPECT_STREQ(file_kind_name(FileKind::kXSpace), "xplane");
  EXPECT_STREQ(file_kind_name(FileKind::kHloText), "hlo-text");
  EXPECT_STREQ(file_kind_name(FileKind::kHloProto), "hlo-proto");
  EXPECT_STREQ(file_kind_name(FileKind::kAscendCsv), "ascend-csv");
  EXPECT_STREQ(file_kind_name(FileKind::kTrainingLog), "training-log");
  EXPECT_STREQ(file_kind_name(FileKind::kPod), "strata-pod");
  EXPECT_STREQ(file_kind_name(static_cast<FileKind>(200)), "unknown");
}

// ---- the routing before detect_format, step by step ----------------------------------------
// The page's routing before detect_format (the engine worker's load): graphKind (names, then
// graph_sniff_text on the raw first 64 KB), then a gzip head inflated (up to 1 MB) and loss_sniff
// on its first 64 KB (an Ascend CSV is not a log); else the engine: an Ascend CSV by the header of
// its raw first 256 KB commit, then the sniffer's JSON / XSpace choice on the decompressed bytes; a
// file neither took fails in the JSON importer (unknown here).
FileKind routed_before(const std::string& name, const std::string& file) {
  // TensorBoard event files were unknown until the Loss tab read them.
  if (name.find("tfevents") != std::string::npos) return FileKind::kTrainingLog;
  // Perfetto protobuf traces were taken for an XSpace until the Perfetto importer read them.
  if (name.size() > 8 && name.compare(name.size() - 8, 8, ".pftrace") == 0)
    return FileKind::kPerfetto;
  const std::string_view raw(file);
  if (raw.substr(0, 16) == std::string_view("SQLite format 3\0", 16)) return FileKind::kSqlite;
  const std::regex xplane(R"(\.xplane\.pb(\.gz|\.zst)?$)", std::regex::icase);
  const std::regex hlo_proto(R"((\.hlo_proto\.pb|\.hlo\.pb|hlo_?proto[^/]*\.pb)$)",
                             std::regex::icase);
  if (!std::regex_search(name, xplane)) {
    if (std::regex_search(name, hlo_proto)) return FileKind::kHloProto;
    if (hlo::looks_like_hlo_text(raw.substr(0, 64 << 10))) return FileKind::kHloText;
  }
  std::string inflated;
  const bool gzip = file.size() >= 2 && raw[0] == '\x1F' && raw[1] == '\x8B';
  if (gzip) testing::gunzip(file, &inflated);
  const std::string_view text = gzip && !inflated.empty() ? std::string_view(inflated) : raw;
  const std::string_view sniffed = text.substr(0, 64 << 10);
  if (ascend_csv_kind(sniffed) == AscendCsvKind::kOther &&
      looks_like_text_log(reinterpret_cast<const uint8_t*>(sniffed.data()), sniffed.size()))
    return FileKind::kTrainingLog;
  if (ascend_csv_kind(raw.substr(0, 256 << 10)) != AscendCsvKind::kOther)
    return FileKind::kAscendCsv;
  const std::string_view trace = gzip ? std::string_view(inflated) : raw;
  size_t i = trace.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (i < trace.size() && std::string_view(" \t\r\n").find(trace[i]) != std::string_view::npos)
    ++i;
  if (i < trace.size() && (trace[i] == '{' || trace[i] == '[')) return FileKind::kChromeJson;
  const uint8_t b0 = trace.empty() ? 0 : static_cast<uint8_t>(trace[0]);
  if (b0 == 0x0A || b0 == 0x12 || b0 == 0x1A || b0 == 0x22) return FileKind::kXSpace;
  return FileKind::kUnknown;
}

TEST(DetectFormat, RealFilesGetTheKindTheyWereRoutedTo) {
  namespace fs = std::filesystem;
  const fs::path root = STRATA_SHARED_DATA;
  if (!fs::is_directory(root)) GTEST_SKIP() << "no shared data at " << root;
  size_t checked = 0;
  std::map<FileKind, size_t> seen;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().filename() == "SOURCES.md") continue;
    std::string file;
    ASSERT_TRUE(testing::read_file(entry.path().string(), &file));
    const std::string name = entry.path().filename().string();
    const FileKind before = routed_before(name, file);
    const std::string head = file.substr(0, 1 << 20);  // the page's first read
    const DetectedFormat f = detect(name, head);
    EXPECT_EQ(f.kind, before) << entry.path() << ": " << file_kind_name(f.kind) << " vs "
                              << file_kind_name(before);
    ++seen[f.kind];
    ++checked;
  }
  EXPECT_GT(checked, 0u);
  // The data holds every kind but none of the new compressed ones.
  for (FileKind k : {FileKind::kChromeJson, FileKind::kXSpace, FileKind::kHloText,
                     FileKind::kHloProto, FileKind::kAscendCsv, FileKind::kTrainingLog})
    EXPECT_GT(seen[k], 0u) << file_kind_name(k);
}

// A drop, pick or folder of which no file is one Strata reads: one message naming each file with
// what it looks like, capped, then what Strata reads.
TEST(DescribeUnreadFiles, NamesEachFileByWhatItLooksLikeCappedWithAndNMore) {
  const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
  const std::string zip("PK\x03\x04\x14\0\0\0", 8);
  const std::string noise("\x01\x02\x03\xfe\xfd", 5);
  auto what = [](const std::string& name, const std::string& b) {
    return what_unknown_file_is(name, reinterpret_cast<const uint8_t*>(b.data()), b.size());
  };
  EXPECT_EQ(what("a.png", png), "a PNG image");
  EXPECT_EQ(what("b.zip", zip).rfind("a ZIP archive", 0), 0u) << what("b.zip", zip);
  EXPECT_EQ(what("c.nsys-rep", noise).rfind("an Nsight Systems report", 0), 0u);
  EXPECT_EQ(what("d.bin", noise), "binary data of no format Strata knows");
  EXPECT_EQ(what("a.png", png).find(kWhatStrataReads), std::string::npos);

  std::vector<UnreadFile> files = {{"a.png", what("a.png", png)}, {"b.zip", what("b.zip", zip)}};
  const std::string two = describe_unread_files(files);
  EXPECT_EQ(
      two.rfind("none of the 2 files here is one Strata reads: a.png (a PNG image); b.zip (a ZIP",
                0),
      0u)
      << two;
  EXPECT_NE(two.find(kWhatStrataReads), std::string::npos);
  EXPECT_EQ(two.find("more"), std::string::npos);
  for (int i = 0; i < 10; ++i) files.push_back({"x" + std::to_string(i) + ".bin", "binary data"});
  const std::string many = describe_unread_files(files, 5);
  EXPECT_NE(many.find("none of the 12 files"), std::string::npos) << many;
  EXPECT_NE(many.find("x2.bin (binary data); and 7 more. Strata reads"), std::string::npos) << many;
  EXPECT_EQ(many.find("x3.bin"), std::string::npos) << many;
  EXPECT_EQ(describe_unread_files({{"a.png", "a PNG image"}})
                .rfind("the one file here is not one Strata reads: a.png (a PNG image). ", 0),
            0u);
}

}  // namespace
}  // namespace strata
