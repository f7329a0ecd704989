// Rows XProf derives from event stats when a device plane does not carry them: on GPU, "XLA
// Modules" and "XLA Ops" from the kernels' hlo_module/hlo_op stats and "Framework Ops" /
// "Framework Name Scope" from tf_op; on TPU, "Framework Ops" / "Framework Name Scope" / "Source
// code" from the XLA ops' tf_op and source stats. Consecutive events with the same name (and
// group) merge into one derived event, as XProf's DerivedXLineBuilder does, so a derived row
// appears only when the profile has its data.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/store/trace_builder.h"

namespace strata {

// XProf's line ids for derived rows (tsl/profiler/utils/trace_utils.h): 0xdeadbeef + k as an
// int, so they sort after the streams (the trace viewer orders rows by uint32 line id).
constexpr int64_t kDerivedLineMin = static_cast<int32_t>(0xdeadbeefu);
constexpr int64_t kLineSteps = kDerivedLineMin;
constexpr int64_t kLineNameScope = kDerivedLineMin + 2;
constexpr int64_t kLineTfOps = kDerivedLineMin + 3;
constexpr int64_t kLineXlaModules = kDerivedLineMin + 4;
constexpr int64_t kLineXlaOps = kDerivedLineMin + 5;
constexpr int64_t kLineSource = kDerivedLineMin + 7;
constexpr int64_t kDerivedLineMax = kDerivedLineMin + 40;  // host offload rows end here
inline bool is_derived_line_id(int64_t id) {
  return id >= kDerivedLineMin && id <= kDerivedLineMax;
}

// XProf's ParseTfOpFullname, for what the rows need: the op's name (scopes/op) and the text its
// Framework Ops event shows (the op type for TensorFlow and JAX ops).
struct TfOp {
  bool scoped = false;  // TensorFlow or JAX op: its name scopes go on the Name Scope row
  std::string_view name;
  std::string shown;
};
TfOp parse_tf_op(std::string_view full);

// One source event: a GPU kernel of the busiest stream, or a TPU event with framework stats.
struct DeriveInput {
  TimeNs start = 0, end = 0;
  int64_t group = 0;
  bool has_group = false;
  StrId module = 0;  // "module(program_id)"
  StrId hlo_op = 0;  // may hold nested op names separated by "::"
  StrId tf_op = 0;
  StrId source = 0;
  uint64_t src_offset = 0;  // the source event's XEvent, shown as the derived event's details
  uint32_t src_len = 0;
};

// Which rows to build: a row is skipped when the plane already has it.
struct DeriveRows {
  bool xla_modules = false, xla_ops = false, tf_ops = false, name_scope = false, source = false;
};

// XProf's DeriveStepEventsFromGroups: on a GPU plane without a Steps line, the events of every
// line that carry a group_id, in time order; consecutive events of one group merge into one
// step named by the group id. Returns the number of steps added.
uint64_t derive_steps(std::vector<DeriveInput>* in, TraceBuilder* builder, uint32_t track);

// Makes (or returns) the track of derived row `line_id` named `name` in the plane's process.
using DerivedTrackFn = std::function<uint32_t(int64_t line_id, std::string_view name)>;

// Sorts `in` by time and adds the derived events. Returns the number added.
uint64_t derive_rows(std::vector<DeriveInput>* in, const DeriveRows& rows, TraceBuilder* builder,
                     const DerivedTrackFn& track_of);

}  // namespace strata
