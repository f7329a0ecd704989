// The Loss tab's "Configure tags" popup: for a text log the seed's two tag fields; for a
// structured log (JSON lines, CSV, TensorBoard events) the series and step keys the engine found,
// to pick from (or type), with a filter for files of many keys.
#pragma once
#include "ui/loss/loss_view.h"

namespace strata {

// Inside the frame, where popups are drawn; sends new tags through host_loss_set_tags.
void loss_tags_dialog(LossView* v, LossFile* f);

}  // namespace strata
