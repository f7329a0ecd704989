// The Compare tab's model: the engine's compare reply (protocol/reply_keys_compare.h) read into
// plain rows, their sort, and the CSV of each table. No ImGui: native tests read the engine's
// reply through it.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/analysis_keys.h"
#include "ui/compare/compare_tree_model.h"

namespace strata {

struct CompareRow {
  std::string name;
  double a_count = 0, a_total = 0, a_self = 0;  // ns
  double b_count = 0, b_total = 0, b_self = 0;
  double delta = 0, delta_pct = 0;
};

struct CompareTable {
  std::string key;  // "operator", "kernel", "xla_op", "category"
  std::vector<CompareRow> changed, added, removed;
  double unchanged = 0;
};

constexpr size_t kCompareKeys = 4;
constexpr size_t kCompareParts = protocol::keys::step_parts::kCount;

struct CompareStepRow {
  int64_t a_step = -1, b_step = -1;
  double a_dur = 0, b_dur = 0;  // ns
  std::array<double, kCompareParts> a_parts{}, b_parts{};
};

// Where the two timelines line up (the reply's alignment): what was asked, what was applied
// ("start" when it is not in both), and B's shift: B's time from its start = A's + offset_ns.
struct CompareAlignment {
  std::string mode = "start", used = "start", note, event;
  int64_t step = -1, a_step = -1, b_step = -1;
  double offset_ns = 0;
};

struct CompareModel {
  bool has_b = false;
  std::string a_name, b_name;
  double a_events = 0, b_events = 0;
  std::array<CompareTable, kCompareKeys> tables;  // in kCompareKeyNames' order
  std::string align, note;                        // the steps'
  std::vector<CompareStepRow> steps;
  CompareTree tree;  // the call-tree diff (compare_tree_model.h)
  CompareAlignment alignment;
  std::vector<std::string> errors;
};

// What the steps' CSV is named by (compare_view_csv, strata.compareCsv), beside the keys.
inline constexpr std::string_view kCompareStepsTable = "steps";
// The call tree's, in compare_view_csv, compareSelect and the tab's key selector.
inline constexpr std::string_view kCompareTreeTable = "tree";

// "operator", "kernel", "xla_op", "category" and how the tab labels them.
extern const char* const kCompareKeyNames[kCompareKeys];
extern const char* const kCompareKeyLabels[kCompareKeys];

// False, with *error saying why, on a reply that is not JSON.
bool compare_model_parse(const char* json, CompareModel* m, std::string* error);

// The sortable columns of a diff table, in the tab's column order.
enum class CompareColumn : uint8_t {
  kName,
  kACount,
  kATotal,
  kBCount,
  kBTotal,
  kDelta,
  kDeltaPct,
  kASelf,
  kBSelf,
  kAbsDelta,  // the default: largest change first, whatever its sign
};
void compare_sort(std::vector<CompareRow>* rows, CompareColumn column, bool descending);

// Every row of a table (changed, then added, then removed, with a status column), times in µs.
std::string compare_table_csv(const CompareTable& t);
// The matched steps: step numbers, durations and every part of A and B, in µs.
std::string compare_steps_csv(const CompareModel& m);

}  // namespace strata
