// TensorBoard event files through the Loss tab's reader: the real samples in
// ../shared/data/tensorboard (PyTorch SummaryWriter simple_value, TF2 tensor-encoded scalars,
// a TF1 Estimator run with megabytes of GraphDef) give, per tag, the points an independent
// decode in this file finds (its own bitwise CRC-32C, its own protobuf walk); hostile variants
// (a cut record, a wrong data CRC, a wrong length CRC) end in a message naming the record's
// byte offset with the points before it kept.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "core/formats/detect_format.h"
#include "core/formats/loss_log/log_scan.h"
#include "core/formats/loss_log/tfevents_reader.h"
#include "import_test_util.h"

namespace strata {
namespace {

const char* const kKatib =
    "tensorboard/katib/tfevent-metricscollector/logs/train/"
    "events.out.tfevents.1637681485.2d662933d616.19.0.v2";
const char* const kMegatron =
    "tensorboard/megatron-deepspeed/gpt3-357m/events.out.tfevents.1623896925.dgx0064.2537583.0";
const char* const kTfx =
    "tensorboard/tfx/chicago_taxi_estimator/"
    "events.out.tfevents.1551382513.jyzhao.mtv.corp.google.com";
const char* const kTfxEval =
    "tensorboard/tfx/chicago_taxi_estimator/eval_chicago-taxi-eval/"
    "events.out.tfevents.1551382527.jyzhao.mtv.corp.google.com";

// ---- independent reference ---------------------------------------------------------------------
uint32_t ref_crc(const uint8_t* p, size_t n) {
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int b = 0; b < 8; ++b) c = (c >> 1) ^ (0x82f63b78u & (0u - (c & 1)));
  }
  c = ~c;
  return ((c >> 15) | (c << 17)) + 0xa282ead8u;
}

struct Pb {
  const uint8_t* p;
  const uint8_t* e;
  bool ok = true;
  uint64_t var() {
    uint64_t v = 0;
    for (int s = 0; p < e && s < 64; s += 7) {
      const uint8_t b = *p++;
      v |= uint64_t(b & 0x7f) << s;
      if (!(b & 0x80)) return v;
    }
    ok = false;
    return v;
  }
  // Calls f(field, type, value, data, size) per field.
  template <typename F>
  void each(F f) {
    while (ok && p < e) {
      const uint64_t key = var();
      const uint32_t field = uint32_t(key >> 3), type = uint32_t(key & 7);
      uint64_t v = 0;
      const uint8_t* d = nullptr;
      size_t n = 0;
      if (type == 0)
        v = var();
      else if (type == 1)
        std::memcpy(&v, p, 8), p += 8;
      else if (type == 5) {
        uint32_t w;
        std::memcpy(&w, p, 4);
        v = w;
        p += 4;
      } else if (type == 2) {
        n = size_t(var());
        d = p;
        p += n;
      } else {
        ok = false;
        return;
      }
      if (p > e) {
        ok = false;
        return;
      }
      f(field, type, v, d, n);
    }
  }
};

using Curves = std::map<std::string, std::vector<std::pair<int64_t, double>>>;

