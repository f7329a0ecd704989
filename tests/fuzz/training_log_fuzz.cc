// libFuzzer target for the training-log path: the text sniffer, the default tag guess on the
// head, and the streaming scanner fed in up to three chunks (lines cut across feed() calls),
// which must find exactly the points of a whole-text scan.
#include <string_view>

#include "core/formats/loss_log/default_tags.h"
#include "core/formats/loss_log/log_scanner.h"
#include "core/formats/loss_log/text_sniff.h"
#include "fuzz_target.h"

STRATA_FUZZ_TARGET(training_log) {
  if (size < 2) return;
  const size_t n = size - 2;
  const uint8_t* body = data + 2;
  size_t a = 0, b = 0;
  strata::fuzz::split_points(data[0], data[1], n, &a, &b);
  const std::string_view text(reinterpret_cast<const char*>(body), n);

  strata::looks_like_text_log(body, n);
  strata::LossTags tags = strata::guess_loss_tags(text);
  strata::LossScanner scanner(tags);
  scanner.feed(body, a);
  scanner.feed(body + a, b - a);
  scanner.feed(body + b, n - b);
  scanner.finish();
  if (scanner.bytes() != n) __builtin_trap();

  const strata::LossSeries whole = strata::scan_loss_text(text, tags);
  const strata::LossSeries& split = scanner.points();
  if (whole.size() != split.size()) __builtin_trap();
  for (size_t i = 0; i < whole.size(); ++i) {
    if (whole.iteration[i] != split.iteration[i]) __builtin_trap();
    // NaN losses compare unequal to themselves; compare their bits instead.
    if (whole.loss[i] != split.loss[i] &&
        !(whole.loss[i] != whole.loss[i] && split.loss[i] != split.loss[i]))
      __builtin_trap();
  }
}
