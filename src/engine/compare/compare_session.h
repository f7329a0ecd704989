// Compare two runs: the baseline A is the engine's current trace; the variant B loads into its
// own Engine here, in the same worker, through the same importers and format detector (any
// format the engine streams). A's trace is untouched while B loads; a B that fails to load
// leaves A and the previous B as they were, and last_error() says why. The diff tables
// (op_diff.h, per operator, kernel, XLA op and category), the step-time breakdowns side by
// side (step_compare.h) and the call-tree diff (tree_compare.h) are computed here and answered as
// JSON (reply_keys_compare.h). engine/wasm/compare_exports.cc forwards here.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/compare/op_diff.h"
#include "engine/compare/step_compare.h"
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
  // The whole reply: both sides, the four tables, the steps, the call tree, the errors
  // (reply_keys_compare.h).
  std::string result_json(const Engine& a) const;

 private:
  std::unique_ptr<Engine> b_;  // never null
  bool has_b_ = false;
  std::string b_name_, loading_name_, last_error_;
};

}  // namespace strata
