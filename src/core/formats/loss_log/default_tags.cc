#include "core/formats/loss_log/default_tags.h"

#include <vector>

namespace strata {

LossTags guess_loss_tags(std::string_view head) {
  static const char* kLoss[] = {
      "lm loss:", "train_loss:", "train_loss=", "loss:", "loss =",      "loss=",
      "Loss:",    "Loss =",      "loss",        "Loss",  "Perplexity:", "ppl:"};
  static const char* kIter[] = {"iteration", "Iteration", "iter:", "iter",        "step:", "step",
                                "Step at",   "Step:",     "Step",  "global_step", "epoch", "Epoch"};
  // Only whole lines: the sample's cut last line would be guessed on half a number.
  size_t cut = head.rfind('\n');
  if (cut != std::string_view::npos && cut + 1 < head.size()) head = head.substr(0, cut + 1);
  std::vector<std::string_view> lines;
  for (size_t at = 0; at < head.size();) {
    size_t nl = head.find('\n', at);
    if (nl == std::string_view::npos) nl = head.size();
    lines.push_back(head.substr(at, nl - at));
    at = nl + 1;
  }
  // Per loss tag, the lines it matches; then each iteration tag on those lines only (a point
  // needs both), so the guess costs a dozen passes over the sample, not one per pair.
  LossTags best{"loss:", "iteration"};
  size_t best_n = 0;
  std::vector<std::string_view> with_loss;
  for (const char* l : kLoss) {
    with_loss.clear();
    for (std::string_view line : lines)
      if (match_loss_tag(line, l)) with_loss.push_back(line);
    if (with_loss.size() <= best_n) continue;
    for (const char* i : kIter) {
      size_t n = 0;
      for (std::string_view line : with_loss) n += match_iteration_tag(line, i).has_value();
      if (n > best_n) best_n = n, best = LossTags{l, i};
    }
  }
  return best;
}

}  // namespace strata
