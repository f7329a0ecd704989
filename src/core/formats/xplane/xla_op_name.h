// Which HLO instruction an XLA op event runs: the one rule every reader of device planes uses
// (the details pane's graph link, the op profile and HLO stats), since profilers name it in
// different places. GPU kernels carry an `hlo_op` stat; TPU "XLA Ops" events have none: the
// event's metadata name is the instruction ("fusion.3") and its `long_name` stat the
// instruction's HLO text ("%fusion.3 = bf16[8,128]{1,0} fusion(...), kind=kLoop, ...").
#pragma once
#include <string_view>

namespace strata {

// What an event says about its instruction; empty views where the event has nothing.
struct XlaOpNaming {
  std::string_view hlo_op;             // the `hlo_op` stat
  std::string_view metadata_name;      // XEventMetadata.name
  std::string_view long_name;          // the `long_name` stat
  bool on_xla_ops_line = false;        // the event is on an "XLA Ops" line
  bool has_program_or_module = false;  // it has a `program_id` or an `hlo_module` stat
};

// The instruction's name: the `hlo_op` stat; else the metadata name, when the event is an XLA
// op (on an "XLA Ops" line, or with a program id or module), read as an HLO text line when it
// is one; else the instruction named by `long_name`. Empty when none of these names one.
std::string_view xla_hlo_instruction(const XlaOpNaming& event);

// The instruction an HLO text line defines ("%fusion.3 = f32[8]{0} fusion(...)" and
// "ROOT %x = ..." → "fusion.3", "x"); empty when `text` is not such a line.
std::string_view hlo_text_instruction_name(std::string_view text);

}  // namespace strata
