// Splitting a JSON object into its members' raw texts, without parsing the values: the Runs
// tab's answers to scripts are pieces of the engine's replies put together unchanged.
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata {

struct JsonMember {
  std::string key;         // as written (keys with escapes are kept escaped)
  std::string_view value;  // the value's text, a view into the object's
};

// The members of the object `text`, in order; false (with what was read so far) when it is not
// one well-formed object.
bool json_object_members(std::string_view text, std::vector<JsonMember>* out);
// The value of `key` in `members`, or `fallback`.
std::string_view json_member(const std::vector<JsonMember>& members, std::string_view key,
                             std::string_view fallback);
// Two JSON arrays' texts joined into one ("[1]" + "[2,3]" → "[1,2,3]"); a text that is not an
// array counts as empty.
std::string json_array_concat(std::string_view a, std::string_view b);

}  // namespace strata
