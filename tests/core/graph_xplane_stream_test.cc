// The graph viewer reads the HloProtos of a compressed xplane (core/graph/xplane_hlo_stream.h):
// gzip and zstd copies of the real xplanes in ../shared/data (made here with the command-line
// tools) give exactly the modules of the plain file, read in one streaming pass with the spans
// the importer found in the compressed load, as the worker does. Cut and corrupt copies give
// messages, never a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/formats/hlo/xplane_hlo.h"
#include "core/formats/xplane/xplane_tables.h"
#include "core/graph/xplane_hlo_stream.h"
#include "engine/engine.h"
#include "import_test_util.h"
#include "xplane_test_util.h"

namespace strata::graph {
namespace {

using testing::kWithHlo;
using testing::u8;

// Everything the graph viewer shows of a module, as text: two modules read alike give the
// same string.
std::string fingerprint(const hlo::HloModule& m) {
  std::string o = m.module_name + " program " + std::to_string(m.program_id) + " entry " +
                  std::to_string(m.entry) + "\n";
  for (uint32_t c = 0; c < m.computation_count(); ++c)
    o += "comp " + std::string(m.str(m.comp_name[c])) + " " + std::to_string(m.comp_is_fusion[c]) +
         " " + std::to_string(m.comp_first[c]) + "+" + std::to_string(m.comp_count[c]) + " root " +
         std::to_string(m.comp_root[c]) + "\n";
  for (uint32_t i = 0; i < m.instruction_count(); ++i) {
    o += std::string(m.str(m.name[i])) + " = " + std::string(m.str(m.opcode[i])) + " " +
         std::string(m.str(m.shape[i])) + " in " + std::to_string(m.computation[i]) + " (";
    for (uint32_t k : m.operands_of(i)) o += std::string(m.str(m.name[k])) + ",";
    o += ") calls ";
    for (uint32_t c : m.called_of(i)) o += std::string(m.str(m.comp_name[c])) + ",";
    o += " " + std::string(m.str(m.fusion_kind[i])) + " " + std::string(m.str(m.op_name[i])) + " " +
         std::string(m.str(m.source_file[i])) + ":" + std::to_string(m.source_line[i]) + " " +
         std::string(m.str(m.backend_config[i])) + " " + std::string(m.str(m.attrs[i])) + "\n";
  }
  return o;
}

// The spans the engine keeps for a load of `bytes` (compressed or not): what the worker asks
// graph_hlo_stream_begin to read.
std::vector<HloProtoSpan> engine_spans(const std::string& bytes, const std::string& name) {
  Engine e;
  EXPECT_TRUE(testing::engine_load(&e, bytes, 1 << 16, name));
  const XSpaceTables* x = e.store() ? e.store()->xspace.get() : nullptr;
  return x ? x->hlo_protos : std::vector<HloProtoSpan>();
}

struct Streamed {
  std::vector<StreamedHlo> modules;
  std::vector<std::string> errors;
  size_t fed = 0;  // input bytes fed until the stream said it was done
  Compression compression = Compression::kNone;
  uint64_t peak = 0;
};

// Feeds `bytes` in chunks of `chunk` until the stream is done, as the worker's graph part does.
Streamed stream(const std::string& bytes, std::vector<HloProtoSpan> spans, size_t chunk) {
  XplaneHloStream s;
  s.begin(std::move(spans));
  Streamed r;
  for (size_t off = 0; off < bytes.size(); off += chunk) {
    const size_t n = std::min(chunk, bytes.size() - off);
    r.fed += n;
    if (s.feed(u8(bytes) + off, n)) break;
  }
  r.compression = s.compression();
  r.peak = s.peak_buffered();
  r.modules = s.finish(&r.errors);
  return r;
}

TEST(GraphXplaneStream, CompressedCopiesGiveThePlainFilesModules) {
  bool tested = false;
  for (const char* rel : kWithHlo) {
    std::string plain, gz, zst;
    if (!testing::read_shared(rel, &plain)) continue;
    if (!testing::compress_with("gzip -c", plain, &gz) ||
        !testing::compress_with("zstd -q -c", plain, &zst))
      GTEST_SKIP() << "gzip or zstd missing";
    tested = true;
    SCOPED_TRACE(rel);
    std::vector<hlo::HloModule> want;
    std::vector<std::string> errors;
    ASSERT_TRUE(hlo::parse_xplane_hlo(u8(plain), plain.size(), &want, &errors));
    ASSERT_TRUE(errors.empty()) << errors.front();
    ASSERT_FALSE(want.empty());
    uint64_t largest = 0, last_end = 0;
    for (const HloProtoSpan& h : engine_spans(plain, "x.xplane.pb")) {
      largest = std::max(largest, h.src_len);
      last_end = std::max(last_end, h.src_offset + h.src_len);
    }

    const struct {
      const std::string* bytes;
      const char* name;
      Compression c;
    } copies[] = {{&plain, "x.xplane.pb", Compression::kNone},
                  {&gz, "x.xplane.pb.gz", Compression::kGzip},
                  {&zst, "x.xplane.pb.zst", Compression::kZstd}};
    for (const auto& copy : copies) {
      SCOPED_TRACE(copy.name);
      const std::vector<HloProtoSpan> spans = engine_spans(*copy.bytes, copy.name);
      ASSERT_EQ(spans.size(), want.size());
      // Chunks that cut the magic bytes, headers and spans anywhere.
      for (size_t chunk : {size_t{3}, size_t{4099}, size_t{1} << 20}) {
        SCOPED_TRACE(chunk);
        Streamed got = stream(*copy.bytes, spans, chunk);
        EXPECT_TRUE(got.errors.empty()) << got.errors.front();
        EXPECT_EQ(got.compression, copy.c);
        ASSERT_EQ(got.modules.size(), want.size());
        for (size_t k = 0; k < want.size(); ++k) {
          EXPECT_EQ(fingerprint(got.modules[k].module), fingerprint(want[k]));
          EXPECT_TRUE(got.modules[k].name.starts_with(want[k].module_name)) << got.modules[k].name;
        }
        // One module's bytes at a time, never the file.
        EXPECT_LE(got.peak, largest);
        // The pass stops once the last module has passed: on a plain file in small chunks,
        // right after its last byte.
        if (copy.c == Compression::kNone && chunk == 4099) {
          EXPECT_LT(got.fed, std::min<uint64_t>(plain.size(), last_end + chunk + 1));
        }
      }
    }
  }
  if (!tested) GTEST_SKIP() << "no xplane samples in " << STRATA_SHARED_DATA;
}

// Where the metadata plane is in the file decides how much is decompressed: profilers write it
// first. A gzip copy stops being read soon after its last module's bytes, before the input ends
// when the file goes on for a while after them.
TEST(GraphXplaneStream, StopsAfterTheLastModule) {
  int tested = 0;
  for (const char* rel : kWithHlo) {
    std::string plain, gz;
    if (!testing::read_shared(rel, &plain)) continue;
    if (!testing::compress_with("gzip -c", plain, &gz)) GTEST_SKIP() << "no gzip";
    SCOPED_TRACE(rel);
    const std::vector<HloProtoSpan> spans = engine_spans(gz, "x.xplane.pb.gz");
    ASSERT_FALSE(spans.empty());
    uint64_t last_end = 0;
    for (const HloProtoSpan& h : spans) last_end = std::max(last_end, h.src_offset + h.src_len);
    Streamed got = stream(gz, spans, 512);
    ASSERT_TRUE(got.errors.empty()) << got.errors.front();
    ASSERT_EQ(got.modules.size(), spans.size());
    std::printf("%s: last module ends at byte %llu of %zu; %zu of %zu compressed bytes read\n", rel,
                static_cast<unsigned long long>(last_end), plain.size(), got.fed, gz.size());
    if (last_end + (32 << 10) >= plain.size()) continue;
    ++tested;
    EXPECT_LT(got.fed, gz.size());
  }
  if (!tested) GTEST_SKIP() << "no sample goes on long after its metadata plane";
}

TEST(GraphXplaneStream, CutAndCorruptCopiesSayWhatIsMissing) {
  std::string plain, gz;
  if (!testing::read_shared(kWithHlo[3], &plain)) GTEST_SKIP() << "no shared data";
  if (!testing::compress_with("gzip -c", plain, &gz)) GTEST_SKIP() << "no gzip";
  const std::vector<HloProtoSpan> spans = engine_spans(gz, "x.xplane.pb.gz");
  ASSERT_GE(spans.size(), 2u);
  std::vector<HloProtoSpan> sorted = spans;
  std::sort(sorted.begin(), sorted.end(),
            [](const auto& a, const auto& b) { return a.src_offset < b.src_offset; });

  // The plain file cut inside the last module: the others are read, the last one is named.
  const HloProtoSpan& last = sorted.back();
  const std::string cut = plain.substr(0, last.src_offset + last.src_len / 2);
  Streamed got = stream(cut, spans, 4096);
  EXPECT_EQ(got.modules.size(), spans.size() - 1);
  ASSERT_EQ(got.errors.size(), 1u);
  EXPECT_NE(got.errors[0].find(last.module + ": not read"), std::string::npos) << got.errors[0];

  // A gzip copy with its deflate data overwritten after the header: the stream breaks, every
  // module is reported, nothing crashes.
  std::string bad = gz;
  for (size_t i = 20; i < std::min<size_t>(bad.size(), 4000); ++i) bad[i] = static_cast<char>(0xff);
  Streamed broken = stream(bad, spans, 1000);
  EXPECT_TRUE(broken.modules.empty());
  ASSERT_FALSE(broken.errors.empty());
  EXPECT_NE(broken.errors[0].find("gzip stream broke"), std::string::npos) << broken.errors[0];
  EXPECT_EQ(broken.errors.size(), spans.size() + 1);

  // Nothing at all, and a stream with no spans wanted.
  Streamed empty = stream(std::string(), spans, 10);
  EXPECT_TRUE(empty.modules.empty());
  EXPECT_EQ(empty.errors.size(), spans.size());
  Streamed none = stream(gz, {}, 1000);
  EXPECT_TRUE(none.modules.empty() && none.errors.empty());
  EXPECT_EQ(none.fed, std::min<size_t>(1000, gz.size()));
}

}  // namespace
}  // namespace strata::graph
