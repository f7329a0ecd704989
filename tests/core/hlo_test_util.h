// Real HLO text dumps from ../shared/data for the HLO and graph tests.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/formats/hlo/hlo_text_parser.h"
#include "import_test_util.h"

namespace strata::testing {

// The Llama 3.1 8B training step (one module, 31,855 instructions): the biggest real HLO here.
inline constexpr const char* kLlamaHlo = "hlo/xla/hlo_llama31_8b_bf16_1x8.hlo";

// Reads ../shared/data/`rel` and parses it into `modules`. False when the file is absent (the
// caller skips); a parse failure is a test failure, with the parser's message.
inline bool read_shared_hlo(const std::string& rel, std::vector<hlo::HloModule>* modules) {
  std::string text;
  if (!read_shared(rel, &text)) return false;
  std::string error;
  EXPECT_TRUE(hlo::parse_hlo_text(text, modules, &error)) << rel << ": " << error;
  return true;
}

}  // namespace strata::testing
