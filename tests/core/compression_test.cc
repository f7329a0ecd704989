// Compressed input: gzip (single and multi-member) and zstd, recognised by magic bytes, fed in
// chunks of any size; truncated and corrupt streams load what precedes the damage and say so.
// Compressed fixtures are made at test time with the gzip/zstd command-line tools from files
// the test writes (the tests skip when a tool is missing).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "core/formats/compression/decompressing_importer.h"
#include "import_test_util.h"

namespace strata {
namespace {

using testing::compress_with;
using testing::read_file;
using testing::read_shared;

testing::ImportResult import_any(std::string_view data, size_t chunk) {
  testing::ImportResult r;
  SourceFile file;
  file.name = "f", file.bytes = data.size(), file.format = "chrome-json";
  r.store->files.push_back(file);
  auto imp = make_decompressing_importer(r.store.get(), make_chrome_json_importer(r.store.get()));
  auto* p = reinterpret_cast<const uint8_t*>(data.data());
  if (chunk == 0) chunk = data.size() ? data.size() : 1;
  for (size_t i = 0; i < data.size(); i += chunk)
    imp->feed(p + i, std::min(chunk, data.size() - i));
  imp->finish();
  r.failed = imp->failed();
  r.failure = imp->failure();
  r.records = imp->records();
  return r;
}

const char* kSmall = R"({"traceEvents":[
{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":5},
{"ph":"X","name":"b","pid":1,"tid":1,"ts":2,"dur":1},
{"ph":"C","name":"c","pid":1,"ts":3,"args":{"v":1}}]})";

TEST(Compression, SniffsMagicBytes) {
  const uint8_t gz[] = {0x1F, 0x8B, 8, 0}, zs[] = {0x28, 0xB5, 0x2F, 0xFD},
                js[] = {'{', '"', 't', 'r'};
  EXPECT_EQ(sniff_compression(gz, 4), Compression::kGzip);
  EXPECT_EQ(sniff_compression(zs, 4), Compression::kZstd);
  EXPECT_EQ(sniff_compression(js, 4), Compression::kNone);
  EXPECT_EQ(sniff_compression(zs, 3), Compression::kNone);
}

TEST(Compression, PlainInputPassesThrough) {
  for (size_t chunk : {1u, 2u, 3u, 0u}) {
    auto r = import_any(kSmall, chunk);
    ASSERT_FALSE(r.failed) << r.failure;
    EXPECT_EQ(r.store->events.size(), 2u);
    EXPECT_EQ(r.store->files[0].compression, "none");
  }
  auto tiny = import_any("[]", 0);  // shorter than the 4-byte magic
  EXPECT_EQ(tiny.store->files[0].compression, "none");
}

TEST(Compression, GzipAndZstdGiveTheSameStoreAtAnyChunking) {
  std::string gz, zs;
  if (!compress_with("gzip -c -9", kSmall, &gz) || !compress_with("zstd -q -c -19", kSmall, &zs))
    GTEST_SKIP() << "gzip/zstd tools not installed";
  for (const std::string* packed : {&gz, &zs}) {
    for (size_t chunk : {1u, 5u, 4096u}) {
      auto r = import_any(*packed, chunk);
      ASSERT_FALSE(r.failed) << r.failure;
      EXPECT_EQ(r.store->events.size(), 2u);
      EXPECT_EQ(r.store->samples.size(), 1u);
      EXPECT_TRUE(r.store->errors.empty()) << r.store->errors[0];
    }
  }
  EXPECT_EQ(import_any(gz, 0).store->files[0].compression, "gzip");
  EXPECT_EQ(import_any(zs, 0).store->files[0].compression, "zstd");
}

TEST(Compression, MultiMemberGzipIsOneStream) {
  std::string a, b;
  std::string first = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":5},)";
  std::string second = R"({"ph":"X","name":"b","pid":1,"tid":1,"ts":9,"dur":1}])";
  if (!compress_with("gzip -c", first, &a) || !compress_with("gzip -c", second, &b)) GTEST_SKIP();
  auto r = import_any(a + b, 3);
  ASSERT_FALSE(r.failed) << r.failure;
  EXPECT_EQ(r.store->events.size(), 2u);
  EXPECT_TRUE(r.store->errors.empty());
}

TEST(Compression, TruncatedStreamLoadsWhatItHoldsAndSaysSo) {
  std::string plain;
  if (!read_shared("chrome_trace/catapult/x_event_trace.json", &plain)) GTEST_SKIP();
  std::string gz;
  if (!compress_with("gzip -c", plain, &gz)) GTEST_SKIP();
  auto full = import_any(gz, 65536);
  auto cut = import_any(std::string_view(gz).substr(0, gz.size() / 2), 65536);
  ASSERT_FALSE(cut.failed) << cut.failure;
  EXPECT_GT(cut.store->events.size(), 0u);
  EXPECT_LT(cut.store->events.size(), full.store->events.size());
  bool says_early = false;
  for (const auto& e : cut.store->errors)
    says_early |= e.find("gzip stream ends early") != std::string::npos;
  EXPECT_TRUE(says_early);
}

TEST(Compression, CorruptStreamReportsIt) {
  std::string plain;
  if (!read_shared("chrome_trace/catapult/x_event_trace.json", &plain)) GTEST_SKIP();
  std::string zs;
  if (!compress_with("zstd -q -c", plain, &zs)) GTEST_SKIP();
  for (size_t i = zs.size() / 2; i < zs.size() / 2 + 64; ++i)
    zs[i] = static_cast<char>(zs[i] ^ 0x5A);
  auto r = import_any(zs, 4096);
  bool says = r.failed && r.failure.find("corrupt zstd") != std::string::npos;
  for (const auto& e : r.store->errors) says |= e.find("corrupt zstd") != std::string::npos;
  EXPECT_TRUE(says);
  // Garbage that merely starts like gzip fails cleanly.
  auto bad = import_any(std::string("\x1F\x8B\x08\x00garbage-garbage", 19), 0);
  EXPECT_TRUE(bad.failed);
  EXPECT_NE(bad.failure.find("gzip"), std::string::npos) << bad.failure;
}

// Real Kineto traces as the profiler writes them (.json.gz); counts from SOURCES.md.
TEST(Compression, RealKinetoGzipTraces) {
  struct Case {
    const char* path;
    uint64_t x, f, s, m, i;
  } cases[] = {
      {"pytorch_kineto/tracelens/torch_compile_triton/trace.json.gz", 115, 58, 13, 58, 2},
      {"pytorch_kineto/kineto-tb_plugin/resnet50_autograd_api_num_workers_0/"
       "worker0.pt.trace.json.gz",
       59423, 10133, 10133, 20, 2},
  };
  for (const Case& c : cases) {
    std::string gz;
    if (!read_shared(c.path, &gz)) GTEST_SKIP();
    auto r = import_any(gz, 1 << 20);
    ASSERT_FALSE(r.failed) << r.failure;
    const auto& pc = r.store->phase_counts;
    EXPECT_EQ(pc['X'], c.x) << c.path;
    EXPECT_EQ(pc['f'], c.f) << c.path;
    EXPECT_EQ(pc['s'], c.s) << c.path;
    EXPECT_EQ(pc['M'], c.m) << c.path;
    EXPECT_EQ(pc['i'], c.i) << c.path;
    EXPECT_EQ(r.store->files[0].compression, "gzip");
  }
}

}  // namespace
}  // namespace strata
