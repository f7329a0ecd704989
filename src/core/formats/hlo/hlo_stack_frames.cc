// Stack frames of an HloModule (hlo_module.h): the checks and the per-instruction source that
// finish_module derives from the frame tables, and the lookups the details use.
#include <string>

#include "core/formats/hlo/hlo_module.h"

namespace strata::hlo {
namespace {

uint32_t in_range(uint32_t index, size_t size) { return index < size ? index : kNone; }

}  // namespace

// Called by finish_module once the instruction columns are checked: every reference is made
// valid (or kNone) so the lookups below never index out of a table.
void resolve_stack_frames(HloModule* m) {
  const size_t n = m->name.size();
  const size_t locations = m->location_file.size();
  m->location_function.resize(locations, kNone);
  m->location_line.resize(locations, 0);
  m->location_end_line.resize(locations, 0);
  m->location_column.resize(locations, 0);
  m->location_end_column.resize(locations, 0);
  for (size_t l = 0; l < locations; ++l) {
    m->location_file[l] = in_range(m->location_file[l], m->file_names.size());
    m->location_function[l] = in_range(m->location_function[l], m->function_names.size());
  }
  const size_t frames = m->frame_location.size();
  m->frame_parent.resize(frames, kNone);
  for (size_t f = 0; f < frames; ++f) {
    m->frame_location[f] = in_range(m->frame_location[f], locations);
    m->frame_parent[f] = in_range(m->frame_parent[f], frames);
  }
  m->stack_frame.resize(n, kNone);
  m->source_function.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t f = m->stack_frame[i] = in_range(m->stack_frame[i], frames);
    if (f == kNone) continue;
    const uint32_t l = m->frame_location[f];
    if (l == kNone) continue;
    if (m->location_function[l] != kNone)
      m->source_function[i] = m->function_names[m->location_function[l]];
    // Metadata of its own (XLA before stack frames, or a producer setting both) wins.
    if (m->source_file[i] == 0 && m->location_file[l] != kNone) {
      m->source_file[i] = m->file_names[m->location_file[l]];
      m->source_line[i] = m->location_line[l];
    }
  }
}

std::vector<uint32_t> HloModule::stack_of(uint32_t i) const {
  std::vector<uint32_t> chain;
  if (i >= stack_frame.size()) return chain;
  const uint32_t frames = frame_count();
  std::vector<uint8_t> seen;
  for (uint32_t f = stack_frame[i]; f < frames; f = frame_parent[f]) {
    if (seen.empty()) seen.assign(frames, 0);
    if (seen[f]) break;
    seen[f] = 1;
    chain.push_back(f);
  }
  return chain;
}

std::string HloModule::frame_source(uint32_t f) const {
  if (f >= frame_count() || frame_location[f] == kNone) return {};
  const uint32_t l = frame_location[f];
  if (location_file[l] == kNone) return {};
  std::string out(str(file_names[location_file[l]]));
  if (location_line[l] > 0) out += ":" + std::to_string(location_line[l]);
  return out;
}

std::string_view HloModule::frame_function(uint32_t f) const {
  if (f >= frame_count() || frame_location[f] == kNone) return {};
  const uint32_t fn = location_function[frame_location[f]];
  return fn == kNone ? std::string_view() : str(function_names[fn]);
}

}  // namespace strata::hlo
