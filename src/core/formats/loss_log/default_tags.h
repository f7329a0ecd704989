// Default tags for a newly imported log, guessed from its first lines: every pair of common
// loss / iteration spellings (Megatron "iteration N/M | ... | lm loss: X", DeepSpeed "Step at N
// with Perplexity: X", "step: N ... loss: X", ...) is tried on the sample and the pair that
// yields the most points wins (ties: the earlier, more specific spelling). The user can
// always change them; this only saves typing.
#pragma once
#include <string_view>

#include "core/formats/loss_log/tag_match.h"

namespace strata {

// `head`: the file's first bytes (the engine passes up to 1 MB). With no pair matching
// anything: {"loss:", "iteration"}.
LossTags guess_loss_tags(std::string_view head);

}  // namespace strata
