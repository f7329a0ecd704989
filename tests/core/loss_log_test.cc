// Loss extraction from training logs: the seed's three matching rules line by line (including
// its worked example), chunked scanning split anywhere, the default-tag guess, the text/trace
// sniff, and the real logs in ../shared/data/training_logs checked against an independent
// std::regex reference over the lines.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>

#include "core/formats/loss_log/default_tags.h"
#include "core/formats/loss_log/log_name.h"
#include "core/formats/loss_log/log_scanner.h"
#include "core/formats/loss_log/tag_match.h"
#include "core/formats/loss_log/text_sniff.h"
#include "import_test_util.h"

namespace strata {
namespace {

const LossTags kSeedTags{"loss:", "iteration"};

TEST(LossTagMatch, SeedWorkedExample) {
  // The seed's example (README "匹配规则"), one region per rule, with Loss Tag "loss:" and
  // Iteration Tag "iteration":
  //   region 1: "iteration 100"  → the iteration (an integer right after the tag, spaces ok)
  //   region 2: "loss: 2.5"      → the loss, the first Loss Tag match of the line
  //   region 3: "iteration: 7"   → no match: ':' between tag and number
  //   region 4: "loss: 3.75"     → a second match in the line: ignored (rule 2)
  const std::string line = "iteration 100 | loss: 2.5 | iteration: 7 | loss: 3.75";
  auto p = match_line(line, kSeedTags);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->iteration, 100);
  EXPECT_EQ(p->loss, 2.5);
  // Region 5: a line with only a Loss Tag match; region 6: a line with only an Iteration Tag
  // match. Neither yields a point (rule 3).
  EXPECT_FALSE(match_line("epoch done | loss: 1.25", kSeedTags).has_value());
  EXPECT_FALSE(match_line("iteration 200 | lr: 1e-4", kSeedTags).has_value());
  EXPECT_TRUE(match_loss_tag("epoch done | loss: 1.25", "loss:").has_value());
  EXPECT_TRUE(match_iteration_tag("iteration 200 | lr: 1e-4", "iteration").has_value());
}

TEST(LossTagMatch, LossMatchBeforeIterationMismatch) {
  // The Loss Tag matches first in the line, the Iteration Tag only with a ':' in between.
  EXPECT_FALSE(match_line("loss: 0.5 iteration: 12", kSeedTags).has_value());
  EXPECT_EQ(match_loss_tag("loss: 0.5 iteration: 12", "loss:"), 0.5);
  EXPECT_FALSE(match_iteration_tag("loss: 0.5 iteration: 12", "iteration").has_value());
  // Any character other than a space breaks the match, a tab or many spaces do not.
  EXPECT_FALSE(match_iteration_tag("iteration#3", "iteration").has_value());
  EXPECT_FALSE(match_iteration_tag("iteration -3", "iteration").has_value());
  EXPECT_EQ(match_iteration_tag("iteration \t  42 of", "iteration"), 42);
  EXPECT_EQ(match_iteration_tag("iteration42", "iteration"), 42);
}

TEST(LossTagMatch, RepeatedTagFirstMatchCounts) {
  EXPECT_EQ(match_loss_tag("loss: 1.5 loss: 2.5", "loss:"), 1.5);
  EXPECT_EQ(match_iteration_tag("iteration 3 iteration 4", "iteration"), 3);
  // An occurrence not followed by a number is passed over: the first *match* counts.
  EXPECT_EQ(match_loss_tag("loss: nan | loss: 2.25", "loss:"), 2.25);
  EXPECT_EQ(match_iteration_tag("elapsed time per iteration (ms) | iteration 9", "iteration"), 9);
  // Overlapping occurrences are all tried.
  EXPECT_EQ(match_iteration_tag("stepstep 5", "stepstep"), 5);
  EXPECT_EQ(match_iteration_tag("ststep 5", "step"), 5);
}

TEST(LossTagMatch, Numbers) {
  EXPECT_EQ(match_loss_tag("lm loss: 1.069056E+01 |", "lm loss:"), 10.69056);
  EXPECT_EQ(match_loss_tag("loss: 3e-2", "loss:"), 0.03);
  EXPECT_EQ(match_loss_tag("loss: -0.125", "loss:"), -0.125);
  EXPECT_EQ(match_loss_tag("loss: +7", "loss:"), 7.0);
  EXPECT_EQ(match_loss_tag("loss: 7.", "loss:"), 7.0);
  EXPECT_EQ(match_loss_tag("loss: 2e", "loss:"), 2.0);  // "e" without digits is not an exponent
  EXPECT_EQ(match_loss_tag("loss: 2e+x", "loss:"), 2.0);
  EXPECT_FALSE(match_loss_tag("loss: .5", "loss:").has_value());
  EXPECT_FALSE(match_loss_tag("loss: -", "loss:").has_value());
  EXPECT_FALSE(match_loss_tag("loss:", "loss:").has_value());
  EXPECT_EQ(match_loss_tag("Perplexity: 61.57951131190911", "Perplexity:"), 61.57951131190911);
  // Long mantissas and big exponents take the strtod path: still exact.
  EXPECT_EQ(match_loss_tag("loss: 0.12345678901234567890123", "loss:"),
            std::strtod("0.12345678901234567890123", nullptr));
  EXPECT_EQ(match_loss_tag("loss: 1.5e300", "loss:"), 1.5e300);
  EXPECT_EQ(match_iteration_tag("iteration 10/ 500", "iteration"), 10);
  EXPECT_FALSE(match_iteration_tag("iteration 1234567890123456789012", "iteration").has_value());
  EXPECT_FALSE(match_line("loss: 1", LossTags{"", "iteration"}).has_value());
  EXPECT_FALSE(match_line("iteration 1 loss: 1", LossTags{"loss:", ""}).has_value());
}

std::string sample_log() {
  std::string s = "header line without tags\r\n";
  for (int i = 1; i <= 300; ++i) {
    s += " iteration " + std::to_string(i * 10) + "/ 3000 | lm loss: " + std::to_string(10.0 / i) +
         " |\r\n";
    if (i % 7 == 0) s += "validation loss: 3.0 at iteration: " + std::to_string(i) + "\n";
    if (i % 11 == 0) s += std::string(3000, 'x') + " loss: 1\n";  // a long line, only one tag
  }
  return s + "iteration 99999 loss: 0.5";  // no final newline
}

TEST(LossScanner, ChunksSplitAnywhereGiveTheSamePoints) {
  const std::string log = sample_log();
  const LossTags tags{"loss:", "iteration"};
  LossSeries whole = scan_loss_text(log, tags);
  ASSERT_EQ(whole.size(), 301u);
  EXPECT_EQ(whole.iteration[0], 10);
  EXPECT_EQ(whole.iteration.back(), 99999);
  EXPECT_EQ(whole.loss.back(), 0.5);
  for (size_t chunk : {1u, 2u, 3u, 7u, 64u, 1000u, 4096u}) {
    LossScanner s(tags);
    const auto* p = reinterpret_cast<const uint8_t*>(log.data());
    for (size_t i = 0; i < log.size(); i += chunk) s.feed(p + i, std::min(chunk, log.size() - i));
    s.finish();
    EXPECT_EQ(s.points().iteration, whole.iteration) << "chunk " << chunk;
    EXPECT_EQ(s.points().loss, whole.loss) << "chunk " << chunk;
    EXPECT_EQ(s.bytes(), log.size());
  }
}

TEST(LossScanner, OverlongLineIsCutNotHeld) {
  std::string log = "iteration 1 loss: 2\n";
  log += "iteration 2 " + std::string(LossScanner::kMaxLine + 100, 'y') + " loss: 3\n";
  log += "iteration 3 loss: 4\n";
  LossScanner s({"loss:", "iteration"});
  const auto* p = reinterpret_cast<const uint8_t*>(log.data());
  for (size_t i = 0; i < log.size(); i += 4096)
    s.feed(p + i, std::min<size_t>(4096, log.size() - i));
  s.finish();
  // The long line's tail (and its loss) is past the cap when it arrives in pieces.
  EXPECT_EQ(s.points().iteration, (std::vector<int64_t>{1, 3}));
}

TEST(LossTextSniff, LogsAreTextTracesAreNot) {
  auto sniff = [](std::string_view s) {
    return looks_like_text_log(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  };
  EXPECT_TRUE(sniff("Using /home/x/.cache\niteration 1 loss: 2\n"));
  EXPECT_TRUE(sniff("[2022-10-28 21:41:52,380] [INFO] loss: 2\n"));
  EXPECT_TRUE(sniff("[INFO] step 1\n"));
  EXPECT_TRUE(sniff("\x1b[32mgreen\x1b[0m loss: 1\n"));
  EXPECT_TRUE(sniff("\nleading newline\n"));
  EXPECT_FALSE(sniff(""));
  EXPECT_FALSE(sniff("{\"traceEvents\": []}"));
  EXPECT_FALSE(sniff("  [\n {\"ph\":\"X\"}]"));
  EXPECT_FALSE(sniff("[]"));
  EXPECT_FALSE(sniff(std::string("\x1f\x8b\x08\x00", 4)));
  EXPECT_FALSE(sniff(std::string("\x28\xb5\x2f\xfd", 4)));
  EXPECT_FALSE(sniff(std::string("\x0a\x05\x08\x00\x12\x01x", 7)));  // an XSpace's first bytes
}

TEST(LossDefaultTags, GuessedFromTheFirstLines) {
  LossTags t = guess_loss_tags(
      " iteration       10/ 1716613 | lm loss: 1.069056E+01 | loss scale: 2048.0 |\n");
  EXPECT_EQ(t.loss, "lm loss:");
  EXPECT_EQ(t.iteration, "iteration");
  t = guess_loss_tags("Step at 1 with Perplexity: 61.5\nStep at 2 with Perplexity: 60.1\n");
  EXPECT_EQ(t.loss, "Perplexity:");
  EXPECT_EQ(t.iteration, "Step at");
  t = guess_loss_tags("step: 5 train_loss: 0.3\n");
  EXPECT_EQ(t.loss, "train_loss:");
  EXPECT_EQ(t.iteration, "step:");
  t = guess_loss_tags("nothing here\n");
  EXPECT_EQ(t.loss, "loss:");
  EXPECT_EQ(t.iteration, "iteration");
}

// ---- real logs against a std::regex reference ---------------------------------------------

std::string regex_escape(const std::string& s) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
  return std::regex_replace(s, special, R"(\$&)");
}

// The rules as regular expressions: the leftmost match of tag + spaces + number is the first
// occurrence followed by a number.
LossSeries reference_extract(const std::string& text, const LossTags& tags) {
  const std::regex loss_re(regex_escape(tags.loss) +
                           R"([ \t]*([+-]?[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?))");
  const std::regex iter_re(regex_escape(tags.iteration) + R"([ \t]*([0-9]+))");
  LossSeries out;
  std::istringstream in(text);
  std::string line;
  std::smatch ml, mi;
  while (std::getline(in, line)) {
    if (std::regex_search(line, ml, loss_re) && std::regex_search(line, mi, iter_re)) {
      out.iteration.push_back(std::stoll(mi[1].str()));
      out.loss.push_back(std::strtod(ml[1].str().c_str(), nullptr));
    }
  }
  return out;
}

struct RealLog {
  const char* path;
  const char* loss_tag;
  const char* iteration_tag;
  size_t points;  // from ../shared/data/SOURCES.md
};

TEST(LossRealLogs, GuessedTagsAndPointsMatchTheReference) {
  const RealLog logs[] = {
      {"training_logs/megatron-deepspeed/MoE/"
       "gpt3-0.125B-tokendropping-graduallyIncrease-lr-3.0e-4-with-kernel.log",
       "lm loss:", "iteration", 213},
      {"training_logs/megatron-deepspeed/MoE/"
       "gpt3-0.125B-tokendropping-graduallyIncrease-lr-3.0e-4.log",
       "lm loss:", "iteration", 12},
      {"training_logs/megatron-deepspeed/random_ltd/"
       "gpt3-0.125B-tokendropping-graduallyIncrease-lr-3.0e-4_origin.log",
       "lm loss:", "iteration", 16},
      {"training_logs/deepspeedexamples/gpt_finetuning/train_my_implementation.log",
       "Perplexity:", "Step at", 524},
      {"training_logs/deepspeedexamples/gpt_finetuning/train_with_kernel.log",
       "Perplexity:", "Step at", 524},
  };
  int found = 0;
  for (const RealLog& log : logs) {
    std::string text;
    if (!testing::read_shared(log.path, &text)) continue;
    ++found;
    SCOPED_TRACE(log.path);
    const LossTags tags = guess_loss_tags(std::string_view(text).substr(0, 1 << 20));
    EXPECT_EQ(tags.loss, log.loss_tag);
    EXPECT_EQ(tags.iteration, log.iteration_tag);
    const LossSeries ref = reference_extract(text, tags);
    EXPECT_EQ(ref.size(), log.points);
    for (size_t chunk : {size_t{1} << 20, size_t{4093}, size_t{97}}) {
      LossScanner s(tags);
      const auto* p = reinterpret_cast<const uint8_t*>(text.data());
      for (size_t i = 0; i < text.size(); i += chunk)
        s.feed(p + i, std::min(chunk, text.size() - i));
      s.finish();
      EXPECT_EQ(s.points().iteration, ref.iteration) << "chunk " << chunk;
      EXPECT_EQ(s.points().loss, ref.loss) << "chunk " << chunk;
    }
    // The user's own tags too: "loss:" also matches Megatron's "lm loss:" and nothing else.
    const LossTags other{"loss:", "iteration"};
    const LossSeries ref2 = reference_extract(text, other);
    const LossSeries got2 = scan_loss_text(text, other);
    EXPECT_EQ(got2.iteration, ref2.iteration);
    EXPECT_EQ(got2.loss, ref2.loss);
  }
  if (!found) GTEST_SKIP() << "../shared/data/training_logs not present";
}

TEST(LossRealLogs, MegatronFirstPoint) {
  std::string text;
  if (!testing::read_shared("training_logs/megatron-deepspeed/MoE/"
                            "gpt3-0.125B-tokendropping-graduallyIncrease-lr-3.0e-4-with-kernel.log",
                            &text))
    GTEST_SKIP() << "shared data not present";
  LossSeries s = scan_loss_text(text, {"lm loss:", "iteration"});
  ASSERT_GE(s.size(), 2u);
  EXPECT_EQ(s.iteration[0], 10);
  EXPECT_EQ(s.loss[0], 10.69056);
  EXPECT_EQ(s.iteration[1], 20);
  EXPECT_EQ(s.loss[1], 10.62032);
  EXPECT_EQ(s.iteration.back(), 2130);
}

// A folder's TensorBoard event files go by their runs, as `tensorboard --logdir` names them.
TEST(LossLogName, EventFilesInAFolderAreNamedByTheirRun) {
  EXPECT_EQ(loss_log_name("runs/exp1/events.out.tfevents.1.host"), "exp1");
  EXPECT_EQ(loss_log_name("runs/exp1/train/events.out.tfevents.1.host"), "exp1/train");
  EXPECT_EQ(loss_log_name("runs/events.out.tfevents.1.host"), "runs");
  EXPECT_EQ(loss_log_name("events.out.tfevents.1.host"), "events.out.tfevents.1.host");
  EXPECT_EQ(loss_log_name("runs/exp1/train.log"), "train.log");
  EXPECT_EQ(loss_log_name("train.log"), "train.log");
}

}  // namespace
}  // namespace strata
