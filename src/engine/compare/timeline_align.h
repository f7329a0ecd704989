// Where the timelines of A and B line up in the Compare tab: an absolute time in each that is
// drawn at the same x, so B's timeline is A's shifted by offset_ns (B's relative time = A's
// relative time + offset_ns, each relative to its own trace's start, the track list's origin).
// The user picks what to line up: the starts (the default), a step by its number (the same
// ProfilerStep#N in both), a step by its place (the k-th step of each), or the first event of
// one name in each. What cannot be found in both falls back to the starts, and the note says so.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/base/types.h"

namespace strata {

class Engine;
struct StepCompare;

enum class AlignMode : uint8_t { kStart, kStep, kOrder, kEvent };
const char* align_mode_name(AlignMode m);  // "start", "step", "order", "event"
bool align_mode_from_name(std::string_view name, AlignMode* m);  // false for an unknown name

struct AlignRequest {
  AlignMode mode = AlignMode::kStart;
  // kStep: the step number (-1: the first number both have); kOrder: the step's index in each
  // side's first group of steps (0 = the first).
  int64_t step = -1;
  std::string event;  // kEvent: the exact event name
};

struct Alignment {
  AlignRequest asked;
  AlignMode used = AlignMode::kStart;  // kStart when what was asked is not in both
  std::string note;
  TimeNs a_align = 0, b_align = 0;   // absolute ns the two line up on
  TimeNs offset_ns = 0;              // (b_align - B's start) - (a_align - A's start)
  int64_t a_step = -1, b_step = -1;  // the step numbers lined up (step, order), else -1
};

// `steps` is compare_steps(a, b) (step_compare.h): its steps of each side's first group.
Alignment align_timelines(const Engine& a, const Engine& b, const StepCompare& steps,
                          const AlignRequest& request);

}  // namespace strata