Curves ref_decode(const std::string& file, size_t* records) {
  Curves out;
  std::map<std::string, bool> plugin_scalar;
  const auto* b = reinterpret_cast<const uint8_t*>(file.data());
  size_t at = 0;
  *records = 0;
  while (at + 12 <= file.size()) {
    uint64_t len;
    std::memcpy(&len, b + at, 8);
    uint32_t lc, dc;
    std::memcpy(&lc, b + at + 8, 4);
    EXPECT_EQ(ref_crc(b + at, 8), lc);
    const uint8_t* d = b + at + 12;
    std::memcpy(&dc, d + len, 4);
    EXPECT_EQ(ref_crc(d, size_t(len)), dc);
    ++*records;
    int64_t step = 0;
    Pb ev{d, d + len};
    ev.each([&](uint32_t f, uint32_t t, uint64_t v, const uint8_t* sd, size_t sn) {
      if (f == 2 && t == 0) step = int64_t(v);
      if (f != 5 || t != 2) return;
      Pb sum{sd, sd + sn};
      sum.each([&](uint32_t vf, uint32_t, uint64_t, const uint8_t* vd, size_t vn) {
        if (vf != 1) return;
        std::string tag, plugin;
        bool meta = false, have = false;
        double value = 0;
        Pb val{vd, vd + vn};
        val.each([&](uint32_t g, uint32_t gt, uint64_t gv, const uint8_t* gd, size_t gn) {
          if (g == 1) tag.assign(reinterpret_cast<const char*>(gd), gn);
          if (g == 2 && gt == 5) {
            float x;
            uint32_t w = uint32_t(gv);
            std::memcpy(&x, &w, 4);
            value = x;
            have = true;
          }
          if (g == 9) {
            meta = true;
            Pb m{gd, gd + gn};
            m.each([&](uint32_t h, uint32_t, uint64_t, const uint8_t* hd, size_t hn) {
              if (h != 1) return;
              Pb pd{hd, hd + hn};
              pd.each([&](uint32_t k, uint32_t, uint64_t, const uint8_t* kd, size_t kn) {
                if (k == 1) plugin.assign(reinterpret_cast<const char*>(kd), kn);
              });
            });
          }
          if (g == 8) {  // the samples' tensors: DT_FLOAT scalars in tensor_content
            uint64_t dtype = 0;
            std::string content;
            Pb tp{gd, gd + gn};
            tp.each([&](uint32_t k, uint32_t, uint64_t kv, const uint8_t* kd, size_t kn) {
              if (k == 1) dtype = kv;
              if (k == 4) content.assign(reinterpret_cast<const char*>(kd), kn);
            });
            if (dtype == 1 && content.size() == 4) {
              float x;
              std::memcpy(&x, content.data(), 4);
              value = x, have = true;
            }
          }
        });
        if (meta && !plugin_scalar.count(tag)) plugin_scalar[tag] = plugin == "scalars";
        if (plugin_scalar.count(tag) && !plugin_scalar[tag]) return;
        if (have) out[tag].push_back({step, value});
      });
    });
    at += 12 + size_t(len) + 4;
  }
  EXPECT_EQ(at, file.size());
  return out;
}

// ---- the reader ----------------------------------------------------------------------------
struct Read {
  LossSeries points;
  std::vector<std::string> keys;
  std::string note, series;
  LogFormat format;
};

Read read_log(const std::string& bytes, const std::string& series, const std::string& step,
              size_t chunk = 4096) {
  LogScan scan(LossTags{series, step});
  for (size_t at = 0; at < bytes.size(); at += chunk)
    scan.feed(reinterpret_cast<const uint8_t*>(bytes.data()) + at,
              std::min(chunk, bytes.size() - at));
  scan.finish();
  Read r;
  r.points = scan.take_points();
  r.keys = scan.series_keys();
  r.note = scan.note();
  r.series = scan.tags().loss;
  r.format = scan.format();
  return r;
}

void expect_same_curves(const char* rel, size_t want_records) {
  std::string bytes;
  if (!testing::read_shared(rel, &bytes)) GTEST_SKIP() << "no " << rel;
  size_t records = 0;
  const Curves ref = ref_decode(bytes, &records);
  EXPECT_EQ(records, want_records);
  ASSERT_FALSE(ref.empty());
  // Every tag the reference finds, and only those, with the same points in file order.
  Read all = read_log(bytes, ref.begin()->first, "step");
  EXPECT_EQ(all.format, LogFormat::kTfEvents);
  EXPECT_EQ(all.keys.size(), ref.size());
  EXPECT_EQ(all.note, "");
  for (const auto& [tag, pts] : ref) {
    const Read r = read_log(bytes, tag, "step", 1000 + tag.size() * 77);
    ASSERT_EQ(r.points.size(), pts.size()) << tag;
    for (size_t i = 0; i < pts.size(); ++i) {
      EXPECT_EQ(r.points.iteration[i], pts[i].first) << tag << " #" << i;
      EXPECT_EQ(r.points.loss[i], pts[i].second) << tag << " #" << i;
    }
  }
}

