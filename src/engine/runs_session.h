// The Runs tab's statistics in the engine worker: the files of an Ascend profile put by name,
// the records pass over a loaded Kineto trace, the sides kept for a Diff, and the JSON replies
// (core/runs/run_stats_json.h). Why here and not in a worker of their own: a Kineto trace's
// tables need the loaded store, and the CSVs are small. engine/wasm/runs_exports.cc forwards
// to one instance; native tests drive it the same.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/runs/run_stats.h"
#include "engine/memory_scan.h"

namespace strata {

class Engine;

class RunsSession {
 public:
  explicit RunsSession(const Engine& engine) : engine_(engine) {}

  // Scratch space for one file's bytes; then put() names them.
  uint8_t* buffer(size_t n);
  // The buffer's first n bytes become file `key` ("a/operator_details.csv", ...). A key ending
  // in ".db" ("a/ascend_pytorch_profiler_0.db") is an Ascend profiler db: it becomes the text
  // export's files of that prefix (core/formats/sqlite/ascend_db_runs.h).
  void put(std::string_view key, size_t n);
  void put_text(std::string_view key, std::string text) {
    texts_[std::string(key)] = std::move(text);
  }
  void clear() {
    texts_.clear();
    db_errors_.clear();
  }

  // The Ascend profile under "a/": operator_details.csv, kernel_details.csv, op_statistic.csv;
  // and for Distributed every card's "card<N>/step_trace_time.csv" and
  // "card<N>/communication.json" (cards 0..cards-1 that were put).
  std::string ascend_stats_json(bool group_by_shape, std::string_view step, int cards) const;

  // The records the trace's operator table reads (input shapes, call stacks, correlation ids)
  // are not in the store: one pass over the source picks them all. records_begin returns how
  // many are wanted (0: nothing to read); then feed the source from its start through buffer +
  // records_commit until that returns true. Kept until the next pass or records_clear.
  uint32_t records_begin();
  bool records_commit(size_t n);
  void records_clear();

  // Keeps the loaded trace's operator table and per-step times as Diff side `slot` ("a"/"b").
  void trace_keep(std::string_view slot, bool group_by_shape);
  // Diff of profile "a" (baseline) against "b". A kept side is used as kept (and forgotten);
  // otherwise the side is Ascend: "<side>/operator_details.csv" and "<side>/kernel_details.csv".
  std::string diff_json(bool group_by_shape, std::string_view step);
  // The loaded Kineto trace as one profile (card = its rank for the Distributed row).
  std::string trace_stats_json(bool group_by_shape, int card) const;
  // The buffer's first n bytes are a JSON trace's head (as stored: plain, gzip or zstd):
  // {"rank", "worldSize", "errors"} from its distributedInfo (-1 where it gives none).
  std::string trace_head_json(size_t n) const;

 private:
  struct KeptSide {
    runs::OperatorTable ops;
    runs::StepOpTimes steps;
  };
  const std::string& text(const std::string& key) const;
  void put_ascend_db(std::string_view key, size_t n);
  runs::RecordLookup record_lookup() const;

  const Engine& engine_;
  std::map<std::string, std::string> texts_;  // file key → text
  std::vector<std::string> db_errors_;        // dbs put that could not be read
  std::vector<uint8_t> buf_;
  MemoryScan records_;
  std::unordered_map<uint32_t, size_t> record_of_;  // event → record index in records_
  std::map<std::string, KeptSide> kept_;            // "a" / "b"
};

}  // namespace strata
