// The keys of a step of the Runs tab's fetch (ui/runs/runs_fetch.h: the UI decides,
// web/page/runs.js does it; the step kinds are runs_steps.h's). A header of its own, beside
// reply_keys.h (which does not include it): only the Runs tab's model and the page use these.
//   step: what to do (kRunsStepKinds); entry: the folder input to open (an index into the paths
//   the folder was given as); note: what the open should say it chose (the profile's note:
//   its db read, the text export beside it set aside), summary().notes of the trace; message: a
//   runsStats message for the engine worker; files: that message's files as {session key: input
//   index}, which the page replaces with the inputs' sources; answer: the script API's answer, on
//   the last step.
#pragma once
#include <string_view>

namespace strata::protocol {
namespace keys {

namespace runs_step {
inline constexpr std::string_view kStep = "step";
inline constexpr std::string_view kEntry = "entry";
inline constexpr std::string_view kNote = "note";
inline constexpr std::string_view kMessage = "message";
inline constexpr std::string_view kFiles = "files";
inline constexpr std::string_view kAnswer = "answer";
}  // namespace runs_step

}  // namespace keys

inline constexpr std::string_view kRunsStepKeys[] = {
    keys::runs_step::kStep,    keys::runs_step::kEntry, keys::runs_step::kNote,
    keys::runs_step::kMessage, keys::runs_step::kFiles, keys::runs_step::kAnswer};

}  // namespace strata::protocol
