// The keys of the engine's JSON replies that someone reads by name: the page and the worker
// (web/), or the UI module (src/ui), which parses the JSON the page forwards to it. Everything
// else in a reply is passed through untouched, to the script API.
//
// Each key is a constant, keys::<reply>::k<Key>, and is written and read only through it: the
// engine's writers append it with append_key(), the UI compares JsonLine::key with it. The
// memory chart's, the Runs tables' and the graph node's keys are in reply_keys_memory.h,
// reply_keys_runs.h and reply_keys_graph.h (included here). The lists
// below (kSummaryKeys...) are what the page and the worker read; web/shared/protocol.js mirrors
// each as StrataProtocol.REPLY_KEYS.<name> (kSummaryKeys → summary) and REPLY.<name>.<key>, and
// tests/e2e/protocol.test.mjs fails when the two disagree, or when a key below is spelled as a
// literal outside src/protocol (see that test for what it scans).
#pragma once
#include <string>
#include <string_view>

#include "protocol/reply_keys_compare.h"
#include "protocol/reply_keys_graph.h"
#include "protocol/reply_keys_memory.h"
#include "protocol/reply_keys_pod.h"
#include "protocol/reply_keys_runs.h"

namespace strata::protocol {

// Appends `"key":` to a JSON object being written, after `before` (',' or '{'; 0: nothing).
inline void append_key(std::string* out, std::string_view key, char before = ',') {
  if (before) out->push_back(before);
  out->push_back('"');
  out->append(key);
  out->append("\":");
}

namespace keys {

// An event of the store, as core/query/event_json.h writes it for every reply naming events.
// start / end: ns from the trace start; tsNs / startNs: absolute ns; track: the display track.
namespace event {
inline constexpr std::string_view kEvent = "event";
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kCat = "cat";
inline constexpr std::string_view kPhase = "phase";
inline constexpr std::string_view kTsNs = "tsNs";
inline constexpr std::string_view kStartNs = "startNs";
inline constexpr std::string_view kDurNs = "durNs";
inline constexpr std::string_view kStart = "start";
inline constexpr std::string_view kEnd = "end";
inline constexpr std::string_view kDepth = "depth";
inline constexpr std::string_view kPid = "pid";
inline constexpr std::string_view kTid = "tid";
inline constexpr std::string_view kProcess = "process";
inline constexpr std::string_view kThread = "thread";
inline constexpr std::string_view kTrack = "track";
}  // namespace event

// engine_summary(): strata.summary(). The worker adds loadMs (ms) and heapBytes (its wasm memory).
namespace summary {
inline constexpr std::string_view kFiles = "files";
inline constexpr std::string_view kPhases = "phases";
inline constexpr std::string_view kEvents = "events";
inline constexpr std::string_view kCounters = "counters";
inline constexpr std::string_view kTracks = "tracks";
inline constexpr std::string_view kProcesses = "processes";
inline constexpr std::string_view kStartNs = "startNs";
inline constexpr std::string_view kEndNs = "endNs";
inline constexpr std::string_view kLoadMs = "loadMs";
inline constexpr std::string_view kHeapBytes = "heapBytes";
inline constexpr std::string_view kErrors = "errors";
inline constexpr std::string_view kWarnings = "warnings";
// What the load chose, not a problem (a profiler folder's db read, its text export set aside).
inline constexpr std::string_view kNotes = "notes";
// Added by the worker (web/worker/trace.js), like loadMs: the workers that parsed the trace (1:
// the engine worker alone; more: a sliced load, web/worker/sliced.js), the worker count the last
// open asked for (the page's setting or ?workers=N; 0: as many as the cores), each slice's
// figures (summary_slice) and, when the summary message asks for it, the store's digest as
// decimal text (core/store/store_digest.h; else "").
inline constexpr std::string_view kWorkers = "workers";
inline constexpr std::string_view kWorkersSetting = "workersSetting";
inline constexpr std::string_view kSlices = "slices";
inline constexpr std::string_view kDigest = "digest";
// A bundle opened lazily (tiles on demand): summary_bundle.
inline constexpr std::string_view kBundle = "bundle";
}  // namespace summary

// summary.bundle: the bundle's size and tile count, the tiles (and their stored bytes) fetched so
// far, those that failed, and the decoded tile cache's bytes, tiles, cap and evictions.
namespace summary_bundle {
inline constexpr std::string_view kBytes = "bytes";
inline constexpr std::string_view kTiles = "tiles";
inline constexpr std::string_view kTilesFetched = "tilesFetched";
inline constexpr std::string_view kBytesFetched = "bytesFetched";
inline constexpr std::string_view kTilesFailed = "tilesFailed";
inline constexpr std::string_view kCacheBytes = "cacheBytes";
inline constexpr std::string_view kCacheTiles = "cacheTiles";
inline constexpr std::string_view kCacheCap = "cacheCap";
inline constexpr std::string_view kEvictions = "evictions";
}  // namespace summary_bundle

// One of summary.slices, in file order: where the slice starts and its size (bytes), the time its
// worker read and parsed it, the time the engine worker waited for its result and absorbed it
// (ms), and whether it was absorbed (false: its cut was refused, the engine worker read it).
namespace summary_slice {
inline constexpr std::string_view kOffset = "offset";
inline constexpr std::string_view kBytes = "bytes";
inline constexpr std::string_view kReadMs = "readMs";
inline constexpr std::string_view kParseMs = "parseMs";
inline constexpr std::string_view kWaitMs = "waitMs";
inline constexpr std::string_view kMergeMs = "mergeMs";
inline constexpr std::string_view kAbsorbed = "absorbed";
}  // namespace summary_slice

// One of summary.files: bytes is the file's size, format the importer's name.
namespace summary_file {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kBytes = "bytes";
inline constexpr std::string_view kFormat = "format";
}  // namespace summary_file

// engine_details(), beside the event's own fields (event::): selfNs (ns); parent, children,
// flows and launched are related events (event:: fields; a flow's incoming says its direction).
// launched*: the work an event launched elsewhere (Kineto: kernels), present when it did.
namespace details {
inline constexpr std::string_view kSelfNs = "selfNs";
inline constexpr std::string_view kParent = "parent";
inline constexpr std::string_view kChildCount = "childCount";
inline constexpr std::string_view kChildren = "children";
inline constexpr std::string_view kFlows = "flows";
inline constexpr std::string_view kIncoming = "incoming";
inline constexpr std::string_view kRecord = "record";
inline constexpr std::string_view kLaunchedCount = "launchedCount";
inline constexpr std::string_view kLaunchedTotalNs = "launchedTotalNs";
inline constexpr std::string_view kLaunchedSpanNs = "launchedSpanNs";
inline constexpr std::string_view kLaunchedComplete = "launchedComplete";
inline constexpr std::string_view kLaunched = "launched";
// A lazy bundle's event: why `record` (its args) is null, e.g. its source is not served beside
// the bundle. Absent when the record was read.
inline constexpr std::string_view kRecordNote = "recordNote";
}  // namespace details

// engine_details().record: the event's own JSON object; args, and xla for an XLA op.
namespace record {
inline constexpr std::string_view kArgs = "args";
inline constexpr std::string_view kXla = "xla";
}  // namespace record

// record.xla (core/formats/xplane/xplane_details.h): the op's module, and graph, the link to
// the graph viewer (programId: the XLA program's id; available: the trace holds its HLO).
namespace xla {
inline constexpr std::string_view kHloModule = "hlo_module";
inline constexpr std::string_view kGraph = "graph";
inline constexpr std::string_view kProgramId = "programId";
inline constexpr std::string_view kOp = "op";
inline constexpr std::string_view kAvailable = "available";
// instruction: the HLO instruction the op runs (core/formats/xplane/xla_op_name.h);
// fromHlo: what the module's HloProto says where the file does not (GPU xplanes): the
// instruction's expression and category (core/formats/xplane/xla_op_text.h).
inline constexpr std::string_view kInstruction = "instruction";
inline constexpr std::string_view kFromHlo = "fromHlo";
inline constexpr std::string_view kExpression = "expression";
inline constexpr std::string_view kCategory = "category";
}  // namespace xla

// The `select` query: {count, summary: [per name], events: [event:: fields]}.
namespace select {
inline constexpr std::string_view kCount = "count";
inline constexpr std::string_view kSummary = "summary";
inline constexpr std::string_view kEvents = "events";
}  // namespace select

// One of select.summary: the events of one name (ns).
namespace select_summary {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kCount = "count";
inline constexpr std::string_view kTotalNs = "totalNs";
inline constexpr std::string_view kSelfNs = "selfNs";
inline constexpr std::string_view kMinNs = "minNs";
inline constexpr std::string_view kMaxNs = "maxNs";
inline constexpr std::string_view kAvgNs = "avgNs";
}  // namespace select_summary

// engine_find(): {count, matches: [event:: fields], nameIds: the matching names' ids, bins: the
// matches per equal slice of [binsStart, binsEnd] (ns from the trace start)}.
namespace find {
inline constexpr std::string_view kCount = "count";
inline constexpr std::string_view kMatches = "matches";
inline constexpr std::string_view kNameIds = "nameIds";
inline constexpr std::string_view kBinsStart = "binsStart";
inline constexpr std::string_view kBinsEnd = "binsEnd";
inline constexpr std::string_view kBins = "bins";
}  // namespace find

// The `analysis` query (engine/analysis/analysis_table.h): a table the Analysis tab draws.
namespace analysis {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kTitle = "title";
inline constexpr std::string_view kNotes = "notes";
inline constexpr std::string_view kErrors = "errors";
inline constexpr std::string_view kColumns = "columns";
inline constexpr std::string_view kRows = "rows";
inline constexpr std::string_view kExtra = "extra";
}  // namespace analysis

// One of analysis.columns; unit is analysis_unit_name()'s.
namespace analysis_column {
inline constexpr std::string_view kKey = "key";
inline constexpr std::string_view kLabel = "label";
inline constexpr std::string_view kUnit = "unit";
inline constexpr std::string_view kTip = "tip";
}  // namespace analysis_column

// One of analysis.rows: cells in column order, why: {column key: reason} for empty cells.
namespace analysis_row {
inline constexpr std::string_view kParent = "parent";
inline constexpr std::string_view kCells = "cells";
inline constexpr std::string_view kWhy = "why";
inline constexpr std::string_view kLink = "link";
}  // namespace analysis_row

// A row's link: the events behind it (select query name mode) and its op for the Graph tab.
namespace analysis_link {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kTracks = "tracks";
inline constexpr std::string_view kProgramId = "programId";
inline constexpr std::string_view kModule = "module";
inline constexpr std::string_view kOp = "op";
}  // namespace analysis_link

// The `analysis` query without a name: {analyses: [{name, title, available, why}]}.
namespace analysis_list {
inline constexpr std::string_view kAnalyses = "analyses";
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kTitle = "title";
inline constexpr std::string_view kAvailable = "available";
inline constexpr std::string_view kWhy = "why";
}  // namespace analysis_list

// Any query's answer when it failed: {error: message}.
namespace failure {
inline constexpr std::string_view kError = "error";
}  // namespace failure

// An analysis asked of a bundle opened lazily fails ({error}) with the bundle's size in bytes,
// which the UI shows beside its "Load whole" button (the loadWhole message).
namespace load_whole {
inline constexpr std::string_view kLoadWholeBytes = "loadWholeBytes";
}  // namespace load_whole

// A lossLoaded / lossPoints message as strata.open() and strata.setLossTags() report it
// (points: how many pairs; scanMs: ms; mbps: MB/s); lossTag and iterationTag are also the
// tags loss_guess_tags() answers.
namespace loss_info {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kLossTag = "lossTag";
inline constexpr std::string_view kIterationTag = "iterationTag";
inline constexpr std::string_view kPoints = "points";
inline constexpr std::string_view kBytes = "bytes";
inline constexpr std::string_view kScanMs = "scanMs";
inline constexpr std::string_view kMbps = "mbps";
// What the log is and what it holds: "text", "jsonl", "json", "csv" or "tfevents"; the series
// (keys, columns, tags) and step keys its tag dialog lists; why points are missing ("" = none).
inline constexpr std::string_view kFormat = "format";
inline constexpr std::string_view kSeriesKeys = "seriesKeys";
inline constexpr std::string_view kStepKeys = "stepKeys";
inline constexpr std::string_view kNote = "note";
}  // namespace loss_info

// graph_modules_json(): one module each (programId: the XLA program's id, from an xplane;
// entry: the entry computation; computations: graph_computation objects).
namespace graph_module {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kSource = "source";
inline constexpr std::string_view kFromTrace = "fromTrace";
inline constexpr std::string_view kProgramId = "programId";
inline constexpr std::string_view kInstructions = "instructions";
inline constexpr std::string_view kEntry = "entry";
inline constexpr std::string_view kComputations = "computations";
// Where a cut-short module stops, or how its entry was chosen (empty when read whole).
inline constexpr std::string_view kNote = "note";
}  // namespace graph_module

// One of graph_module.computations (fusion: 1 for a fused computation; start, startHops: the op
// and radius a computation too big to read whole opens on, when it is).
namespace graph_computation {
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kInstructions = "instructions";
inline constexpr std::string_view kFusion = "fusion";
inline constexpr std::string_view kStart = "start";
inline constexpr std::string_view kStartHops = "startHops";
}  // namespace graph_computation

// engine_hlo_protos(): the HloProtos an xplane holds, where they are (file: the source index;
// offset, length: bytes in it; compressed: the file is, so it is read again in one pass).
namespace hlo_proto {
inline constexpr std::string_view kProgramId = "programId";
inline constexpr std::string_view kModule = "module";
inline constexpr std::string_view kFile = "file";
inline constexpr std::string_view kOffset = "offset";
inline constexpr std::string_view kLength = "length";
inline constexpr std::string_view kCompressed = "compressed";
}  // namespace hlo_proto

// The UI's openFromTrace request to the page (the details pane's "Open in graph viewer"),
// from record.xla: the program, the op, and the module's name for a trace without program ids.
namespace graph_link {
inline constexpr std::string_view kProgramId = "programId";
inline constexpr std::string_view kOp = "op";
inline constexpr std::string_view kModule = "module";
}  // namespace graph_link

// graph_find_instr(): where an instruction is (-1: nowhere).
namespace graph_find {
inline constexpr std::string_view kInstr = "instr";
inline constexpr std::string_view kComputation = "computation";
}  // namespace graph_find

// run statistics (engine/runs_session.h): the tables strata.stats() returns (their rows' keys:
// reply_keys_runs.h). …Missing: the columns a table's files lack; kernelDetails: the first
// executions, of kernelDetailsTotal; steps: every step of either compared profile; a, b: the
// compared profiles (runs_diff_side); ok: the reply is the engine's.
namespace runs_stats {
inline constexpr std::string_view kOk = "ok";
inline constexpr std::string_view kOperators = "operators";
inline constexpr std::string_view kOperatorsMissing = "operatorsMissing";
inline constexpr std::string_view kKernels = "kernels";
inline constexpr std::string_view kKernelCoreTypes = "kernelCoreTypes";
inline constexpr std::string_view kKernelDetails = "kernelDetails";
inline constexpr std::string_view kKernelDetailsTotal = "kernelDetailsTotal";
inline constexpr std::string_view kKernelsMissing = "kernelsMissing";
inline constexpr std::string_view kDistributed = "distributed";
inline constexpr std::string_view kOperatorDiff = "operatorDiff";
inline constexpr std::string_view kStepDiff = "stepDiff";
inline constexpr std::string_view kSteps = "steps";
inline constexpr std::string_view kA = "a";
inline constexpr std::string_view kB = "b";
inline constexpr std::string_view kErrors = "errors";
}  // namespace runs_stats

}  // namespace keys

// ---- what the page and the worker read (mirrored in web/shared/protocol.js) ------------------

// strata.summary().
inline constexpr std::string_view kSummaryKeys[] = {
    keys::summary::kFiles,     keys::summary::kPhases,  keys::summary::kEvents,
    keys::summary::kCounters,  keys::summary::kTracks,  keys::summary::kProcesses,
    keys::summary::kStartNs,   keys::summary::kEndNs,   keys::summary::kLoadMs,
    keys::summary::kHeapBytes, keys::summary::kErrors,  keys::summary::kWarnings,
    keys::summary::kNotes,     keys::summary::kWorkers, keys::summary::kWorkersSetting,
    keys::summary::kSlices,    keys::summary::kDigest,  keys::summary::kBundle};

inline constexpr std::string_view kSummaryBundleKeys[] = {
    keys::summary_bundle::kBytes,        keys::summary_bundle::kTiles,
    keys::summary_bundle::kTilesFetched, keys::summary_bundle::kBytesFetched,
    keys::summary_bundle::kTilesFailed,  keys::summary_bundle::kCacheBytes,
    keys::summary_bundle::kCacheTiles,   keys::summary_bundle::kCacheCap,
    keys::summary_bundle::kEvictions};

inline constexpr std::string_view kSummarySliceKeys[] = {
    keys::summary_slice::kOffset,  keys::summary_slice::kBytes,  keys::summary_slice::kReadMs,
    keys::summary_slice::kParseMs, keys::summary_slice::kWaitMs, keys::summary_slice::kMergeMs,
    keys::summary_slice::kAbsorbed};

inline constexpr std::string_view kSummaryFileKeys[] = {
    keys::summary_file::kName, keys::summary_file::kBytes, keys::summary_file::kFormat};

// An event (the select query's events: the page reads start / end to select one).
inline constexpr std::string_view kEventKeys[] = {
    keys::event::kEvent,   keys::event::kName,    keys::event::kCat,   keys::event::kPhase,
    keys::event::kTsNs,    keys::event::kStartNs, keys::event::kDurNs, keys::event::kStart,
    keys::event::kEnd,     keys::event::kDepth,   keys::event::kPid,   keys::event::kTid,
    keys::event::kProcess, keys::event::kThread,  keys::event::kTrack};

// The fields strata.details() copies from the details pane's JSON.
inline constexpr std::string_view kDetailsKeys[] = {
    keys::event::kName, keys::event::kCat, keys::event::kStartNs, keys::event::kDurNs,
    keys::event::kPid,  keys::event::kTid, keys::event::kPhase};

// An event that launched work elsewhere: copied when present.
inline constexpr std::string_view kDetailsLaunchedKeys[] = {
    keys::details::kLaunchedCount, keys::details::kLaunchedTotalNs, keys::details::kLaunchedSpanNs,
    keys::details::kLaunchedComplete, keys::details::kLaunched};

// The event's record (its args and xla are copied).
inline constexpr std::string_view kDetailsObjectKeys[] = {keys::details::kRecord};
inline constexpr std::string_view kDetailsNoteKeys[] = {keys::details::kRecordNote};
inline constexpr std::string_view kDetailsRecordKeys[] = {keys::record::kArgs, keys::record::kXla};

inline constexpr std::string_view kSelectKeys[] = {keys::select::kCount, keys::select::kSummary,
                                                   keys::select::kEvents};

// The `select` query's events (strata.selection() copies these of each).
inline constexpr std::string_view kSelectedEventKeys[] = {keys::event::kEvent, keys::event::kName,
                                                          keys::event::kTsNs,  keys::event::kDurNs,
                                                          keys::event::kPid,   keys::event::kTid};

// engine_find(): each match has at least event, name, durNs.
inline constexpr std::string_view kFindKeys[] = {keys::find::kCount, keys::find::kMatches};
inline constexpr std::string_view kFindMatchKeys[] = {keys::event::kEvent, keys::event::kName,
                                                      keys::event::kDurNs};

inline constexpr std::string_view kLossInfoKeys[] = {
    keys::loss_info::kName,     keys::loss_info::kLossTag, keys::loss_info::kIterationTag,
    keys::loss_info::kPoints,   keys::loss_info::kBytes,   keys::loss_info::kScanMs,
    keys::loss_info::kMbps,     keys::loss_info::kFormat,  keys::loss_info::kSeriesKeys,
    keys::loss_info::kStepKeys, keys::loss_info::kNote};

inline constexpr std::string_view kGraphModuleKeys[] = {
    keys::graph_module::kName, keys::graph_module::kFromTrace, keys::graph_module::kProgramId};

inline constexpr std::string_view kHloProtoKeys[] = {
    keys::hlo_proto::kProgramId, keys::hlo_proto::kModule, keys::hlo_proto::kFile,
    keys::hlo_proto::kOffset,    keys::hlo_proto::kLength, keys::hlo_proto::kCompressed};

inline constexpr std::string_view kGraphLinkKeys[] = {
    keys::graph_link::kProgramId, keys::graph_link::kOp, keys::graph_link::kModule};

// The worker reads a graph node's name (to find it in the trace), and the errors of reading an
// xplane's HLO modules; the page reads a download's file name.
inline constexpr std::string_view kGraphNodeKeys[] = {keys::graph_node::kName};
inline constexpr std::string_view kGraphAddedKeys[] = {keys::graph_added::kAdded,
                                                       keys::graph_added::kErrors};
inline constexpr std::string_view kGraphDownloadKeys[] = {keys::graph_download::kName};

inline constexpr std::string_view kGraphFindKeys[] = {keys::graph_find::kInstr,
                                                      keys::graph_find::kComputation};

inline constexpr std::string_view kRunsStatsKeys[] = {
    keys::runs_stats::kOperators,       keys::runs_stats::kKernels,
    keys::runs_stats::kKernelCoreTypes, keys::runs_stats::kDistributed,
    keys::runs_stats::kOperatorDiff,    keys::runs_stats::kStepDiff,
    keys::runs_stats::kErrors};

// The compare session's reply and compareOpen's answer (reply_keys_compare.h).
inline constexpr std::string_view kCompareKeys[] = {
    keys::compare::kA,      keys::compare::kB,    keys::compare::kTables,   keys::compare::kSteps,
    keys::compare::kErrors, keys::compare::kTree, keys::compare::kAlignment};
inline constexpr std::string_view kCompareAlignmentKeys[] = {
    keys::compare_alignment::kMode,     keys::compare_alignment::kStep,
    keys::compare_alignment::kEvent,    keys::compare_alignment::kUsed,
    keys::compare_alignment::kNote,     keys::compare_alignment::kAAlignNs,
    keys::compare_alignment::kBAlignNs, keys::compare_alignment::kOffsetNs,
    keys::compare_alignment::kAStep,    keys::compare_alignment::kBStep};
inline constexpr std::string_view kCompareOpenKeys[] = {
    keys::compare_open::kOk, keys::compare_open::kError, keys::compare_open::kName,
    keys::compare_open::kResult};

}  // namespace strata::protocol
