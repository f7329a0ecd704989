// The stack frame sections XLA prints between the module header and the first computation
// (HloModule::PrintStackFrameIndex), read by the text parser (hlo_text_parser.cc):
//
//   FileNames
//   1 "/src/model.py"
//   FunctionNames
//   1 "forward"
//   FileLocations
//   1 {file_name_id=1 function_name_id=1 line=12 end_line=12 column=4 end_column=19}
//   StackFrames
//   1 {file_location_id=1 parent_frame_id=1}
//
// Any section may be empty (its name alone). Instructions then refer to a frame by
// `metadata={... stack_frame_id=1}`.
#pragma once
#include <string>
#include <string_view>

#include "core/formats/hlo/hlo_module.h"

namespace strata::hlo {

// True when `text` at `at` starts one of the four section names.
bool at_stack_frame_section(std::string_view text, size_t at);

// Reads the sections from `*at` into m's file, function, location and frame tables and moves
// `*at` past them. On malformed text returns false with `*fail_at` and `why`.
bool parse_stack_frame_sections(std::string_view text, size_t* at, HloModule* m, size_t* fail_at,
                                std::string* why);

// XLA's 1-based `stack_frame_id` as a frame index (kNone for 0 or less).
uint32_t frame_index_of_id(int64_t id);

}  // namespace strata::hlo
