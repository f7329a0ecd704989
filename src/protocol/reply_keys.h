// The keys of the engine's JSON replies that the page and the worker read by name (everything
// else in a reply is passed through untouched, to the UI module or the script API). The engine
// writes these objects (src/engine, src/engine/wasm); web/shared/protocol.js mirrors each list
// as StrataProtocol.REPLY_KEYS.<name> (kSummaryKeys → summary) and tests/e2e/protocol.test.mjs
// fails when the two disagree.
#pragma once
#include <string_view>

namespace strata::protocol {

// engine_summary(): strata.summary(). The worker adds loadMs (ms) and heapBytes (its wasm memory).
inline constexpr std::string_view kSummaryKeys[] = {"files",  "phases",    "events",  "counters",
                                                    "tracks", "processes", "startNs", "endNs",
                                                    "loadMs", "heapBytes", "errors",  "warnings"};

// One of summary.files: bytes is the file's size, format the importer's name (FILE_KIND names).
inline constexpr std::string_view kSummaryFileKeys[] = {"name", "bytes", "format"};

// engine_details(): the fields strata.details() copies from the details pane's JSON.
inline constexpr std::string_view kDetailsKeys[] = {"name", "cat", "startNs", "durNs",
                                                    "pid",  "tid", "phase"};

// engine_details(), an event that launched work elsewhere (Kineto: kernels): copied when present.
inline constexpr std::string_view kDetailsLaunchedKeys[] = {
    "launchedCount", "launchedTotalNs", "launchedSpanNs", "launchedComplete", "launched"};

// engine_details().record: the event's own JSON object; args, and xla for an XLA op (graph link).
inline constexpr std::string_view kDetailsRecordKeys[] = {"args", "xla"};

// The `select` query's events (strata.selection() copies these of each).
inline constexpr std::string_view kSelectedEventKeys[] = {"event", "name", "tsNs",
                                                          "durNs", "pid",  "tid"};

// engine_find(): {count, matches}; each match has at least event, name, durNs (ns).
inline constexpr std::string_view kFindKeys[] = {"count", "matches"};
inline constexpr std::string_view kFindMatchKeys[] = {"event", "name", "durNs"};

// A lossLoaded / lossPoints message as strata.open() and strata.setLossTags() report it
// (points: how many pairs; scanMs: ms; mbps: MB/s).
inline constexpr std::string_view kLossInfoKeys[] = {"name",  "lossTag", "iterationTag", "points",
                                                     "bytes", "scanMs",  "mbps"};

// graph_modules_json(): one module each (programId: the XLA program's id, from an xplane).
inline constexpr std::string_view kGraphModuleKeys[] = {"name", "fromTrace", "programId"};

// graph_find_instr(): where an instruction is (-1: nowhere).
inline constexpr std::string_view kGraphFindKeys[] = {"instr", "computation"};

// run statistics (runs_exports.cc): the tables strata.stats() returns.
inline constexpr std::string_view kRunsStatsKeys[] = {
    "operators", "kernels", "kernelCoreTypes", "distributed", "operatorDiff", "stepDiff", "errors"};

}  // namespace strata::protocol
