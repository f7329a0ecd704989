// XProf names a module's run on the "XLA Modules" line "name(program id)" ("jit_step(5)"): the
// one place the program of an XLA op is written when its event metadata has no program_id.
// Read by the op analyses and by the selection of one op's events in one program.
#pragma once
#include <string_view>

namespace strata {

inline constexpr std::string_view kXlaModulesLine = "XLA Modules";

// The "name(123)" convention of XLA module events: the module name and its program id text
// (decimal digits, as written: a uint64 above 2^63 stays exact).
bool split_module_name(std::string_view event_name, std::string_view* module,
                       std::string_view* program);

}  // namespace strata
