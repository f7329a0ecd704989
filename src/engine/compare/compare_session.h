// Compare two runs: the baseline A is the engine's current trace; the variant B loads into its
// own Engine here, in the same worker, through the same importers and format detector (any
// format the engine streams). A's trace is untouched while B loads; a B that fails to load
// leaves A and the previous B as they were, and last_error() says why. The diff tables
// (op_diff.h, per operator, kernel, XLA op and category) and the step-time breakdowns side by
// side (step_compare.h) and the call-tree diff (tree_compare.h) are computed here and answered
// as JSON (reply_keys_compare.h), with
// where the two timelines line up (timeline_align.h, the mode the user chose). B answers the
// same timeline messages (view_messages.h, in its own generations) and panel queries A does.
// engine/wasm/compare_exports.cc forwards here.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/compare/event_match.h"
#include "engine/compare/op_diff.h"
#include "engine/compare/step_compare.h"
#include "engine/compare/timeline_align.h"
#include "engine/compare/tree_compare.h"
#include "engine/engine.h"

namespace strata {

class CompareSession {
 public:
  CompareSession();

  // ---- loading B: as Engine's load_* (engine.h) -------------------------------------------
  void load_begin(std::string_view name, uint64_t total_bytes);
  uint8_t* load_buffer(size_t n) { return b_->load_buffer(n); }
  void load_commit(size_t n) { b_->load_commit(n); }
  bool load_next_file(std::string_view name, uint64_t bytes) {
    return b_->load_next_file(name, bytes);
  }
  // True: B replaced the previous B. False: the previous B (if any) stays, last_error() says why.
  bool load_end();
  void load_fail(std::string_view message);
  // A SQLite profile as B (Nsight Systems, Ascend): opened where it is, as Engine::load_sqlite;
  // true and false as load_end().
  bool load_sqlite(std::string_view name, ByteReader* reader);
  const std::string& last_error() const { return last_error_; }

  bool has_b() const { return has_b_; }
  const Engine& b() const { return *b_; }
  const std::string& b_name() const { return b_name_; }
  // Drops B (its memory goes back to the worker's wasm heap, for the next B).
  void clear();

  // The diff of A (`a`, the current trace) against B, by key; empty tables without a B.
  OpDiff diff(const Engine& a, OpDiffKey key) const;
  // The call-tree diff of A against B (tree_compare.h); empty without a B.
  TreeDiff tree_diff(const Engine& a) const;
  // The whole reply: both sides, the four tables, the steps, the call tree, the alignment, the
  // errors
  // (reply_keys_compare.h).
  std::string result_json(const Engine& a) const;

  // What the timelines line up on; kept across B's loads (the user's choice).
  void set_alignment(const AlignRequest& r) { align_ = r; }
  const AlignRequest& alignment_request() const { return align_; }
  // The alignment of A against B for the chosen mode (the starts without a B).
  Alignment alignment(const Engine& a) const;

  // B's timeline: its track list, a view request's reply (Engine::track_list / view) and its
  // panel queries (Engine::query_json), for B's timeline under A's.
  std::vector<uint8_t> b_track_list() const { return b_->track_list(); }
  std::vector<uint8_t> b_view(const uint8_t* request, size_t n) { return b_->view(request, n); }
  std::string b_query_json(std::string_view kind, std::string_view args) const {
    return b_->query_json(kind, args);
  }
  // B's event details (Engine::details_json), with its record when B's file is plain:
  // b_record_range gives where the record is in B's file (false: compressed, or none).
  bool b_record_range(uint32_t event, uint64_t* offset, uint32_t* length) const;
  std::string b_details_json(uint32_t event, std::string_view record) const {
    return b_->details_json(event, record);
  }

  // The linked selection: the counterparts of `events` of A in B (from_b false), or of B's in
  // A, lined up on the alignment chosen (event_match.h); none without a B.
  std::vector<EventMatch> match(const Engine& a, bool from_b,
                                const std::vector<uint32_t>& events) const;
  // The same as REPLY_KEYS.compareMatch, with the other side's select reply of the
  // counterparts (reply_keys_compare.h).
  std::string match_json(const Engine& a, bool from_b, const std::vector<uint32_t>& events) const;

 private:
  std::unique_ptr<Engine> b_;  // never null
  bool has_b_ = false;
  AlignRequest align_;
  std::string b_name_, loading_name_, last_error_;
};

}  // namespace strata