TEST(LossTfEvents, MegatronSimpleValuesEqualAnIndependentDecode) {
  expect_same_curves(kMegatron, 1280);
}
TEST(LossTfEvents, KatibTensorScalarsEqualAnIndependentDecode) { expect_same_curves(kKatib, 21); }
TEST(LossTfEvents, TfxEstimatorEqualsAnIndependentDecode) { expect_same_curves(kTfx, 217); }
TEST(LossTfEvents, TfxEvalEqualsAnIndependentDecode) { expect_same_curves(kTfxEval, 7); }

TEST(LossTfEvents, KnownCurvesAndGuessedTags) {
  std::string m, k, t;
  if (!testing::read_shared(kMegatron, &m) || !testing::read_shared(kKatib, &k) ||
      !testing::read_shared(kTfx, &t))
    GTEST_SKIP() << "no shared data";
  // SOURCES.md: lm loss x100 (11.07 -> 9.001); text summaries are not series.
  const LossTags mt = guess_log_tags(m.substr(0, 1 << 20));
  EXPECT_EQ(mt.loss, "lm loss");
  EXPECT_EQ(mt.iteration, "step");
  const Read mr = read_log(m, mt.loss, mt.iteration);
  ASSERT_EQ(mr.points.size(), 100u);
  EXPECT_NEAR(mr.points.loss.front(), 11.07, 0.01);
  EXPECT_NEAR(mr.points.loss.back(), 9.001, 0.001);
  for (const std::string& key : mr.keys) EXPECT_EQ(key.find("text_summary"), std::string::npos);
  // Katib: loss x10 (0.2048 -> 0.03607), the first at step 0 (no step on the wire).
  const Read kr = read_log(k, guess_log_tags(k).loss, "step");
  EXPECT_EQ(kr.series, "loss");
  ASSERT_EQ(kr.points.size(), 10u);
  EXPECT_EQ(kr.points.iteration[0], 0);
  EXPECT_NEAR(kr.points.loss[0], 0.2048, 1e-4);
  EXPECT_NEAR(kr.points.loss[9], 0.03607, 1e-5);
  // TFX: the head is GraphDef, no scalar to guess from; the reader chooses "loss" at its end.
  const Read tr = read_log(t, guess_log_tags(t.substr(0, 1 << 20)).loss, "step");
  EXPECT_EQ(tr.series, "loss");
  ASSERT_EQ(tr.points.size(), 100u);
  EXPECT_NEAR(tr.points.loss.front(), 27.41, 0.01);
  EXPECT_NEAR(tr.points.loss.back(), 12.13, 0.01);
  // detect_format sends every one to the Loss tab.
  for (const std::string* b : {&m, &k, &t})
    EXPECT_EQ(detect_format("x", reinterpret_cast<const uint8_t*>(b->data()), b->size()).kind,
              FileKind::kTrainingLog);
}

// Offsets of each record's start in a valid file.
std::vector<size_t> record_starts(const std::string& b) {
  std::vector<size_t> out;
  for (size_t at = 0; at + 12 <= b.size();) {
    out.push_back(at);
    uint64_t len;
    std::memcpy(&len, b.data() + at, 8);
    at += 16 + size_t(len);
  }
  return out;
}

