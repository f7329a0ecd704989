// The name a training log goes by in the Loss tab, from its path in a dropped or picked folder.
#pragma once
#include <string>
#include <string_view>

namespace strata {

// A TensorBoard event file (`events.out.tfevents.*`) in a folder is named by its run, as
// `tensorboard --logdir <the folder>` names it: the sub-folder path under the folder dropped
// ("runs/exp1/train/events..." → "exp1/train"), or the folder itself when the file lies at its
// top ("runs/events..." → "runs"). Any other path, or a bare file name, is its file name.
std::string loss_log_name(std::string_view path);

}  // namespace strata
