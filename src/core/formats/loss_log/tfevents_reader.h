// TensorBoard event files (events.out.tfevents.*): TFRecord frames (u64 length, masked CRC-32C
// of the length, data, masked CRC-32C of the data; both CRCs checked), each an `Event` proto
// (wall_time = 1, step = 2, summary = 5). A scalar is a Summary.Value (tag = 1) with
// simple_value (2, TF1 and PyTorch writers) or a one-element numeric tensor (8, TF2 writers:
// float_val / double_val / half_val / int_val or little-endian tensor_content by dtype). Writers
// put the SummaryMetadata (9) only on a tag's first value, so a tag whose first metadata names
// another plugin (text, histograms, images) is left out from then on; a tag never given one is a
// scalar when its value is. One series per tag; the step is the Event's (0 when absent: proto3
// does not write zeros). Every tag's points are kept (a few per kilobyte of file), so when the
// selected tag is absent (a head of GraphDefs held no scalars to guess from) the guessed one is
// read without a second pass. Field numbers: FORMATS.md "TensorBoard event files".
#pragma once
#include <string>
#include <unordered_map>

#include "core/formats/loss_log/metrics_reader.h"

namespace strata {

// Do these first bytes start a TFRecord file (a length whose masked CRC follows it)?
bool looks_like_tfevents(const uint8_t* p, size_t n);

class TfEventsReader : public MetricsReader {
 public:
  // A record longer than this (a GraphDef, an image) has its CRC checked as it streams but is
  // not held or decoded: scalars live in small records.
  static constexpr uint64_t kMaxDecoded = 16u << 20;

  explicit TfEventsReader(MetricsSelection sel) : sel_(std::move(sel)) {
    result_.step_keys.push_back("step");
  }
  void feed(const uint8_t* data, size_t n) override;
  void finish() override;

 private:
  void record_done();
  void event(const uint8_t* p, size_t n);
  void value(const uint8_t* p, size_t n, int64_t step);
  void fail(const std::string& why);
  void choose();  // the selected (or guessed) tag's points into the result

  MetricsSelection sel_;
  KeyList keys_;
  std::unordered_map<std::string, bool> tag_is_scalar_;  // from a tag's first metadata
  std::unordered_map<std::string, LossSeries> by_tag_;
  enum class Part { kHeader, kData, kFooter } part_ = Part::kHeader;
  uint8_t frame_[12] = {};  // the header, then the footer's 4 bytes
  size_t have_ = 0;         // bytes of the current part so far
  uint64_t length_ = 0;
  uint32_t data_crc_ = 0;
  std::string data_;  // the current record's data when it is decoded
  uint64_t offset_ = 0, record_start_ = 0;
  bool stopped_ = false;
};

}  // namespace strata
