// One XPlane → the event store. The importer (xplane_importer.cc) frames the XSpace and hands
// each complete plane here as one contiguous byte range: a plane's metadata maps (fields 4 and
// 5) come after its lines (field 3) in every file protobuf writes, so names and stat roles are
// resolved first and the events then stream into the TraceBuilder with everything known.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/formats/xplane/xplane_derived.h"
#include "core/formats/xplane/xplane_hlo_symbols.h"
#include "core/formats/xplane/xplane_tables.h"
#include "core/store/trace_builder.h"

namespace strata {

// A plane read in parts, each a run of its lines (a big plane cut across slices,
// xplane_sliced.h): what its later parts and the plane-wide passes at its end take from the
// parts before. The rows derived from all its lines (and the host plane count) wait for the
// last part, as one pass derives them after the plane's last line.
struct PendingPlane {
  bool active = false;
  uint32_t file_plane = 0;  // the plane's index in the file
  uint32_t first_line = 0, next_line = 0, lines = 0;
  bool host = false;
  uint32_t pools = 0;
  // Its sections so far: slot 0 the plane's own, 1 + k thread pool k (kNone: not made yet),
  // with the key each was given and the name it was made from.
  std::vector<uint32_t> process;
  std::vector<std::string> key, base;
  DeriveRows rows;
  std::vector<DeriveInput> derive_in, steps_in;
};

// State shared by the planes of one import.
struct XSpaceImport {
  TraceBuilder* builder = nullptr;
  XSpaceTables* tables = nullptr;
  std::vector<SourcePlane>* summary = nullptr;  // TraceStore::planes
  // A later slice of a sliced import (xplane_sliced.h): how many planes the file has before
  // the slice's first, so plane numbers and the pids and keys made from them are the file's.
  uint32_t plane_base = 0;
  uint64_t events = 0;       // XEvents stored (slices + counter samples)
  uint32_t host_planes = 0;  // XProf's pid bookkeeping across host planes
  uint32_t pool_pid_offset = 0;
  std::unordered_map<std::string, uint32_t> process_plane;   // process key → tables->planes index
  std::vector<std::pair<std::string, std::string>> derived;  // (process key, track key)
  // Counted over the whole file, reported once at the end.
  uint64_t aggregated = 0;  // XEvents with num_occurrences instead of a start
  uint64_t malformed = 0, malformed_at = 0;
  std::string malformed_why;
  uint64_t missing_meta = 0;
  // Several files in one load (one per host): the file being read, and every section made,
  // so the importer can name them by host and group them once it knows there are several.
  uint32_t file = 0;
  // Record locators (events' src_offset, HLO spans) are offsets in the files' bytes one after
  // the other: this is the current file's first byte there (SourceFile::stream_base).
  uint64_t src_base = 0;
  struct Section {
    uint32_t process, file;
    std::string base;  // the section's name within its host (before de-duplication)
    int64_t sort;
    // A host plane's section: its host plane index (the plane's own section) or its pool's
    // pid index (a thread pool's), counted from this import's first plane; kNone otherwise.
    // A later slice counts from 0, and the merge renumbers by the host planes before it.
    uint32_t host = kNone, pool = kNone;
  };
  std::vector<Section> sections;
  // From the HloProtos of the metadata plane (written first by the profilers): the framework
  // op of each HLO instruction, for the device planes that follow.
  HloSymbols hlo_symbols;
  PendingPlane pending;  // a plane whose later lines are still to come
};

// Imports the XPlane message [data, data + n), whose first byte is at file offset `base`.
// `truncated`: the file ends inside this plane; what is complete is imported and the cut is
// reported by the caller. Damage inside the plane is reported (with its byte offset) to the
// store's errors; what was read before it is kept. Returns the plane's name (for messages).
std::string import_xplane(XSpaceImport* ctx, const uint8_t* data, size_t n, uint64_t base,
                          bool truncated);

// Imports lines [lo, hi) of the XPlane [data, data + n) (a whole, undamaged plane message) as
// one part of it: the first part (lo 0) gives the plane its tables, summary and metadata
// messages; every part reads the metadata and the headers of all lines (the thread pools and
// the derive source are over all of them) and the events of its own lines into ctx->pending.
// The part that ends the plane, in an import that holds its first, runs the plane-wide end
// (derived rows, host plane count): finish_pending_plane.
void import_xplane_part(XSpaceImport* ctx, const uint8_t* data, size_t n, uint64_t base,
                        uint32_t lo, uint32_t hi);
void finish_pending_plane(XSpaceImport* ctx);

// Reads only what later planes take from this one, the HLO symbols of its HloProtos, into
// ctx->hlo_symbols: a later slice reads so the metadata plane an earlier slice imports. No
// message, no table, no event; the strings it interns are ones the one-pass import interns too.
void read_xplane_symbols(XSpaceImport* ctx, const uint8_t* data, size_t n, uint64_t base);

}  // namespace strata
