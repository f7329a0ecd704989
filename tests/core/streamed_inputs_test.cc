// Every input kind fed in chunks split anywhere, plain, gzip or zstd, then finished: HLO files
// (HloImporter), Ascend memory CSVs (through the engine's load path), training logs
// (LossSession), and WholeText, which holds the whole-file ones.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "core/formats/compression/whole_text.h"
#include "core/formats/hlo/hlo_importer.h"
#include "core/formats/hlo/hlo_text_parser.h"
#include "engine/engine.h"
#include "engine/loss_session.h"
#include "import_test_util.h"

namespace strata {
namespace {

using testing::compress_with;

const char kHlo[] =
    "HloModule jit_f, entry_computation_layout={(f32[4]{0})->f32[4]{0}}\n\n"
    "ENTRY main {\n  p = f32[4]{0} parameter(0)\n  ROOT n = f32[4]{0} negate(p)\n}\n";
const char kCsv[] =
    "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Device Type\n"
    "PTA,1700000000000.5,1.5,2.0,NPU:0\nPTA,1700000000010.5,2.5,3.0,NPU:0\n";

template <typename Feed>
void feed_in(const std::string& bytes, size_t chunk, Feed feed) {
  for (size_t at = 0; at < bytes.size(); at += chunk)
    feed(reinterpret_cast<const uint8_t*>(bytes.data()) + at, std::min(chunk, bytes.size() - at));
}

// The plain bytes and their gzip and zstd copies (those whose tool is present).
std::vector<std::string> copies(const std::string& plain) {
  std::vector<std::string> out{plain};
  for (const char* tool : {"gzip -c", "zstd -q -c"}) {
    std::string packed;
    if (compress_with(tool, plain, &packed)) out.push_back(packed);
  }
  return out;
}

TEST(WholeText, ChunksAnyCompressionAndTheCap) {
  for (const std::string& bytes : copies(kCsv))
    for (size_t chunk : {1, 3, 7, 4096}) {
      WholeText t(1 << 20, "too big");
      feed_in(bytes, chunk, [&](const uint8_t* p, size_t n) { t.feed(p, n); });
      ASSERT_TRUE(t.finish()) << t.error();
      EXPECT_EQ(t.text(), kCsv);
      EXPECT_TRUE(t.warning().empty()) << t.warning();
    }
  WholeText small(10, "a file larger than 10 bytes");
  feed_in(kCsv, 5, [&](const uint8_t* p, size_t n) { small.feed(p, n); });
  EXPECT_FALSE(small.finish());
  EXPECT_EQ(small.error(), "a file larger than 10 bytes");
  // Fewer bytes than a magic, and none.
  WholeText two(100, "");
  two.feed(reinterpret_cast<const uint8_t*>("ab"), 2);
  ASSERT_TRUE(two.finish());
  EXPECT_EQ(two.text(), "ab");
  WholeText none(100, "");
  ASSERT_TRUE(none.finish());
  EXPECT_EQ(none.text(), "");
}

TEST(WholeText, CutStreamKeepsWhatInflatedAndSaysSo) {
  std::string big;
  while (big.size() < 200000) big += kCsv;
  std::string packed;
  if (!compress_with("gzip -c", big, &packed)) GTEST_SKIP() << "gzip not available";
  WholeText t(1 << 30, "");
  feed_in(packed.substr(0, packed.size() / 2), 1000,
          [&](const uint8_t* p, size_t n) { t.feed(p, n); });
  ASSERT_TRUE(t.finish());
  EXPECT_GT(t.text().size(), 0u);
  EXPECT_NE(t.warning().find("cut off"), std::string::npos) << t.warning();
}

TEST(HloImporter, TextSplitAnywhereAnyCompression) {
  for (const std::string& bytes : copies(kHlo))
    for (size_t chunk : {1, 2, 5, 64, 1 << 16}) {
      hlo::HloImporter imp(hlo::HloFileKind::kText);
      feed_in(bytes, chunk, [&](const uint8_t* p, size_t n) { imp.feed(p, n); });
      ASSERT_TRUE(imp.finish()) << imp.error();
      ASSERT_EQ(imp.modules().size(), 1u);
      EXPECT_EQ(imp.modules()[0].module_name, "jit_f");
      EXPECT_EQ(imp.modules()[0].instruction_count(), 2u);
    }
}

TEST(HloImporter, RealFilesMatchTheWholeFileParse) {
  std::string text;
  if (!testing::read_shared("hlo/xla/mobilenet_v2.hlo", &text)) GTEST_SKIP() << "no shared data";
  hlo::HloImporter imp(hlo::HloFileKind::kText);
  feed_in(text, 65521, [&](const uint8_t* p, size_t n) { imp.feed(p, n); });
  ASSERT_TRUE(imp.finish()) << imp.error();
  std::vector<hlo::HloModule> whole;
  std::string err;
  ASSERT_TRUE(hlo::parse_hlo_text(text, &whole, &err)) << err;
  ASSERT_EQ(imp.modules().size(), whole.size());
  EXPECT_EQ(imp.modules()[0].instruction_count(), whole[0].instruction_count());

  std::string proto;
  if (!testing::read_shared("hlo/tracelens/jax_conv_minimal/jit__normal(11).hlo_proto.pb", &proto))
    GTEST_SKIP() << "no HloProto in shared data";
  for (const std::string& bytes : copies(proto)) {
    hlo::HloImporter p(hlo::HloFileKind::kProto, 42);
    feed_in(bytes, 777, [&](const uint8_t* d, size_t n) { p.feed(d, n); });
    ASSERT_TRUE(p.finish()) << p.error();
    ASSERT_EQ(p.modules().size(), 1u);
    EXPECT_EQ(p.modules()[0].program_id, 42);
    EXPECT_GT(p.modules()[0].instruction_count(), 0u);
  }
}

TEST(HloImporter, BadInputAndTheCapSayWhy) {
  hlo::HloImporter junk(hlo::HloFileKind::kText);
  junk.feed(reinterpret_cast<const uint8_t*>("not hlo at all"), 14);
  EXPECT_FALSE(junk.finish());
  EXPECT_FALSE(junk.error().empty());
  EXPECT_TRUE(junk.modules().empty());

  hlo::HloImporter capped(hlo::HloFileKind::kText, 0, 64);
  feed_in(kHlo, 10, [&](const uint8_t* p, size_t n) { capped.feed(p, n); });
  EXPECT_FALSE(capped.finish());
  EXPECT_NE(capped.error().find("too big for the graph viewer"), std::string::npos)
      << capped.error();
  hlo::HloImporter gib(hlo::HloFileKind::kText, 0, size_t{1} << 30);
  gib.feed(nullptr, 0);
  EXPECT_FALSE(gib.finish());  // empty: no module
}

TEST(StreamedInputs, AscendCsvLoadsPlainGzipAndZstdThroughTheEngine) {
  // The engine tells a CSV by the header in its first chunk (the worker's is 256 KB: a zstd
  // block, up to 128 KB, inflates only once whole); the rest may be split anywhere.
  std::string csv = kCsv;
  for (int i = 0; i < 2000; ++i)
    csv += "PTA," + std::to_string(1700000000020 + i) + ".5,2.5,3.0,NPU:0\n";
  for (const std::string& bytes : copies(csv))
    for (size_t chunk : {1, 7, 4096}) {
      Engine e;
      e.load_begin("memory_record.csv", bytes.size());
      const auto commit = [&](const uint8_t* p, size_t n) {
        std::memcpy(e.load_buffer(n), p, n);
        e.load_commit(n);
      };
      const size_t first = std::min<size_t>(bytes[0] == 'C' ? 1000 : 256 << 10, bytes.size());
      commit(reinterpret_cast<const uint8_t*>(bytes.data()), first);
      feed_in(bytes.substr(first), chunk, commit);
      ASSERT_TRUE(e.load_end()) << e.last_error();
      ASSERT_EQ(e.memory().series.size(), 1u);
      EXPECT_EQ(e.memory().series[0].size(), 2002u);
      EXPECT_NE(e.summary_json().find("\"ascend-csv\""), std::string::npos);
    }
  // A first chunk too short to show the header is a trace's (and fails as one), as before.
  Engine e;
  e.load_begin("memory_record.csv", sizeof kCsv - 1);
  feed_in(kCsv, 9, [&](const uint8_t* p, size_t n) {
    std::memcpy(e.load_buffer(n), p, n);
    e.load_commit(n);
  });
  EXPECT_FALSE(e.load_end());
}

TEST(StreamedInputs, TrainingLogScansPlainGzipAndZstd) {
  std::string log;
  for (int i = 1; i <= 300; ++i)
    log +=
        " iteration " + std::to_string(i) + "/ 300 | lm loss: " + std::to_string(10.0 / i) + " |\n";
  for (const std::string& bytes : copies(log))
    for (size_t chunk : {1, 13, 1 << 16}) {
      LossSession s;
      s.scan_begin(LossTags{"lm loss:", "iteration"});
      feed_in(bytes, chunk, [&](const uint8_t* p, size_t n) {
        std::memcpy(s.buffer(n), p, n);
        s.scan_commit(n);
      });
      ASSERT_EQ(s.scan_end(), 300u);
      EXPECT_EQ(s.points()[0], 1.0);
      EXPECT_DOUBLE_EQ(s.points()[1], 10.0);
      EXPECT_EQ(s.points()[2 * 299], 300.0);
      s.release();
    }
  EXPECT_NE(LossSession::guess_tags_json(log).find("\"lossTag\":"), std::string::npos);
}

// The worker hands the tag guess a log's raw first bytes: a compressed head guesses what its
// plain text does, also when it is cut mid-stream.
TEST(StreamedInputs, TagsGuessedFromACompressedHead) {
  std::string log;
  for (int i = 1; i <= 30000; ++i)  // several zstd blocks: half the file inflates to some
    log += "step: " + std::to_string(i) + " | train_loss: " + std::to_string(5.0 / i) + "\n";
  const std::string plain = LossSession::guess_tags_json(log);
  EXPECT_NE(plain.find("\"train_loss:\""), std::string::npos) << plain;
  for (const std::string& bytes : copies(log)) {
    EXPECT_EQ(LossSession::guess_tags_json(bytes), plain);
    EXPECT_EQ(LossSession::guess_tags_json(std::string_view(bytes).substr(0, bytes.size() / 2)),
              plain);
  }
}

}  // namespace
}  // namespace strata
