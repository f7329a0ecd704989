// The messages the page and the engine worker post to each other (postMessage, structured
// clone): objects {type, ...fields} whose `type` is one of the names below. The page forwards
// them between the worker and the UI module and answers the script API; it decides nothing.
// The binary payloads some of them carry (`trackList`, `bytes`) are view_messages.h's.
//
// web/shared/protocol.js mirrors this table (StrataProtocol.MSG, .TO_WORKER, .TO_PAGE), and
// tests/e2e/protocol.test.mjs fails when the two disagree or when a script under web/ writes a
// message name as a bare string instead of MSG.<name>.
//
// Fields: `id` is the page's request number, echoed by the one answer (`reply`, `loaded`, ...).
// Times are ns, sizes bytes, rates MB/s (1e6 bytes) unless a field says otherwise.
#pragma once
#include <cstddef>
#include <string_view>

namespace strata::protocol {

enum class Direction { kToWorker, kToPage };

struct WorkerMessage {
  std::string_view name;    // the `type` field
  Direction direction;      // who sends it
  std::string_view fields;  // the other fields, "name: type (unit)"
};

inline constexpr WorkerMessage kWorkerMessages[] = {
    // ---- page → engine worker ------------------------------------------------------------------
    {"open", Direction::kToWorker,
     "id; name: string (the page's name for a single source); source: URL string | Blob | "
     "ArrayBuffer | an array of those; notes: texts for the opened trace's summary().notes (what "
     "the page chose, e.g. a profiler folder's db over its text export). The worker asks "
     "engine_detect_format what each is: a "
     "list of XSpace files is one multi-host trace, a list of Chrome JSON files one multi-rank "
     "trace, any other list opens file by file; workers: how many workers parse a big plain Chrome "
     "JSON (web/worker/sliced.js; 1: the engine worker alone; absent: the cores, at most 8); "
     "sliceMinBytes: the smallest file sliced (absent: 64 MB); bundleLazyBytes: the smallest "
     "tile bundle opened lazily, tiles on demand (absent: 256 MB)"},
    {"view", Direction::kToWorker, "bytes: ArrayBuffer (a kViewRequest, transferred)"},
    {"details", Direction::kToWorker,
     "event: event index; hover: bool (for the UI's hover tooltip, answered with hover set)"},
    {"find", Direction::kToWorker, "id; text: string; limit: max matches"},
    {"locate", Direction::kToWorker, "id; name: string; tsNs: start (absolute ns); pid; tid"},
    {"query", Direction::kToWorker,
     "id; kind: engine query name (QUERY); args: JSON string; forUi: answer as queryResult"},
    {"summary", Direction::kToWorker,
     "id; digest: bool (add the store's digest: a pass over the whole store)"},
    {"lossTags", Direction::kToWorker, "id; lossId; lossTag: string; iterationTag: string"},
    {"lossRemove", Direction::kToWorker, "lossId"},
    {"runsStats", Direction::kToWorker,
     "id; kind: RUNS_KIND; files: {key: {url} | {blob}}; groupByShape: bool; step: string; "
     "cards: count; card: index; slot: 'a' | 'b'"},
    {"graphLayout", Direction::kToWorker,
     "request: the UI's sequence number; module; computation; expanded: instruction indices; "
     "focus: instruction or -1; hops: count"},
    {"graphNode", Direction::kToWorker,
     "module; instr: a clicked node (details, its occurrences in the trace and their costs, "
     "answered once by graphNode)"},
    {"graphOccurrences", Direction::kToWorker,
     "id; name: an op; answered {count, totalNs, events} of its exact-name occurrences in the "
     "trace (of the first 100 found), or null without a trace"},
    {"graphModules", Direction::kToWorker, "id"},
    {"graphSearch", Direction::kToWorker, "id; module; text: string; limit: max matches"},
    {"graphFind", Direction::kToWorker, "id; module; name: instruction name"},
    {"graphBench", Direction::kToWorker,
     "id; nodes: generated graph size | module + expandAll: bool (scripts/bench-graph)"},
    {"compareOpen", Direction::kToWorker,
     "id; name: string; source: URL string | Blob | ArrayBuffer: the variant trace B, loaded "
     "into the compare session's own store beside the current trace A; answered by reply with "
     "REPLY_KEYS.compareOpen (result: REPLY_KEYS.compare)"},
    {"compareResult", Direction::kToWorker,
     "id; answered by reply with the diff of the current trace against B (REPLY_KEYS.compare)"},
    {"compareAlign", Direction::kToWorker,
     "id; mode: 'start' | 'step' | 'order' | 'event'; step: number (order: index; -1: the first "
     "common number); event: name. What A's and B's timelines line up on (kept for later B's); "
     "answered by reply with REPLY_KEYS.compare"},
    {"compareView", Direction::kToWorker,
     "bytes: ArrayBuffer (a kViewRequest for B's timeline, in B's generations, transferred)"},
    {"compareQuery", Direction::kToWorker,
     "id; kind: engine query name (QUERY); args: JSON string: the query asked of B, answered as "
     "queryResult"},
    {"compareMatch", Direction::kToWorker,
     "id; from: 'a' | 'b'; args: JSON string {events: [event indices of that side]}: their "
     "counterparts on the other side (engine/compare/event_match.h), answered as queryResult "
     "with REPLY_KEYS.compareMatch"},
    {"compareDetails", Direction::kToWorker,
     "event: an event index of B: its details, answered by compareDetails"},
    {"podHosts", Direction::kToWorker,
     "id; names: hosts of the pod shown (podLoaded), whose bundles (relative to pod.json, on its "
     "origin) open as one trace on one time axis; answered as an open is (loaded or loadFailed, "
     "kind 'strata-pod') with pod: the host table (JSON text, REPLY_KEYS.pod) marking each host "
     "open or why it did not open"},
    {"loadWhole", Direction::kToWorker,
     "id: the lazy tile bundle shown read again whole, from where it was opened (its URL or "
     "picked file), into a store (as a bundle under the lazy threshold opens), so the analyses "
     "and every selection work; answered as an open is (loaded or loadFailed)"},

    // ---- engine worker → page ------------------------------------------------------------------
    {"ready", Direction::kToPage, "(the engine module has started)"},
    {"workerError", Direction::kToPage, "id (when a request failed); error: string"},
    {"progress", Direction::kToPage,
     "name: file; loaded: bytes read; total: bytes (0: unknown); mbps: MB/s; records: parsed"},
    {"preview", Direction::kToPage,
     "name: file whose first part is shown, or null (the previous trace is back); trackList: "
     "ArrayBuffer (a kTrackList)"},
    {"loaded", Direction::kToPage,
     "id; kind: engine_file_kind_name() of what was opened; summary: engine summary "
     "(REPLY_KEYS.summary); trackList: ArrayBuffer (a kTrackList) or null; memoryAdded: a memory "
     "CSV joined the trace; more: another answer to this id follows (a list opened file by file; "
     "also on loadFailed, graphLoaded, lossLoaded)"},
    {"loadFailed", Direction::kToPage, "id; error: string; summary"},
    {"graphLoaded", Direction::kToPage,
     "id; kind; summary; graph: {name, added: modules, first: index of the first added, modules, "
     "error}"},
    {"lossLoaded", Direction::kToPage,
     "id; kind; summary; lossId; name; lossTag; iterationTag; bytes: file size; points: "
     "ArrayBuffer of Float64 [iteration, loss] pairs; scanMs: ms; mbps: MB/s; format; "
     "seriesKeys; stepKeys; note (REPLY_KEYS.lossInfo); lossDetail: the same as the engine's "
     "JSON text, for the UI"},
    {"lossPoints", Direction::kToPage, "id; the fields of lossLoaded but summary (new tags)"},
    {"view", Direction::kToPage, "bytes: ArrayBuffer (a kViewReply, transferred)"},
    {"details", Direction::kToPage,
     "event; json: details JSON (REPLY_KEYS.details); hover: bool (the tooltip's, not the "
     "selection's)"},
    {"queryResult", Direction::kToPage, "id; json: the engine's answer to a forUi query"},
    {"reply", Direction::kToPage, "id; value: the answer to a request (JSON value)"},
    {"graph", Direction::kToPage, "request: graphLayout's; bytes: ArrayBuffer (graph layout)"},
    {"graphModules", Direction::kToPage, "modules: REPLY_KEYS.graphModule each; errors: strings"},
    {"graphNode", Direction::kToPage,
     "module; instr; json: node details JSON; trace: {count, totalNs} of its occurrences or null; "
     "costs: op costs JSON value or null"},
    {"podLoaded", Direction::kToPage,
     "id; kind: 'strata-pod'; name: pod.json's; summary; pod: the host table of the pod manifest "
     "opened (JSON text, "
     "REPLY_KEYS.pod; its errors say why when the file is not a pod manifest it reads); the "
     "trace shown stays until podHosts opens hosts"},
    {"compareView", Direction::kToPage,
     "bytes: ArrayBuffer (B's kTrackList, after a compareOpen that loaded it, or a kViewReply to "
     "a compareView request), for the UI's B timeline (ui_compare_receive)"},
    {"compareDetails", Direction::kToPage,
     "event (B's); json: B's details JSON (REPLY_KEYS.details), for the Compare tab's B pane "
     "(ui_compare_details)"},
};

inline constexpr size_t kWorkerMessageCount = sizeof(kWorkerMessages) / sizeof(kWorkerMessages[0]);

// A name is used once per direction (a request and its answer may share one, as `view` does).
constexpr bool worker_messages_unique() {
  for (size_t i = 0; i < kWorkerMessageCount; ++i)
    for (size_t j = i + 1; j < kWorkerMessageCount; ++j)
      if (kWorkerMessages[i].name == kWorkerMessages[j].name &&
          kWorkerMessages[i].direction == kWorkerMessages[j].direction)
        return false;
  return true;
}
static_assert(worker_messages_unique(), "a worker message name is listed twice for one direction");

// The `kind` of a `query` message: engine_query()'s names (src/engine/engine_queries.cc).
inline constexpr std::string_view kQueryKinds[] = {"select", "memory", "analysis", "find"};

// The memory chart's queries (the `memory` kinds of kQueryKinds: engine/engine_memory.cc
// answers them, with the keys of reply_keys_memory.h) and the args the UI sends with them:
// device (its name), group ("total" | "component"), [t0, t1] and t (ns from the trace start),
// px (buckets), by ("operator" | "shape" | "region"), limit (rows at most).
namespace memory_query {
inline constexpr std::string_view kSummary = "memory";
inline constexpr std::string_view kRange = "memory_range";
inline constexpr std::string_view kLive = "memory_live";
inline constexpr std::string_view kAllocs = "memory_allocs";
// An XLA module's runs on the devices whose memory is charted (args module, programId).
inline constexpr std::string_view kModule = "memory_module";
}  // namespace memory_query
namespace memory_args {
inline constexpr std::string_view kDevice = "device";
inline constexpr std::string_view kGroup = "group";
inline constexpr std::string_view kT0 = "t0";
inline constexpr std::string_view kT1 = "t1";
inline constexpr std::string_view kPx = "px";
inline constexpr std::string_view kT = "t";
inline constexpr std::string_view kBy = "by";
inline constexpr std::string_view kLimit = "limit";
inline constexpr std::string_view kModule = "module";        // an XLA module's name
inline constexpr std::string_view kProgramId = "programId";  // its program id, decimal text
}  // namespace memory_args

// The `kind` of a `runsStats` message (web/worker/runs.js).
inline constexpr std::string_view kRunsStatsKinds[] = {"ascend", "trace", "keep", "diff", "head"};

// The commands a host page sends an embedded Strata (an iframe, web/page/embed.js): messages
// {strata: {<command>: argument, id}}, answered {strata: {<result>, id}} (README "Embedding and
// hosting" gives each one's argument and answer).
inline constexpr std::string_view kEmbedCommands[] = {"hello", "open", "view",          "select",
                                                      "find",  "tab",  "watchSelection"};

}  // namespace strata::protocol