TEST(LossTfEvents, CutRecordKeepsThePointsBefore) {
  std::string k;
  if (!testing::read_shared(kKatib, &k)) GTEST_SKIP() << "no shared data";
  const std::vector<size_t> starts = record_starts(k);
  ASSERT_EQ(starts.size(), 21u);
  const size_t cut = starts[15] + 20;  // inside record 15's data
  const Read r = read_log(k.substr(0, cut), "loss", "step");
  EXPECT_NE(r.note.find("ends inside the record at byte " + std::to_string(starts[15])),
            std::string::npos)
      << r.note;
  EXPECT_NE(r.note.find("the 15 records before it are read"), std::string::npos) << r.note;
  const Read whole = read_log(k, "loss", "step");
  ASSERT_GT(r.points.size(), 0u);
  ASSERT_LT(r.points.size(), whole.points.size());
  for (size_t i = 0; i < r.points.size(); ++i) EXPECT_EQ(r.points.loss[i], whole.points.loss[i]);
}

TEST(LossTfEvents, WrongCrcsNameTheRecord) {
  std::string k;
  if (!testing::read_shared(kKatib, &k)) GTEST_SKIP() << "no shared data";
  const std::vector<size_t> starts = record_starts(k);
  std::string data_bad = k;
  data_bad[starts[9] + 14] ^= 0x40;  // a data byte of record 9
  const Read d = read_log(data_bad, "loss", "step");
  EXPECT_NE(d.note.find("the data of the record at byte " + std::to_string(starts[9]) +
                        " fails its CRC check"),
            std::string::npos)
      << d.note;
  EXPECT_NE(d.note.find("the 9 records before it are read"), std::string::npos) << d.note;
  std::string len_bad = k;
  len_bad[starts[4] + 9] ^= 0x01;  // the length CRC of record 4
  const Read l = read_log(len_bad, "loss", "step");
  EXPECT_NE(l.note.find("the length of the record at byte " + std::to_string(starts[4]) +
                        " fails its CRC check"),
            std::string::npos)
      << l.note;
  EXPECT_LT(l.points.size(), d.points.size());
}

TEST(LossTfEvents, HandBuiltTensorForms) {
  // Event{step=7, summary{value{tag="d", tensor{dtype=DT_DOUBLE, double_val=[2.5]}}}} framed by
  // the reader's own CRC: the double_val form (packed) that no sample has.
  auto varint = [](std::string* o, uint64_t v) {
    while (v >= 0x80) o->push_back(char(v | 0x80)), v >>= 7;
    o->push_back(char(v));
  };
  auto len_field = [&](std::string* o, int f, const std::string& s) {
    varint(o, uint64_t(f) << 3 | 2);
    varint(o, s.size());
    *o += s;
  };
  std::string dv(8, '\0');
  const double x = 2.5;
  std::memcpy(&dv[0], &x, 8);
  std::string tensor;
  varint(&tensor, 1 << 3), varint(&tensor, 2);  // dtype = DT_DOUBLE
  len_field(&tensor, 6, dv);                    // packed double_val
  std::string value;
  len_field(&value, 1, "d");
  len_field(&value, 8, tensor);
  std::string summary;
  len_field(&summary, 1, value);
  std::string event;
  varint(&event, 2 << 3), varint(&event, 7);
  len_field(&event, 5, summary);
  std::string file(12, '\0');
  const uint64_t n = event.size();
  std::memcpy(&file[0], &n, 8);
  const uint32_t lc = ref_crc(reinterpret_cast<const uint8_t*>(file.data()), 8);
  std::memcpy(&file[8], &lc, 4);
  file += event;
  const uint32_t dc = ref_crc(reinterpret_cast<const uint8_t*>(event.data()), event.size());
  file.append(reinterpret_cast<const char*>(&dc), 4);
  ASSERT_TRUE(looks_like_tfevents(reinterpret_cast<const uint8_t*>(file.data()), file.size()));
  const Read r = read_log(file, "d", "step", 3);
  ASSERT_EQ(r.points.size(), 1u);
  EXPECT_EQ(r.points.iteration[0], 7);
  EXPECT_EQ(r.points.loss[0], 2.5);
}

}  // namespace
}  // namespace strata
