// The one keyed diff behind every comparison table (the Compare tab's op_diff tables, the Runs
// tab's Diff view, the call tree's children under one parent): rows of figures keyed by a
// string on two sides, A (the baseline) and B (the variant). Keys are joined in first-seen
// order (A's, then those only B has); a key with rows on both sides is changed or unchanged
// (the caller says whether its figures are the same), one only in B is added, one only in A
// removed. Figures stay with the caller, in its own columns indexed by the key's id: this only
// matches keys, classifies them and orders them by the size of their change.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace strata {

enum class DiffStatus : uint8_t { kUnchanged, kChanged, kAdded, kRemoved, kReplaced };
// "unchanged", "changed", "added", "removed", "replaced": the words the replies and CSVs use.
const char* diff_status_name(DiffStatus status);

enum class DiffSide : uint8_t { kA = 1, kB = 2 };

// Keys of both sides, each with an id (0, 1, ... in first-seen order) and the sides it has
// rows on.
class KeyedJoin {
 public:
  // The key's id, adding the key on first sight; marks that `side` has it.
  uint32_t add(DiffSide side, std::string_view key);
  size_t size() const { return keys_.size(); }
  const std::string& key(uint32_t id) const { return keys_[id]; }
  bool in_a(uint32_t id) const { return sides_[id] & static_cast<uint8_t>(DiffSide::kA); }
  bool in_b(uint32_t id) const { return sides_[id] & static_cast<uint8_t>(DiffSide::kB); }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::vector<std::string> keys_;
  std::vector<uint8_t> sides_;
  std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> index_;
};

// A measure of a key (by id) used to order keys: larger first.
using KeyMeasure = std::function<double(uint32_t id)>;

// Orders ids by `primary` descending, then `secondary` descending (when given); equal keys by
// name when `ties_by_key`, else they keep their order (stable).
void order_by_change(const KeyedJoin& join, std::vector<uint32_t>* ids, const KeyMeasure& primary,
                     const KeyMeasure& secondary = nullptr, bool ties_by_key = false);

struct KeyedDiff {
  std::vector<uint32_t> changed;  // in both, figures differ; largest change first
  std::vector<uint32_t> added;    // only in B; largest B size first
  std::vector<uint32_t> removed;  // only in A; largest A size first
  uint64_t unchanged = 0;         // in both with the same figures: counted, not listed
  bool empty() const { return changed.empty() && added.empty() && removed.empty(); }
};

// Classifies every key of the join: `same(id)` says a key in both has equal figures; changed
// keys are ordered by `change(id)` (e.g. |Δ|), added ones by `b_size`, removed ones by `a_size`,
// each descending with ties by key name.
KeyedDiff split_keys(const KeyedJoin& join, const std::function<bool(uint32_t)>& same,
                     const KeyMeasure& change, const KeyMeasure& a_size, const KeyMeasure& b_size);

}  // namespace strata
