#include "core/formats/loss_log/default_tags.h"

#include <vector>

#include "core/formats/loss_log/log_scanner.h"

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
  LossTags best{"loss:", "iteration"};
  size_t best_n = 0;
  for (const char* l : kLoss) {
    for (const char* i : kIter) {
      LossTags t{l, i};
      size_t n = scan_loss_text(head, t).size();
      if (n > best_n) best_n = n, best = t;
    }
  }
  return best;
}

}  // namespace strata
