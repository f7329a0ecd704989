// Structured training logs through the Loss tab's reader: JSON lines (nested keys, bare NaN,
// a bad line skipped and counted, the step guessed or the line number), a trainer_state.json
// log_history, CSV/TSV/semicolon files with quoted fields and TensorBoard's CSV download, fed
// in chunks split anywhere; and detect_format telling JSON lines from Chrome traces by content.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/formats/detect_format.h"
#include "core/formats/loss_log/log_scan.h"
#include "import_test_util.h"

namespace strata {
namespace {

struct Read {
  LossSeries points;
  std::vector<std::string> keys, steps;
  std::string note;
  LogFormat format;
};

Read read_log(const std::string& bytes, const LossTags& tags, size_t chunk) {
  LogScan scan(tags);
  for (size_t at = 0; at < bytes.size(); at += chunk)
    scan.feed(reinterpret_cast<const uint8_t*>(bytes.data()) + at,
              std::min(chunk, bytes.size() - at));
  scan.finish();
  return {scan.take_points(), scan.series_keys(), scan.step_keys(), scan.note(), scan.format()};
}

FileKind kind_of(const std::string& s, const std::string& name = "metrics") {
  return detect_format(name, reinterpret_cast<const uint8_t*>(s.data()), s.size()).kind;
}

std::string jsonl() {
  std::string s;
  for (int i = 1; i <= 40; ++i) {
    s += "{\"_step\": " + std::to_string(i * 10) +
         ", \"train\": {\"loss\": " + std::to_string(3.0 / i) + ", \"acc\": 0." +
         std::to_string(i) + "}, \"lr\": 1e-4, \"tags\": [1, 2], \"run\": \"a\\\"b\"}\n";
    if (i == 7) s += "{\"_step\": 75, \"train\": {\"loss\": oops}}\n";  // not JSON: skipped
    if (i == 9) s += "\n";                                              // blank: not a record
    if (i == 20) s += "{\"_step\": 205, \"train/loss\": NaN}\r\n";
  }
  return s;
}

TEST(LossStructured, JsonLinesEveryNumericKeyIsASeries) {
  const std::string s = jsonl();
  EXPECT_EQ(kind_of(s), FileKind::kTrainingLog);
  const LossTags guessed = guess_log_tags(s);
  EXPECT_EQ(guessed.loss, "train/loss");
  EXPECT_EQ(guessed.iteration, "_step");
  for (size_t chunk : {size_t{1}, size_t{7}, size_t{4096}, s.size()}) {
    SCOPED_TRACE(chunk);
    const Read r = read_log(s, guessed, chunk);
    EXPECT_EQ(r.format, LogFormat::kJsonLines);
    EXPECT_EQ(r.keys, (std::vector<std::string>{"_step", "train/loss", "train/acc", "lr"}));
    EXPECT_EQ(r.steps, (std::vector<std::string>{"_step", std::string(kLineStep)}));
    ASSERT_EQ(r.points.size(), 41u);  // 40 lines and the NaN one
    EXPECT_EQ(r.points.iteration[0], 10);
    EXPECT_DOUBLE_EQ(r.points.loss[0], 3.0);
    EXPECT_EQ(r.points.iteration[20], 205);
    EXPECT_TRUE(std::isnan(r.points.loss[20]));
    EXPECT_NE(r.note.find("1 of 42 records could not be read and were skipped (the first: "
                          "record 8 is not a JSON object"),
              std::string::npos)
        << r.note;
  }
  // Another series, and the line number as the step.
  const Read lr = read_log(s, LossTags{"lr", std::string(kLineStep)}, 100);
  ASSERT_EQ(lr.points.size(), 40u);
  EXPECT_EQ(lr.points.iteration[0], 1);
  EXPECT_EQ(lr.points.iteration[7], 9);  // line 8 was the bad one
  // A key that is not there says so.
  EXPECT_NE(read_log(s, LossTags{"val/loss", "_step"}, 100).note.find("no series \"val/loss\""),
            std::string::npos);
}

TEST(LossStructured, ChromeTracesStayTraces) {
  EXPECT_EQ(kind_of("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1}]}\n"), FileKind::kChromeJson);
  EXPECT_EQ(kind_of("{\n  \"traceEvents\": [\n"), FileKind::kChromeJson);
  EXPECT_EQ(kind_of("[{\"name\": \"a\", \"ph\": \"B\", \"ts\": 1},\n{\"ph\": \"E\"}]"),
            FileKind::kChromeJson);
  EXPECT_EQ(kind_of("{\"ph\": \"X\", \"ts\": 1}\n{\"ph\": \"X\", \"ts\": 2}\n"),
            FileKind::kChromeJson);
  EXPECT_EQ(kind_of("{\"displayTimeUnit\": \"ns\", \"traceEvents\": []}\n"), FileKind::kChromeJson);
  EXPECT_EQ(kind_of("{\"step\": 1, \"loss\": 2}\n{\"step\": 2, \"loss\": 1}\n"),
            FileKind::kTrainingLog);
  EXPECT_EQ(kind_of("{\"step\": 1, \"loss\": 2}\n"), FileKind::kTrainingLog);
}

TEST(LossStructured, TrainerStateLogHistory) {
  const std::string s =
      "{\n  \"best_metric\": null,\n  \"epoch\": 3.0,\n  \"global_step\": 30,\n"
      "  \"log_history\": [\n    {\n      \"epoch\": 0.5,\n      \"learning_rate\": 4e-05,\n"
      "      \"loss\": 2.25,\n      \"step\": 10\n    },\n    {\n      \"epoch\": 1.0,\n"
      "      \"eval_loss\": 2.0,\n      \"step\": 20\n    },\n    {\n      \"epoch\": 1.5,\n"
      "      \"loss\": 1.5,\n      \"step\": 30\n    }\n  ],\n  \"max_steps\": 30\n}\n";
  EXPECT_EQ(kind_of(s), FileKind::kTrainingLog);
  const LossTags t = guess_log_tags(s);
  EXPECT_EQ(t.loss, "loss");
  EXPECT_EQ(t.iteration, "step");
  for (size_t chunk : {size_t{5}, s.size()}) {
    const Read r = read_log(s, t, chunk);
    EXPECT_EQ(r.format, LogFormat::kJsonRecords);
    ASSERT_EQ(r.points.size(), 2u);
    EXPECT_EQ(r.points.iteration[1], 30);
    EXPECT_EQ(r.points.loss[1], 1.5);
    EXPECT_EQ(r.note, "");
    EXPECT_EQ(r.keys,
              (std::vector<std::string>{"epoch", "learning_rate", "loss", "step", "eval_loss"}));
  }
  // A top-level array of records.
  const Read a = read_log("[{\"iter\": 1, \"loss\": 3}, {\"iter\": 2, \"loss\": 2}]",
                          LossTags{"loss", "iter"}, 3);
  EXPECT_EQ(a.format, LogFormat::kJsonRecords);
  EXPECT_EQ(a.points.size(), 2u);
}

TEST(LossStructured, CsvColumnsAreSeries) {
  // The brief's case: a step,loss CSV used to yield zero points.
  const std::string plain = "step,loss\n1,2.5\n2,2.25\n3,2.0\n";
  EXPECT_EQ(kind_of(plain, "metrics.csv"), FileKind::kTrainingLog);
  const LossTags pt = guess_log_tags(plain);
  EXPECT_EQ(pt.loss, "loss");
  EXPECT_EQ(pt.iteration, "step");
  const Read p = read_log(plain, pt, 2);
  EXPECT_EQ(p.format, LogFormat::kDelimited);
  ASSERT_EQ(p.points.size(), 3u);
  EXPECT_EQ(p.points.loss[2], 2.0);
  // TensorBoard's download: Wall time,Step,Value.
  const std::string tb =
      "Wall time,Step,Value\n1623896930.5,1,11.07\n1623896931.5,2,10.5\n1623896932.5,3,10.1\n";
  const LossTags tt = guess_log_tags(tb);
  EXPECT_EQ(tt.loss, "Value");
  EXPECT_EQ(tt.iteration, "Step");
  const Read t = read_log(tb, tt, 1);
  ASSERT_EQ(t.points.size(), 3u);
  EXPECT_EQ(t.points.iteration[0], 1);
  EXPECT_EQ(t.points.loss[0], 11.07);
  EXPECT_EQ(t.keys, (std::vector<std::string>{"Wall time", "Step", "Value"}));
  // Tabs, quotes (a quoted delimiter, "" and a newline inside), CRLF, an empty cell.
  const std::string tsv =
      "\"epoch\"\t\"train loss\"\tnote\r\n0\t1.5\t\"a\tb\"\r\n1\t\t\"x "
      "\"\"y\"\"\"\r\n2\t0.75\t\"two\nlines\"\r\n";
  const Read v = read_log(tsv, guess_log_tags(tsv), 3);
  EXPECT_EQ(v.format, LogFormat::kDelimited);
  ASSERT_EQ(v.points.size(), 2u);
  EXPECT_EQ(v.points.iteration[1], 2);
  EXPECT_EQ(v.points.loss[1], 0.75);
  EXPECT_EQ(v.note, "");
  // Semicolons.
  const Read semi =
      read_log("iteration;lm loss\n10;3,5\n20;3.25\n", LossTags{"lm loss", "iteration"}, 4);
  ASSERT_EQ(semi.points.size(), 1u);  // "3,5" is not a number
  EXPECT_EQ(semi.points.iteration[0], 20);
}

TEST(LossStructured, TextLogsStayText) {
  // The seed's logs: not CSV even with commas on every line.
  const std::string s =
      "step: 1, loss: 2.5, lr: 1e-4\nstep: 2, loss: 2.25, lr: 1e-4\nstep: 3, loss: 2.0, lr: 1e-4\n";
  EXPECT_EQ(sniff_log_format(reinterpret_cast<const uint8_t*>(s.data()), s.size()),
            LogFormat::kText);
  const Read r = read_log(s, LossTags{"loss:", "step:"}, 8);
  EXPECT_EQ(r.format, LogFormat::kText);
  EXPECT_EQ(r.note, "");
}

TEST(LossStructured, RealTextLogsStayText) {
  for (const char* rel : {"training_logs/deepspeedexamples/gpt_finetuning/train_with_kernel.log",
                          "training_logs/deepspeedexamples/deepspeed-chat-step1/"
                          "opt-1.3b-globalBatchSize128.log"}) {
    std::string s;
    if (!testing::read_shared(rel, &s)) GTEST_SKIP() << "no " << rel;
    EXPECT_EQ(sniff_log_format(reinterpret_cast<const uint8_t*>(s.data()),
                               std::min<size_t>(s.size(), LogScan::kSniffBytes)),
              LogFormat::kText)
        << rel;
  }
}

}  // namespace
}  // namespace strata
